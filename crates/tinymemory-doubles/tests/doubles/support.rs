//! Shared helpers.

use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint};

/// Stores `content` at `(ns, key)` with the default category, session and
/// taint, panicking on error.
pub async fn put<P: MemoryProvider + ?Sized>(d: &P, ns: &str, key: &str, content: &str) {
    d.store(
        ns,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .unwrap_or_else(|e| panic!("failed to store {ns}/{key}: {e}"));
}

/// The keys of `entries`, in order.
pub fn keys(entries: &[MemoryEntry]) -> Vec<&str> {
    entries.iter().map(|e| e.key.as_str()).collect()
}

/// `(key, score)` of each hit, in order.
pub fn scored(entries: &[MemoryEntry]) -> Vec<(&str, Option<f64>)> {
    entries.iter().map(|e| (e.key.as_str(), e.score)).collect()
}

/// `(namespace, count)` of each summary, in the order given.
pub fn counts(summaries: &[tinymemory_api::NamespaceSummary]) -> Vec<(&str, u64)> {
    summaries
        .iter()
        .map(|s| (s.namespace.as_str(), s.count))
        .collect()
}
