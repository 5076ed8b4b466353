//! Poison-tolerant locking.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `m`, ignoring poison: every value kept behind these mutexes is
/// updated by single assignments or pushes, so a panic elsewhere (for
/// example a [`FaultKind::Panic`](crate::FaultKind::Panic) strike) cannot
/// leave it half-written.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
