//! The child process, its pipes, and one request/answer exchange.

use std::process::{ExitStatus, Stdio};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tinymemory_api::shown::visible;
use tinymemory_api::MemoryError;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::timeout;

use super::stderr::StderrTail;
use super::Shared;
use crate::config::MAX_LINE_BYTES;
use crate::group::{Group, NotStarted};
use crate::protocol::{parse_answer, Answer, Request, RequestLine, WireErrorKind};
use crate::{ExecCommand, ExecConfig};

/// How long a stopping process gets to exit, and its stderr to reach its
/// end, before the suite stops waiting. Only failure paths wait on it.
const GRACE: Duration = Duration::from_secs(2);

/// Why the process can no longer be used; every later request fails with it.
#[derive(Debug, Clone)]
struct Failure {
    /// `true` for a timeout (`Unavailable`); else `Backend`.
    unavailable: bool,
    reason: String,
}

impl Failure {
    fn error(&self, message: String) -> MemoryError {
        if self.unavailable {
            MemoryError::unavailable(message)
        } else {
            MemoryError::fault(message)
        }
    }
}

/// How waiting for one answer ended.
enum Step {
    Read(Read),
    /// The process exited while the request waited (its stdout may still
    /// be held open by a process it started).
    Exited(std::io::Result<ExitStatus>),
    /// [`Connection::abort`](super::Connection::abort) was called.
    Aborted,
    TimedOut,
}

/// What one attempt to read a line gave.
enum Read {
    Line(Vec<u8>),
    /// Stdout reached its end, or a pipe broke: the process is gone.
    Ended,
    TooLong,
}

pub(super) struct Session {
    command: String,
    config: ExecConfig,
    child: Child,
    /// The process's group (it leads one of its own), killed whenever the
    /// process is stopped or the session ends; `None` only where process
    /// groups do not exist.
    group: Option<Group>,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    stderr: StderrTail,
    stderr_task: Option<JoinHandle<()>>,
    failed: Option<Failure>,
    shared: Arc<Shared>,
    abort: watch::Receiver<bool>,
}

/// Why `command` did not start, naming its program and the rule that
/// runs it: the first word is executed directly (no shell), found on
/// `PATH` unless it holds a `/`, taken from the working directory if
/// relative. A missing program, a script whose `#!` interpreter is
/// missing and a file without execute permission each say so, then the
/// OS error.
fn not_started(command: &ExecCommand, e: &std::io::Error) -> String {
    const RULE: &str = "the command's first word is run as a program, without a shell";
    let program = command.program();
    let shown = visible(program);
    let path = std::path::Path::new(program);
    let why = match e.kind() {
        std::io::ErrorKind::NotFound if !program.contains('/') => {
            format!("program {shown} not found on PATH ({RULE})")
        }
        std::io::ErrorKind::NotFound if path.is_file() => {
            format!("{shown} exists, but not the interpreter its #! line names ({RULE})")
        }
        std::io::ErrorKind::NotFound => {
            format!("no such file {shown} ({RULE}; a path is taken from the working directory)")
        }
        std::io::ErrorKind::PermissionDenied if path.is_file() => format!(
            "{shown} is not executable ({RULE}; chmod +x it, or name its interpreter first: \
             exec:'sh SCRIPT')"
        ),
        _ => return e.to_string(),
    };
    format!("{why}: {e}")
}

