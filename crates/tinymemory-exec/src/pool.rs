//! Idle driver processes, kept for the next store.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::process::Connection;

/// The processes of one [`ExecFactory`](crate::ExecFactory) that no store
/// holds. A store's process comes back here when the store is dropped, and
/// the next `open` resets it instead of starting a new one.
#[derive(Default)]
pub(crate) struct Pool {
    idle: Mutex<Vec<Arc<Connection>>>,
    started: AtomicU64,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, Vec<Arc<Connection>>> {
        // Pushes and pops cannot leave the list half-changed, so a poisoned
        // lock is still sound.
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// An idle process, most recently returned first.
    pub(crate) fn take(&self) -> Option<Arc<Connection>> {
        self.lock().pop()
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
            self.lock().push(conn);
        }
    }

    /// Counts one more process started.
    pub(crate) fn record_start(&self) {
        self.started.fetch_add(1, Ordering::Relaxed);
    }

    /// Processes started so far.
    pub(crate) fn started(&self) -> u64 {
        self.started.load(Ordering::Relaxed)
    }
}
