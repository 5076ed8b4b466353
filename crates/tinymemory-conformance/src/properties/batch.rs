//! How a property case writes its data: one `store_many` of the case's
//! entries, in the order the case gives them, and one `store` per entry on
//! a fresh store when the batch is refused.
//!
//! A case's data is up to a few dozen entries, and through an adapter each
//! request is a round trip and an engine call of its own
//! (docs/benchmarks.md, "Issue 46"), so one batch per case is most of what
//! a run through an adapter costs less. The batch is the contract's upsert
//! in order (a later entry of a `(namespace, key)` replaces an earlier
//! one), so it holds the same data as the `store`s would.
//!
//! A batch fault is `properties.store_many_matches_store`'s to name, never
//! another property's: when the batch answers an error, the case starts
//! again from a fresh store from the context's factory (as it began) and
//! writes one `store` per entry, so the property is judged on the
//! single-entry path. A batch that answers `Ok` but holds other data is
//! not seen here; the property may then fail too, and its message says
//! that the case's data went in by `store_many` (see [`scope`]), so the
//! author looks at the batch path first.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryProvider, NewEntry};

use super::engine::{CaseFailure, CaseResult};
use crate::CheckContext;

tokio::task_local! {
    static CURRENT: Batched;
}

/// Whether the case running under [`scope`] wrote its data (or some of
/// it: a case may fill two stores) by one accepted `store_many`.
#[derive(Clone, Default)]
struct Batched(Arc<AtomicBool>);

/// What [`scope`] appends to a case's failure when a store of the case was
/// written by one accepted `store_many`.
pub(crate) const WRITTEN_BY_BATCH: &str = " (the case's data was written by one store_many; \
     if properties.store_many_matches_store fails too, look at the batch path first)";

/// Runs one case, appending [`WRITTEN_BY_BATCH`] to its failure message when
/// it failed after a store of it was written by an accepted `store_many`.
/// Each case is scoped alone, so cases running side by side on free slots
/// do not see each other's writes.
pub(crate) fn scope<F>(case: F) -> impl Future<Output = CaseResult> + Send + 'static
where
    F: Future<Output = CaseResult> + Send + 'static,
{
    let batched = Batched::default();
    let seen = Arc::clone(&batched.0);
    async move {
        let result = CURRENT.scope(batched, case).await;
        result.map_err(|mut failure| {
            if seen.load(Ordering::Relaxed) {
                failure.message.push_str(WRITTEN_BY_BATCH);
            }
            failure
        })
    }
}

/// A fresh store from the context's factory holding `entries`: one
/// `store_many` of them in the order given; if the driver answers that
/// batch with an error, another fresh store written one `store` per entry
/// in the same order (the batch's error is left to
/// `properties.store_many_matches_store`). An empty case makes no write.
///
/// # Errors
///
/// A fresh store that did not open, or a `store` of the single-entry path
/// that failed (its entry named), as the case's failure.
pub(crate) async fn write(
    ctx: &CheckContext,
    entries: &[NewEntry],
) -> Result<Box<dyn MemoryProvider>, CaseFailure> {
    let d = ctx.fresh().await?;
    if entries.is_empty() {
        return Ok(d);
    }
    if d.store_many(entries).await.is_ok() {
        let _ = CURRENT.try_with(|b| b.0.store(true, Ordering::Relaxed));
        return Ok(d);
    }
    // The batch may have stored part of itself: start the case again on an
    // empty store, as it began.
    drop(d);
    let d = ctx.fresh().await?;
    store_each(d.as_ref(), entries).await?;
    Ok(d)
}

/// `entries` stored into `d` one `store` each, in order.
///
/// # Errors
///
/// The first `store` that failed, naming its namespace and key.
pub(crate) async fn store_each(
    d: &dyn MemoryProvider,
    entries: &[NewEntry],
) -> Result<(), CaseFailure> {
    for e in entries {
        d.store(
            &e.namespace,
            &e.key,
            &e.content,
            e.category.clone(),
            e.session_id.as_deref(),
            e.taint,
        )
        .await
        .map_err(|err| {
            CaseFailure::caused_by(
                format!("store({:?}, {:?}) failed: {err}", e.namespace, e.key),
                &err,
            )
        })?;
    }
    Ok(())
}
