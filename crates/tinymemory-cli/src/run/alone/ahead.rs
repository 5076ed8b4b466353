//! Fresh driver processes started ahead of the reruns that will take
//! them, for a driver whose processes are stores of their own.
//!
//! A rerun must run on a process that served nothing before, so each
//! rerun costs a driver start-up; through an adapter importing a heavy
//! engine that is seconds, and one after another they could spend the
//! whole budget starting processes. A driver declaring
//! `independent_stores` says no process of it needs another to end
//! first, so its start-ups may overlap one another and the reruns
//! running: as nextest starts test processes ahead, a few processes are
//! kept starting here, and each rerun takes the oldest, which has only
//! answered `hello`, and starts one in its place. A driver whose
//! processes share one database gets none: its rerun starts its own
//! process once every process before it has ended ([`super::rerun`]).

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use tinymemory_api::MemoryError;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecFactory};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// One process being started (or started and idle): its factory, once it
/// has answered `hello`.
type Starting = JoinHandle<Result<ExecFactory, MemoryError>>;

/// Processes started ahead for the reruns of one run.
///
/// Dropped, it stops those nobody took: one that answered `hello` is ended
/// as the run's processes are (its stdin closed, then `SIGTERM`, then
/// `SIGKILL`), one still starting is killed with its process group, as a
/// rerun cut at the budget's end is, so the run does not wait for a
/// start-up nothing needs.
pub(super) struct Spares {
    command: ExecCommand,
    config: ExecConfig,
    call_timeout: Duration,
    deadline: Instant,
    starting: Mutex<VecDeque<Starting>>,
}

/// Kills a start nobody waits for any more: its task is cancelled, which
/// drops its process's connection in the middle of `hello`.
struct AbortOnDrop(Starting);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Spares {
    /// Starts `ahead` processes of `command` now, each under `config` with
    /// its requests (its `hello` first) held to the smaller of
    /// `call_timeout` and what is left until `deadline`, so no start
    /// outlives the budget. Must be called inside the run's Tokio runtime.
    pub(super) fn start(
        command: ExecCommand,
        config: ExecConfig,
        call_timeout: Duration,
        deadline: Instant,
        ahead: usize,
    ) -> Self {
        let spares = Self {
            command,
            config,
            call_timeout,
            deadline,
            starting: Mutex::new(VecDeque::new()),
        };
        {
            let mut starting = spares.lock();
            for _ in 0..ahead {
                starting.push_back(spares.one());
            }
        }
        spares
    }

    fn lock(&self) -> MutexGuard<'_, VecDeque<Starting>> {
        // A push or a pop cannot leave the queue half-changed.
        self.starting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts one process in the background.
    fn one(&self) -> Starting {
        let timeout = self
            .call_timeout
            .min(self.deadline.saturating_duration_since(Instant::now()));
        let config = self.config.clone().with_request_timeout(timeout);
        tokio::spawn(ExecFactory::connect(self.command.clone(), config))
    }

    /// A fresh process, as a factory whose first store is it: the oldest
    /// started (waiting for its `hello` if it has not answered yet); once
    /// it has answered, another starts in its place for the next rerun.
    /// Not before: start-ups slow down one another on a busy machine (an
    /// engine's imports are CPU and disk), so no more of them run at once
    /// than were started ahead, and the one a rerun waits for is not
    /// slowed by the next one's.
    ///
    /// # Errors
    ///
    /// Why the process did not start or answer `hello`, as
    /// [`ExecFactory::connect`] says.
    pub(super) async fn take(&self) -> Result<ExecFactory, MemoryError> {
        let oldest = self.lock().pop_front();
        let mut oldest = AbortOnDrop(oldest.unwrap_or_else(|| self.one()));
        let started = match (&mut oldest.0).await {
            Ok(started) => started,
            Err(e) => Err(MemoryError::fault(format!(
                "failed to start `{}`: {e}",
                self.command
            ))),
        };
        let next = self.one();
        self.lock().push_back(next);
        started
    }
}

impl Drop for Spares {
    fn drop(&mut self) {
        for starting in self.lock().drain(..) {
            // A finished start's factory is dropped with its handle, which
            // ends its process gently; an unfinished one is cancelled.
            drop(AbortOnDrop(starting));
        }
    }
}
