//! Idle driver processes, kept for the next store, and those being
//! started ahead of the stores that will need them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use tinymemory_api::RecallProfile;

use crate::process::Connection;
use crate::protocol::OptionalOp;

/// What a process started ahead must answer in `hello` to be kept: what
/// the first process answered.
#[derive(Clone, PartialEq)]
pub(crate) struct First {
    pub(crate) recall_profile: RecallProfile,
    pub(crate) ops: Vec<OptionalOp>,
    pub(crate) independent_stores: bool,
}

#[derive(Default)]
struct State {
    idle: Vec<Arc<Connection>>,
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

    /// An idle process, most recently returned first; while none is idle
    /// but some are being started ahead, waits for one of them (or for a
    /// store to return its process). `None` when there is none to wait for:
    /// the caller starts one. For a driver whose first `hello` did not
    /// declare independent stores, waits first until every start ahead has
    /// ended (they are all dropped).
    pub(crate) async fn take(&self) -> Option<Arc<Connection>> {
        loop {
            let notified = self.changed.notified();
            let mut notified = std::pin::pin!(notified);
            // Registered before the state is read, so a change between the
            // read and the wait is not missed.
            notified.as_mut().enable();
            {
                let mut state = self.lock();
                // A driver sharing one database: no store until every
                // process started beside the first has ended, so none of
                // their starts can overlap a check.
                let shared = matches!(&state.first, Some(Ok(f)) if !f.independent_stores);
                if !(shared && state.starting > 0) {
                    if let Some(conn) = state.idle.pop() {
                        return Some(conn);
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

    /// Ends a start begun by [`Pool::begin_start`]: `conn` is kept as idle
    /// when it started well; `None` (it failed) leaves the next `open` to
    /// start a process of its own, and meet the failure itself.
    pub(crate) fn end_start(&self, conn: Option<Arc<Connection>>) {
        {
            let mut state = self.lock();
            state.starting -= 1;
            if let Some(conn) = conn.filter(|c| c.is_usable()) {
                state.idle.push(conn);
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
