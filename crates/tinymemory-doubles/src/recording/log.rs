//! The shared call log.

use std::sync::{Arc, Mutex};

use super::{Call, Method};
use crate::lock::lock;

/// The calls a [`Recording`](crate::Recording) saw, oldest first.
///
/// A cheap handle: clones share one log, so a test keeps a `CallLog` while
/// the recording provider is moved into a host (boxed, behind `Arc`, ...).
/// Calls are appended when they *start*, before the wrapped provider runs,
/// so a call that fails or panics is still recorded; concurrent calls appear
/// in the order they took the log's lock.
#[derive(Debug, Clone, Default)]
pub struct CallLog {
    calls: Arc<Mutex<Vec<Call>>>,
}

impl CallLog {
    /// An empty log.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    pub(crate) fn push(&self, call: Call) {
        lock(&self.calls).push(call);
    }

    /// A copy of every call so far, oldest first.
    #[must_use]
    pub fn calls(&self) -> Vec<Call> {
        lock(&self.calls).clone()
    }

    /// Every call so far, oldest first, leaving the log empty.
    #[must_use]
    pub fn take(&self) -> Vec<Call> {
        std::mem::take(&mut *lock(&self.calls))
    }

    /// Empties the log.
    pub fn clear(&self) {
        lock(&self.calls).clear();
    }

    /// The number of calls so far.
    #[must_use]
    pub fn len(&self) -> usize {
        lock(&self.calls).len()
    }

    /// `true` when no call was recorded (or all were cleared).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        lock(&self.calls).is_empty()
    }

    /// The method of every call so far, oldest first.
    #[must_use]
    pub fn methods(&self) -> Vec<Method> {
        lock(&self.calls).iter().map(Call::method).collect()
    }

    /// How many calls went to `method`.
    #[must_use]
    pub fn count(&self, method: Method) -> usize {
        lock(&self.calls)
            .iter()
            .filter(|c| c.method() == method)
            .count()
    }
}
