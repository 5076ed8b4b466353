//! Per-case progress of property checks, for a live status line.
//!
//! The runner scopes each check's task with a [`CaseProgress`] handle
//! (a tokio task-local), and the property engine reports each finished case
//! to it; a front end reads the handle while the check runs. Check bodies
//! need no extra argument, and a check outside a runner reports nowhere.

use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

tokio::task_local! {
    static CURRENT: CaseProgress;
}

/// A shared `(cases done, cases in all)` counter for the running property
/// check. Cheap to clone; clones share the counter.
#[derive(Debug, Clone, Default)]
pub struct CaseProgress {
    counts: Arc<(AtomicU32, AtomicU32)>,
}

impl CaseProgress {
    /// A counter with no property check running.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// `(cases done, cases in all)` of the running property check, or
    /// `None` while no property check has reported a case.
    #[must_use]
    pub fn get(&self) -> Option<(u32, u32)> {
        let total = self.counts.1.load(Ordering::Relaxed);
        (total > 0).then(|| (self.counts.0.load(Ordering::Relaxed), total))
    }

    pub(crate) fn set(&self, done: u32, total: u32) {
        self.counts.0.store(done, Ordering::Relaxed);
        self.counts.1.store(total, Ordering::Relaxed);
    }

    pub(crate) fn clear(&self) {
        self.set(0, 0);
    }
}

/// Records that `done` of `total` cases of the current check have passed.
/// Does nothing outside a runner's scope.
pub(crate) fn report(done: u32, total: u32) {
    let _ = CURRENT.try_with(|p| p.set(done, total));
}

/// Runs `f` with `progress` as the current check's counter.
pub(crate) fn scope<F: Future>(progress: CaseProgress, f: F) -> impl Future<Output = F::Output> {
    CURRENT.scope(progress, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reports_reach_the_scoped_counter_only() {
        let p = CaseProgress::new();
        assert_eq!(p.get(), None);
        report(1, 5);
        assert_eq!(p.get(), None, "outside a scope nothing is recorded");
        scope(p.clone(), async { report(3, 64) }).await;
        assert_eq!(p.get(), Some((3, 64)));
        p.clear();
        assert_eq!(p.get(), None);
    }
}
