//! One driver process, served by a thread of its own.
//!
//! Each process gets a thread running a current-thread tokio runtime that
//! owns the child and its pipes (the *actor*). Callers hand it requests over
//! a channel and wait for the answer on another, so:
//!
//! - requests to one process are answered one at a time, in order, however
//!   many tasks call at once;
//! - a caller that stops waiting (its future dropped by a timeout) does not
//!   cut a request in half: the actor still reads that answer, so the next
//!   request gets its own;
//! - callers need no tokio I/O or process driver (the CLI's runtime has
//!   neither), and set-up code can wait for an answer without a runtime.

mod actor;
mod session;
mod stderr;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::Value;
use tinymemory_api::MemoryError;
use tokio::sync::{mpsc, oneshot, watch};

use crate::protocol::Request;
use crate::{ExecCommand, ExecConfig};

/// Where the actor sends one answer.
enum Reply {
    Async(oneshot::Sender<Result<Value, MemoryError>>),
    Blocking(std::sync::mpsc::SyncSender<Result<Value, MemoryError>>),
}

impl Reply {
    fn send(self, answer: Result<Value, MemoryError>) {
        // A caller that stopped waiting does not want the answer.
        let _ = match self {
            Self::Async(tx) => tx.send(answer).map_err(drop),
            Self::Blocking(tx) => tx.send(answer).map_err(drop),
        };
    }
}

/// One request for the actor.
struct Job {
    request: Request,
    reply: Reply,
}

/// What the actor and its [`Connection`] share.
#[derive(Default)]
struct Shared {
    /// Set by the actor once the process can no longer answer.
    dead: AtomicBool,
    /// Requests sent and not yet answered by the actor, those whose caller
    /// stopped waiting included.
    pending: AtomicUsize,
}

/// A handle on one driver process.
pub(crate) struct Connection {
    jobs: mpsc::UnboundedSender<Job>,
    shared: Arc<Shared>,
    /// `true` stops the process at once, even in the middle of a request.
    abort: watch::Sender<bool>,
    command: String,
    config: ExecConfig,
}

impl Connection {
    /// Starts the actor, which starts the process. A process that cannot be
    /// started fails the first request (the `hello`), with the reason.
    pub(crate) fn start(command: &ExecCommand, config: ExecConfig) -> Result<Self, MemoryError> {
        let (jobs, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared::default());
        let (abort, aborted) = watch::channel(false);
        actor::spawn(
            command.clone(),
            config.clone(),
            rx,
            Arc::clone(&shared),
            aborted,
        )
        .map_err(|e| {
            MemoryError::backend(format!("failed to start a thread for `{command}`"), e)
        })?;
        Ok(Self {
            jobs,
            shared,
            abort,
            command: command.to_string(),
            config,
        })
    }

    fn send(&self, job: Job) -> Result<(), MemoryError> {
        let op = job.request.op();
        self.shared.pending.fetch_add(1, Ordering::AcqRel);
        self.jobs.send(job).map_err(|_| {
            self.shared.pending.fetch_sub(1, Ordering::AcqRel);
            self.gone(op)
        })
    }

    /// Sends `request` and waits for its answer.
    pub(crate) async fn call(&self, request: Request) -> Result<Value, MemoryError> {
        let op = request.op();
        let (tx, rx) = oneshot::channel();
        self.send(Job {
            request,
            reply: Reply::Async(tx),
        })?;
        rx.await.map_err(|_| self.gone(op))?
    }

    /// [`Connection::call`], blocking the calling thread; for set-up code
    /// outside (or at the edge of) an async context.
    pub(crate) fn call_blocking(&self, request: Request) -> Result<Value, MemoryError> {
        let op = request.op();
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.send(Job {
            request,
            reply: Reply::Blocking(tx),
        })?;
        rx.recv().map_err(|_| self.gone(op))?
    }

    fn gone(&self, op: &str) -> MemoryError {
        MemoryError::fault(format!(
            "failed to send `{op}` to `{}`: the thread serving the process has stopped",
            self.command
        ))
    }

    /// `false` once the process died, hung or garbled its output, or was
    /// stopped by [`Connection::abort`].
    pub(crate) fn is_usable(&self) -> bool {
        !self.shared.dead.load(Ordering::Acquire)
    }

    /// `true` while a request is unanswered: one in progress, or one whose
    /// caller stopped waiting (a check that timed out) and whose answer the
    /// actor is still reading.
    pub(crate) fn has_pending(&self) -> bool {
        self.shared.pending.load(Ordering::Acquire) > 0
    }

    /// Stops the process and its whole process group now, even in the
    /// middle of a request (which then fails); every later request fails.
    pub(crate) fn abort(&self) {
        self.shared.dead.store(true, Ordering::Release);
        self.abort.send_replace(true);
    }

    /// The limits the process runs under.
    pub(crate) fn config(&self) -> &ExecConfig {
        &self.config
    }

    /// The command line, quoted, for messages.
    pub(crate) fn command(&self) -> &str {
        &self.command
    }
}

impl Drop for Connection {
    /// Closes the process's stdin, so it exits (the actor kills its group
    /// if it lingers), or, when a request is still unanswered (its caller
    /// gave up on it), stops the process at once rather than wait for an
    /// answer nobody reads.
    fn drop(&mut self) {
        if self.has_pending() {
            self.abort();
        }
    }
}
