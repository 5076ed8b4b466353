//! How a property case writes its data: one `store_many` per run of its
//! entries that holds no `(namespace, key)` twice, in the order the case
//! gives them, and one `store` per entry on a fresh store when a batch is
//! refused.
//!
//! A case's data is up to a few dozen entries, and through an adapter each
//! request is a round trip and an engine call of its own
//! (docs/benchmarks.md, "Issue 46"), so one batch per case is most of what
//! a run through an adapter costs less. A property means the case's writes
//! in order, each an upsert: a later entry of a `(namespace, key)` lands
//! on the stored one. Within one batch it need not: an adapter may send a
//! key given twice once (LangChain's `add_documents` does not say which of
//! two documents of one id wins), so a store whose upsert over a stored
//! entry duplicates it (FAISS) would pass the properties that store a key
//! twice. A repeated key therefore starts a new batch ([`runs`]): a case
//! without one is still one batch.
//!
//! A batch fault is `properties.store_many_matches_store`'s to name, never
//! another property's: when a batch answers an error, the case starts
//! again from a fresh store from the context's factory (as it began) and
//! writes one `store` per entry, so the property is judged on the
//! single-entry path. A batch that answers `Ok` but holds other data is
//! not seen here; the property may then fail too, and its message says
//! that the case's data went in by `store_many` (see [`scope`]), so the
//! author looks at the batch path first.

use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryError, MemoryProvider, NewEntry};

use super::engine::{CaseFailure, CaseResult};
use crate::CheckContext;

tokio::task_local! {
    static CURRENT: Batched;
}

/// How many accepted `store_many`s wrote the case running under
/// [`scope`]: of the stores it filled (a case may fill two), the most
/// written by one; 0 when none was written by batches.
#[derive(Clone, Default)]
struct Batched(Arc<AtomicUsize>);

/// What [`scope`] appends to a case's failure when a store of the case was
/// written by `batches` accepted `store_many`s: one for a case without a
/// repeated key, which is every case but the export properties' that
/// repeat one; more for those, one per [`runs`].
pub(crate) fn written_by_batches(batches: usize) -> String {
    let how = match batches {
        1 => "one store_many".to_owned(),
        n => format!("{n} store_many calls, a new one at each repeated key"),
    };
    format!(
        " (the case's data was written by {how}; if properties.store_many_matches_store fails \
         too, look at the batch path first)"
    )
}

/// Runs one case, appending [`written_by_batches`] to its failure message
/// when it failed after a store of it was written by accepted `store_many`s.
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
            let batches = seen.load(Ordering::Relaxed);
            if batches > 0 {
                failure.message.push_str(&written_by_batches(batches));
            }
            failure
        })
    }
}

/// A fresh store from the context's factory holding `entries`: one
/// `store_many` per batch of [`runs`], in order; if the driver answers a
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
    if let Some(batches) = store_runs(d.as_ref(), entries).await {
        let _ = CURRENT.try_with(|b| b.0.fetch_max(batches, Ordering::Relaxed));
        return Ok(d);
    }
    // A batch may have stored part of itself, and the ones before it all
    // of theirs: start the case again on an empty store, as it began.
    drop(d);
    let d = ctx.fresh().await?;
    store_each(d.as_ref(), entries).await?;
    Ok(d)
}

/// How many batches [`runs`]`(entries)` is, when every one, sent by one
/// `store_many` each in order, was accepted; `None` at the first refused.
async fn store_runs(d: &dyn MemoryProvider, entries: &[NewEntry]) -> Option<usize> {
    let runs = runs(entries);
    for run in &runs {
        if d.store_many(run).await.is_err() {
            return None;
        }
    }
    Some(runs.len())
}

/// `entries` cut into the fewest consecutive runs of which none holds a
/// `(namespace, key)` twice: a run ends just before the entry whose
/// position it already holds, so that entry is written over a stored one.
/// Runs are non-empty, in order, and together are `entries`; none for an
/// empty slice.
pub(crate) fn runs(entries: &[NewEntry]) -> Vec<&[NewEntry]> {
    let mut runs = Vec::new();
    let mut start = 0;
    let mut held: HashSet<(&str, &str)> = HashSet::new();
    for (i, e) in entries.iter().enumerate() {
        if !held.insert((&e.namespace, &e.key)) {
            runs.push(&entries[start..i]);
            start = i;
            held.clear();
            held.insert((&e.namespace, &e.key));
        }
    }
    if start < entries.len() {
        runs.push(&entries[start..]);
    }
    runs
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
    store_one_each(d, entries)
        .await
        .map_err(|(message, err)| CaseFailure::caused_by(message, &err))
}

/// `entries` stored into `d` one `store` each, in order: the single-entry
/// path a refused batch falls back to, for a property case
/// ([`store_each`]) and a check's set-up (`checks::setup`) alike.
///
/// # Errors
///
/// The first `store` that failed: a message naming its namespace and key,
/// and the driver's error.
pub(crate) async fn store_one_each(
    d: &dyn MemoryProvider,
    entries: &[NewEntry],
) -> Result<(), (String, MemoryError)> {
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
            (
                format!("store({:?}, {:?}) failed: {err}", e.namespace, e.key),
                err,
            )
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `namespace/key` of each entry of each run.
    fn cut(at: &[(&str, &str)]) -> Vec<Vec<String>> {
        let entries: Vec<NewEntry> = at
            .iter()
            .map(|(ns, key)| NewEntry::new(*ns, *key, "comet"))
            .collect();
        runs(&entries)
            .into_iter()
            .map(|run| {
                run.iter()
                    .map(|e| format!("{}/{}", e.namespace, e.key))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn entries_without_a_repeated_position_are_one_run() {
        assert_eq!(
            cut(&[("a", "k0"), ("a", "k1"), ("b", "k0")]),
            [vec!["a/k0", "a/k1", "b/k0"]]
        );
        assert!(cut(&[]).is_empty());
    }

    #[test]
    fn a_repeated_position_starts_the_next_run() {
        assert_eq!(
            cut(&[
                ("a", "k0"),
                ("a", "k1"),
                ("a", "k0"),
                ("b", "k1"),
                ("a", "k1")
            ]),
            [vec!["a/k0", "a/k1"], vec!["a/k0", "b/k1", "a/k1"]]
        );
        assert_eq!(
            cut(&[("a", "k0"), ("a", "k0"), ("a", "k0")]),
            [vec!["a/k0"], vec!["a/k0"], vec!["a/k0"]]
        );
    }

    #[test]
    fn a_key_repeated_in_another_namespace_is_no_repeat() {
        assert_eq!(
            cut(&[("a", "k0"), ("b", "k0"), ("a:x", "k0")]),
            [vec!["a/k0", "b/k0", "a:x/k0"]]
        );
    }
}
