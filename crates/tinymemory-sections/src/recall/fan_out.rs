//! The `N` pinned recalls of a section recall, bounded-concurrent.

use futures::stream::{self, StreamExt, TryStreamExt};
use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// Recalls `query` in each namespace of `searched`, pinned and with the full
/// `limit`, at most `bound` at once. Results come back in `searched` order
/// (`buffered` keeps order), so completion order never shows.
///
/// Each hit's namespace is checked: `None` is stamped with the namespace
/// asked; another namespace is a driver fault.
pub(crate) async fn recall_each(
    provider: &dyn MemoryProvider,
    searched: &[String],
    query: &str,
    limit: usize,
    opts: &RecallOptions,
    bound: usize,
) -> Result<Vec<Vec<MemoryEntry>>, MemoryError> {
    // Owned names keep the per-namespace futures free of higher-ranked
    // borrows, so the whole fan-out future stays `Send`.
    stream::iter(searched.iter().cloned())
        .map(move |namespace: String| async move {
            let pinned = RecallOptions {
                namespace: Some(namespace.clone()),
                ..opts.clone()
            };
            let hits = provider
                .recall(query, limit, &pinned)
                .await
                .map_err(|e| recall_failed_in(&namespace, e))?;
            stamp(provider, &namespace, hits)
        })
        .buffered(bound.max(1))
        .try_collect()
        .await
}

fn stamp(
    provider: &dyn MemoryProvider,
    namespace: &str,
    mut hits: Vec<MemoryEntry>,
) -> Result<Vec<MemoryEntry>, MemoryError> {
    for hit in &mut hits {
        match hit.namespace.as_deref() {
            None => hit.namespace = Some(namespace.to_owned()),
            Some(ns) if ns == namespace => {}
            Some(other) => {
                return Err(MemoryError::fault(format!(
                    "driver {} answered a recall pinned to {namespace:?} with a hit from \
                     {other:?} (key {:?})",
                    provider.driver_id(),
                    hit.key
                )))
            }
        }
    }
    Ok(hits)
}

/// The error [`SectionRecall::across_section`](crate::SectionRecall::across_section)
/// returns when the driver's pinned recall in `namespace` fails with `e`:
/// the same kind (and rule, and source), its message prefixed with
/// `recall in namespace "NAMESPACE" failed: `, so that a caller is told
/// which of the `N` recalls failed.
///
/// Public so that a caller holding the driver's own error (the
/// conformance suite, which records what its driver returned) can tell it
/// inside the error `across_section` gave back, by equality rather than by
/// parsing the text.
///
/// ```
/// use tinymemory_api::MemoryError;
/// use tinymemory_sections::recall_failed_in;
///
/// let e = recall_failed_in("learning:a", MemoryError::fault("disk full"));
/// assert_eq!(
///     e.to_string(),
///     "backend failure: recall in namespace \"learning:a\" failed: disk full"
/// );
/// ```
#[must_use]
pub fn recall_failed_in(namespace: &str, e: MemoryError) -> MemoryError {
    let context = format!("recall in namespace {namespace:?} failed");
    match e {
        MemoryError::Invalid { rule, message } => {
            MemoryError::invalid(rule, format!("{context}: {message}"))
        }
        MemoryError::Unavailable { message, source } => MemoryError::Unavailable {
            message: format!("{context}: {message}"),
            source,
        },
        MemoryError::Backend { message, source } => MemoryError::Backend {
            message: format!("{context}: {message}"),
            source,
        },
        // `MemoryError` is non-exhaustive; keep a future variant as it is.
        other => MemoryError::Backend {
            message: context,
            source: Some(Box::new(other)),
        },
    }
}
