//! Idle driver processes, kept for the next store, and those being
//! started ahead of the stores that will need them.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use tinymemory_api::{MemoryError, RecallProfile};

use crate::process::Connection;
use crate::protocol::OptionalOp;

/// What a process started ahead must answer in `hello` to be kept: what
/// the first process answered.
#[derive(Clone, PartialEq)]
pub(crate) struct First {
    pub(crate) recall_profile: RecallProfile,
    pub(crate) ops: Vec<OptionalOp>,
    pub(crate) independent_stores: bool,
    pub(crate) interface: Option<String>,
}

#[derive(Default)]
struct State {
    idle: Vec<Arc<Connection>>,
    /// Why processes started ahead failed (they did not start, or answered
    /// `hello` badly or unlike the first), oldest first: each is the error
    /// of the next store, as it would have been had that store started
    /// the process itself.
    failed: VecDeque<MemoryError>,
    /// Processes started ahead ([`Pool::begin_start`]) not yet kept or
    /// dropped.
    starting: usize,
    /// The first process's `hello`: unknown until it answers; `Err` when
    /// it failed (no factory will use this pool).
    first: Option<Result<First, ()>>,
}

/// The processes of one [`ExecFactory`](crate::ExecFactory) that no store
/// holds. A store's process comes back here when the store is dropped, and
/// the next `open` resets it instead of starting a new one; a process
/// started ahead joins it once it has answered `hello`.
#[derive(Default)]
pub(crate) struct Pool {
    state: Mutex<State>,
    started: AtomicU64,
    /// Signalled whenever a process joins or a start ahead ends.
    changed: Notify,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Pushes, pops and counts cannot leave the state half-changed, so a
        // poisoned lock is still sound.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The failure of a process started ahead, if one failed (oldest
    /// first), else an idle process, most recently returned first; while
    /// neither is there but some are being started ahead, waits for one of
    /// them (or for a store to return its process). `None` when there is
    /// nothing to wait for: the caller starts a process. For a driver whose
    /// first `hello` did not declare independent stores, waits first until
    /// every process started beside it has been stopped (none is kept).
    pub(crate) async fn take(&self) -> Option<Result<Arc<Connection>, MemoryError>> {
        loop {
            let notified = self.changed.notified();
            let mut notified = std::pin::pin!(notified);
            // Registered before the state is read, so a change between the
            // read and the wait is not missed.
            notified.as_mut().enable();
            {
                let mut state = self.lock();
                // A driver sharing one database: no store until every
                // process started beside the first has been told to stop.
                let shared = matches!(&state.first, Some(Ok(f)) if !f.independent_stores);
                if !(shared && state.starting > 0) {
                    if let Some(e) = state.failed.pop_front() {
                        return Some(Err(e));
                    }
                    if let Some(conn) = state.idle.pop() {
                        return Some(Ok(conn));
                    }
                    if state.starting == 0 {
                        return None;
                    }
                }
            }
            notified.await;
        }
    }

    /// Keeps `conn` for a later store, unless it is no longer usable (it is
    /// then dropped, which ends its process) or a request on it is still
    /// unanswered: its store was dropped while waiting (a check that timed
    /// out), so the process is stopped now rather than handed, still busy,
    /// to the next check.
    pub(crate) fn put(&self, conn: Arc<Connection>) {
        if conn.has_pending() {
            conn.abort();
        } else if conn.is_usable() {
            self.lock().idle.push(conn);
            self.changed.notify_waiters();
        }
    }

    /// Counts one more process started.
    pub(crate) fn record_start(&self) {
        self.started.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one more process started ahead, not yet ready:
    /// [`Pool::take`] waits for it rather than starting another.
    pub(crate) fn begin_start(&self) {
        self.record_start();
        self.lock().starting += 1;
    }

    /// Ends a start begun by [`Pool::begin_start`]: `Ok(Some(conn))` is
    /// kept as idle (unless it died meanwhile), `Err` is kept for the next
    /// [`Pool::take`], and `Ok(None)` (a start stopped because the first
    /// process failed) is forgotten.
    pub(crate) fn end_start(&self, started: Result<Option<Arc<Connection>>, MemoryError>) {
        {
            let mut state = self.lock();
            state.starting -= 1;
            match started {
                Ok(Some(conn)) if conn.is_usable() => state.idle.push(conn),
                Ok(_) => {}
                Err(e) => state.failed.push_back(e),
            }
        }
        self.changed.notify_waiters();
    }

    /// Records the first process's `hello` (`None`: it failed), which
    /// the processes started ahead are waiting for.
    pub(crate) fn set_first(&self, first: Option<First>) {
        self.lock().first = Some(first.ok_or(()));
        self.changed.notify_waiters();
    }

    /// The first process's `hello`, once it is known; `None` when it
    /// failed.
    pub(crate) async fn first(&self) -> Option<First> {
        loop {
            let notified = self.changed.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if let Some(first) = &self.lock().first {
                return first.clone().ok();
            }
            notified.await;
        }
    }

    /// Processes started so far, those still starting included.
    pub(crate) fn started(&self) -> u64 {
        self.started.load(Ordering::Relaxed)
    }
}
