//! The run's job slots, shared by its checks and their property cases.
//!
//! `run --jobs N` is N slots: the runner gives each check one before it
//! starts. A property check's cases are independent (each on a fresh
//! store), so once every check has started, a property check may run more
//! of its cases at once on slots left free, instead of leaving them idle
//! behind the run's longest check. The runner waits for a slot whenever a
//! check is left to start, and a waiter is served before any taker, so
//! checks keep the first claim. The slots are a tokio task-local set by
//! the runner around each check's body, so check bodies need no argument;
//! outside a runner, and at one job, there are none to take, and a
//! property runs its cases one at a time.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

tokio::task_local! {
    static SLOTS: Arc<Semaphore>;
}

/// A slot left free, if any, held until the permit is dropped.
pub(crate) fn try_take() -> Option<OwnedSemaphorePermit> {
    SLOTS
        .try_with(|s| Arc::clone(s).try_acquire_owned().ok())
        .ok()
        .flatten()
}

/// Runs `f` with `slots` as the run's slots.
pub(crate) fn scope<F: Future>(slots: Arc<Semaphore>, f: F) -> impl Future<Output = F::Output> {
    SLOTS.scope(slots, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_slot_is_taken_only_inside_a_scope_and_only_while_free() {
        assert!(try_take().is_none(), "outside a runner there are no slots");
        let slots = Arc::new(Semaphore::new(2));
        let taken = scope(Arc::clone(&slots), async {
            let a = try_take();
            let b = try_take();
            let c = try_take();
            (a.is_some(), b.is_some(), c.is_some())
        })
        .await;
        assert_eq!(taken, (true, true, false));
        assert_eq!(
            slots.available_permits(),
            2,
            "dropped permits are free again"
        );
    }
}