impl Session {
    /// Starts the process with piped stdin, stdout and stderr, as the
    /// leader of a process group of its own; refused once the program
    /// stops its drivers ([`crate::refuse_new_processes`]).
    pub(super) fn spawn(
        command: &ExecCommand,
        config: ExecConfig,
        shared: Arc<Shared>,
        abort: watch::Receiver<bool>,
    ) -> Result<Self, String> {
        let mut cmd = tokio::process::Command::new(command.program());
        cmd.args(command.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        #[cfg(unix)]
        cmd.process_group(0);
        let (mut child, group) = Group::start(|| cmd.spawn(), Child::id).map_err(|e| match e {
            NotStarted::Spawn(e) => {
                format!("failed to start `{command}`: {}", not_started(command, &e))
            }
            NotStarted::Refused => format!(
                "failed to start `{command}`: this program is stopping (interrupted), so it \
                     starts no driver process"
            ),
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(format!(
                "failed to start `{command}`: a pipe to it was not opened"
            ));
        };
        let tail = StderrTail::new(config.stderr_lines);
        let stderr_task = tokio::spawn(tail.clone().capture(stderr));
        Ok(Self {
            command: command.to_string(),
            config,
            child,
            group,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            stderr: tail,
            stderr_task: Some(stderr_task),
            failed: None,
            shared,
            abort,
        })
    }

    /// Writes request `id` and reads its answer, within the request timeout.
    pub(super) async fn exchange(
        &mut self,
        id: u64,
        request: Request,
    ) -> Result<Value, MemoryError> {
        let op = request.op();
        let call = request.describe();
        if let Some(f) = &self.failed {
            return Err(f.error(format!(
                "failed to send `{op}` to `{}`: the process is no longer usable: {}",
                self.command, f.reason
            )));
        }
        let line = RequestLine { id, request }.to_line();
        if let Some(trace) = &self.config.trace {
            trace.request(self.child.id(), &line);
        }
        let mark = self.stderr.mark();
        let limit = self.config.request_timeout;
        let step = tokio::select! {
            biased;
            read = round_trip(&mut self.stdin, &mut self.stdout, line) => Step::Read(read),
            status = self.child.wait() => Step::Exited(status),
            () = aborted(&mut self.abort) => Step::Aborted,
            () = tokio::time::sleep(limit) => Step::TimedOut,
        };
        match step {
            Step::TimedOut => {
                self.kill().await;
                Err(self.fail_call(
                    true,
                    &call,
                    format!(
                        "no answer within {limit:?} (the request timeout, --call-timeout SECS), so the \
                         driver is taken as hung and the process was stopped; a driver must answer \
                         every request with one line and flush stdout after it"
                    ),
                ))
            }
            Step::Aborted => {
                self.kill().await;
                Err(self.fail(
                    true,
                    op,
                    "its caller stopped waiting for the answer and dropped the store, so the process \
                     was stopped"
                        .to_owned(),
                ))
            }
            Step::Exited(status) => {
                // Whatever it started may still hold stdout open: stop it,
                // and read the end of stderr.
                self.kill().await;
                Err(self.fail(false, op, exit_reason(status)))
            }
            Step::Read(Read::Ended) => {
                let how = self.reap().await;
                Err(self.fail(false, op, how))
            }
            Step::Read(Read::TooLong) => {
                self.kill().await;
                Err(self.fail(
                    false,
                    op,
                    format!("the answer is longer than {MAX_LINE_BYTES} bytes, so the process was stopped"),
                ))
            }
            Step::Read(Read::Line(bytes)) => {
                if let Some(trace) = &self.config.trace {
                    trace.answer(self.child.id(), &bytes);
                }
                self.answer(op, id, &bytes, mark).await
            }
        }
    }

    async fn answer(
        &mut self,
        op: &str,
        id: u64,
        bytes: &[u8],
        mark: u64,
    ) -> Result<Value, MemoryError> {
        match parse_answer(bytes, id) {
            Ok(Answer::Result(value)) => Ok(value),
            Ok(Answer::Error(wire)) => {
                let quote = if wire.kind == WireErrorKind::Invalid {
                    String::new()
                } else {
                    // The lines the driver wrote while failing, typically a
                    // traceback: written before the answer, but read by
                    // another task, so they may still be on their way.
                    self.stderr.settle().await;
                    self.stderr.render_since(mark)
                };
                Err(wire
                    .into_memory_error_quoting(&quote)
                    .unwrap_or_else(|reason| {
                        MemoryError::fault(format!(
                            "failed to read the answer to `{op}` from `{}`: {reason}",
                            self.command
                        ))
                    }))
            }
            Err(e) if e.desynchronised() => {
                self.kill().await;
                Err(self.fail(
                    false,
                    op,
                    format!(
                        "{e}; the process was stopped, since the suite can no longer tell which line \
                         answers which request (a driver must write only answers to stdout, and log to stderr)"
                    ),
                ))
            }
            Err(e) => Err(MemoryError::fault(format!(
                "failed to read the answer to `{op}` from `{}`: {e}",
                self.command
            ))),
        }
    }

    /// Marks the process unusable and builds the error for request `op`,
    /// quoting the end of its stderr.
    fn fail(&mut self, unavailable: bool, op: &str, reason: String) -> MemoryError {
        self.fail_call(unavailable, &format!("`{op}`"), reason)
    }

    /// [`Session::fail`] for a request described as `call`
    /// ([`Request::describe`]).
    fn fail_call(&mut self, unavailable: bool, call: &str, reason: String) -> MemoryError {
        let failure = Failure {
            unavailable,
            reason,
        };
        let error = failure.error(format!(
            "failed to get an answer to {call} from `{}`: {}{}",
            self.command,
            failure.reason,
            self.stderr.render()
        ));
        self.failed = Some(failure);
        self.shared.dead.store(true, Ordering::Release);
        error
    }

    /// Kills the process's whole group (the process and all it started).
    fn kill_group(&mut self) {
        if let Some(group) = &self.group {
            group.kill();
        }
        let _ = self.child.start_kill();
    }

    /// After stdout ended: how the process ended, once it has (it is
    /// stopped if it lingers past [`GRACE`]).
    async fn reap(&mut self) -> String {
        self.stdin = None;
        let how = match timeout(GRACE, self.child.wait()).await {
            Ok(status) => exit_reason(status),
            Err(_elapsed) => {
                self.kill_group();
                let _ = timeout(GRACE, self.child.wait()).await;
                "the process closed its stdout, so it was stopped".to_owned()
            }
        };
        // What it started dies with it.
        self.kill_group();
        self.drain_stderr().await;
        how
    }

    /// Stops the process and its group (`SIGTERM`, up to
    /// [`TERM_GRACE`](crate::TERM_GRACE) for it to clean up, then
    /// `SIGKILL`), and waits for it and for the end of its stderr.
    async fn kill(&mut self) {
        self.stdin = None;
        self.terminate_group().await;
        self.kill_group();
        let _ = timeout(GRACE, self.child.wait()).await;
        self.drain_stderr().await;
    }

    /// `SIGTERM` to the group, then up to [`TERM_GRACE`](crate::TERM_GRACE)
    /// until every process of it has ended; the caller sends `SIGKILL`.
    async fn terminate_group(&mut self) {
        if let Some(group) = &self.group {
            if group.is_alive() {
                group.terminate();
                let deadline = tokio::time::Instant::now() + crate::TERM_GRACE;
                group_ended(group, &mut self.child, deadline).await;
            }
        }
    }

    async fn drain_stderr(&mut self) {
        if let Some(task) = self.stderr_task.take() {
            let _ = timeout(GRACE, task).await;
        }
    }

    /// Ends the process at the end of its store, in the documented order
    /// (docs/protocol.md, "Ending a driver"): stdin closed (a driver exits
    /// at its end) and [`EXIT_GRACE`](crate::EXIT_GRACE) to exit; then,
    /// if the process or anything it started is still running, `SIGTERM`
    /// to its group and [`TERM_GRACE`](crate::TERM_GRACE) more; then
    /// `SIGKILL`, so nothing it started outlives it. An abort skips the
    /// wait for stdin's end. A driver that keeps files (an embedded database, a
    /// temporary directory) removes them on stdin's end or on `SIGTERM`.
    pub(super) async fn shutdown(mut self) {
        self.stdin = None;
        let exited = tokio::select! {
            biased;
            status = timeout(crate::EXIT_GRACE, self.child.wait()) => status.is_ok(),
            () = aborted(&mut self.abort) => false,
        };
        self.terminate_group().await;
        self.kill_group();
        if !exited {
            let _ = timeout(GRACE, self.child.wait()).await;
        }
        // Dropping the session unregisters the group.
    }
}

/// Writes `line` and reads one answer line.
async fn round_trip(
    stdin: &mut Option<ChildStdin>,
    stdout: &mut BufReader<ChildStdout>,
    mut line: String,
) -> Read {
    let Some(stdin) = stdin.as_mut() else {
        return Read::Ended;
    };
    line.push('\n');
    if stdin.write_all(line.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
        return Read::Ended;
    }
    let mut buf = Vec::new();
    let limit = u64::try_from(MAX_LINE_BYTES)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    match stdout.take(limit).read_until(b'\n', &mut buf).await {
        Err(_) | Ok(0) => Read::Ended,
        Ok(_) if buf.ends_with(b"\n") => {
            buf.pop();
            if buf.ends_with(b"\r") {
                buf.pop();
            }
            Read::Line(buf)
        }
        Ok(_) if buf.len() > MAX_LINE_BYTES => Read::TooLong,
        // The last line, without a newline, before the end of stdout.
        Ok(_) => Read::Line(buf),
    }
}

/// Waits until `abort` holds `true`; never returns once its sender is gone
/// without having sent it.
/// Returns when every process of `group` has ended (the leader reaped),
/// or at `deadline`.
async fn group_ended(group: &Group, child: &mut Child, deadline: tokio::time::Instant) {
    // A group has no handle to wait on: poll it, briefly, only while a
    // driver cleans up after SIGTERM.
    const POLL: Duration = Duration::from_millis(20);
    loop {
        // Reaping the leader lets `killpg(pgid, 0)` stop finding it.
        let _ = child.try_wait();
        if !group.is_alive() || tokio::time::Instant::now() >= deadline {
            return;
        }
        tokio::time::sleep(POLL).await;
    }
}

async fn aborted(abort: &mut watch::Receiver<bool>) {
    if abort.wait_for(|stop| *stop).await.is_err() {
        std::future::pending::<()>().await;
    }
}

fn exit_reason(status: std::io::Result<ExitStatus>) -> String {
    match status {
        Ok(status) => format!("the process exited ({status})"),
        Err(e) => format!("the process ended, and its status could not be read ({e})"),
    }
}
