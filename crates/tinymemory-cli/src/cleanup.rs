//! What a run leaves behind if it is interrupted: on `SIGINT`, `SIGTERM`
//! or `SIGHUP` the driver processes' groups are ended (`SIGTERM`, then
//! `SIGKILL`) and the temporary files and directories removed before the
//! program exits (130, 143 and 129, as a shell reports a death by those
//! signals). `run --stop-on-stdin-eof` stops the same way, as `SIGTERM`
//! does, when stdin reaches its end: the pipe of a host (the pytest
//! plugin, node:test) that is gone.
//!
//! No driver process starts once the stop has begun
//! ([`tinymemory_exec::refuse_new_processes`]), and the groups are killed
//! once more right before the exit, so none started while the run went on
//! beside the stop outlives it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

/// Set once `SIGINT`, `SIGTERM` or `SIGHUP` arrived (or, under
/// `--stop-on-stdin-eof`, the end of stdin), before the driver processes
/// are stopped: the checks those processes were answering then fail, and the
/// console prints none of that (the run is not judged, it is stopped).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether the run was interrupted (and the console is to stay quiet).
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Once interrupted, waits for the signal handler to end the program: a
/// command that goes on would write a report, or exit with a code, made of
/// the failures of the driver processes the handler stopped.
pub(crate) fn wait_if_interrupted() {
    while interrupted() {
        std::thread::park();
    }
}

/// Temporary directories to remove if the run is interrupted.
static SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes `dir` (a temporary directory of this run) if the run is
/// interrupted; a normal end removes it by its own `TempDir`.
pub(crate) fn remove_on_signal(dir: PathBuf) {
    SCRATCH
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(dir);
}

/// A sentence the interrupt message ends with, set by a command whose
/// interruption leaves something behind (a partial `migrate` target).
static NOTE: Mutex<Option<String>> = Mutex::new(None);

/// Ends the message printed on `SIGINT` or `SIGTERM` with `note`.
pub(crate) fn note_on_signal(note: String) {
    *NOTE.lock().unwrap_or_else(PoisonError::into_inner) = Some(note);
}

/// Ends the driver processes (`SIGTERM`, then `SIGKILL` after
/// `TERM_GRACE`, so they can remove their own files), none starting from
/// here on, and removes the temporary directories.
fn clean_up() {
    tinymemory_exec::refuse_new_processes();
    tinymemory_exec::terminate_all(tinymemory_exec::TERM_GRACE);
    let dirs = std::mem::take(&mut *SCRATCH.lock().unwrap_or_else(PoisonError::into_inner));
    for dir in dirs {
        // The run goes on while this runs, and may create a file in the
        // directory between the removal's listing and its rmdir: try again
        // a few times. Nothing else can be done about an error on the way
        // out.
        for _ in 0..20 {
            let removed = if dir.is_dir() {
                std::fs::remove_dir_all(&dir)
            } else {
                std::fs::remove_file(&dir)
            };
            if removed.is_ok() || !dir.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

/// How long the signal path waits for its message to be written.
const MESSAGE_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// Starts a thread that, on `SIGINT`, `SIGTERM` or `SIGHUP`, cleans up and
/// exits (130, 143, 129).
/// The handlers are in place when this returns. Where they cannot be
/// installed, the default action (ending the program) is kept, with a
/// warning.
#[cfg(unix)]
pub(crate) fn install() {
    use tokio::signal::unix::{signal, SignalKind};
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            stderr_line!("warning: failed to watch for SIGINT and SIGTERM: {e}");
            return;
        }
    };
    let streams = {
        let _entered = runtime.enter();
        signal(SignalKind::interrupt()).and_then(|i| {
            Ok((
                i,
                signal(SignalKind::terminate())?,
                signal(SignalKind::hangup())?,
            ))
        })
    };
    let (mut interrupt, mut terminate, mut hangup) = match streams {
        Ok(s) => s,
        Err(e) => {
            stderr_line!("warning: failed to watch for SIGINT, SIGTERM and SIGHUP: {e}");
            return;
        }
    };
    let watcher = std::thread::Builder::new()
        .name("signals".to_owned())
        .spawn(move || {
            // 128 + the signal's number, as a shell reports a death by it.
            let (name, code) = runtime.block_on(async {
                tokio::select! {
                    _ = interrupt.recv() => ("SIGINT", 130),
                    _ = terminate.recv() => ("SIGTERM", 143),
                    _ = hangup.recv() => ("SIGHUP", 129),
                }
            });
            stop(&format!("interrupted by {name}"), code);
        });
    if let Err(e) = watcher {
        stderr_line!("warning: failed to watch for SIGINT and SIGTERM: {e}");
    }
}

#[cfg(not(unix))]
pub(crate) fn install() {}

/// Stops the program, once, whichever asks first (a signal, the end of
/// stdin): cleans up ([`clean_up`]), prints `error: {why}: ...` and exits
/// with `code` after killing the driver groups once more. A second caller
/// waits for the first one's exit.
fn stop(why: &str, code: i32) -> ! {
    stop_then(code, || {
        let note = NOTE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .map(|n| format!("; {n}"))
            .unwrap_or_default();
        format!(
            "error: {why}: the driver processes were stopped and the temporary files removed{note}"
        )
    })
}

/// Stops the program as a signal does ([`stop`]), but with `message` as
/// its whole last word: a run that found it cannot go on (a broken
/// environment, `run::environment`), whose checks still running are
/// stopped with their processes.
pub(crate) fn stop_with(message: &str, code: i32) -> ! {
    stop_then(code, || message.to_owned())
}

/// [`stop`]'s steps, the message made by `message` once the driver
/// processes are stopped.
fn stop_then(code: i32, message: impl FnOnce() -> String) -> ! {
    use std::io::Write as _;
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
    clean_up();
    let message = message();
    // Written from a thread of its own, waited for a moment: stderr may be
    // a pipe nobody reads (`run 2>&1 | less`, stopped), and a write to a
    // full pipe never returns. Not `eprintln!`, which panics when the
    // reader is gone (`run 2>&1 | head -1`); either way the run once
    // ignored every later signal. A message nobody can read is not
    // written; the exit code still says why it ended.
    let (done, written) = std::sync::mpsc::channel();
    let writer = std::thread::Builder::new().spawn(move || {
        let _ = writeln!(std::io::stderr(), "{message}");
        let _ = done.send(());
    });
    if writer.is_ok() {
        let _ = written.recv_timeout(MESSAGE_WAIT);
    }
    // The run went on while this waited; no process started since
    // `clean_up`, and any it had started before is killed here.
    tinymemory_exec::kill_all();
    std::process::exit(code);
}

/// The exit code of a run stopped by the end of stdin: `SIGTERM`'s, as the
/// stop is `SIGTERM`'s.
const STDIN_END_CODE: i32 = 143;

/// `run --stop-on-stdin-eof`: starts a thread that reads stdin to its end
/// (what it reads is dropped) and then stops the program as `SIGTERM`
/// does ([`stop`]). A host (the pytest plugin, node:test) holds a pipe to
/// the binary's stdin and never writes to it; when the host is gone,
/// killed or not, the kernel closes its end and the run stops with it. A
/// read error counts as the end.
pub(crate) fn stop_at_end_of_stdin() {
    let watcher = std::thread::Builder::new()
        .name("stdin".to_owned())
        .spawn(|| {
            let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
            stop(
                "stopped by the end of stdin (--stop-on-stdin-eof)",
                STDIN_END_CODE,
            );
        });
    if let Err(e) = watcher {
        stderr_line!("warning: failed to watch stdin for --stop-on-stdin-eof: {e}");
    }
}
