//! Mutant for `namespaces.exact_counts`.

use tinymemory_api::{MemoryError, MemoryProvider, NamespaceSummary};

/// Breaks contract sentence 8 (`namespaces.exact_counts`): every summary
/// `namespaces()` returns has its count one too high (an off-by-one).
/// Namespaces are still listed once each, and an emptied namespace still
/// disappears, so `forget.idempotent` passes.
///
/// Overlap: any check that compares a `namespaces()` count with the number
/// of entries stored sees it too (`store.upsert`, if it counts through
/// `namespaces()` rather than `list`).
#[derive(Debug, Clone, Default)]
pub struct InflatedCounts<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(InflatedCounts);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `namespaces()` counts are one too high.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for InflatedCounts<P> {
        forward(inner): driver_id, store, get, forget, list, recall, store_many, export_page,
            import, interface;

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let mut summaries = self.inner.namespaces().await?;
            for summary in &mut summaries {
                summary.count = summary.count.saturating_add(1);
            }
            Ok(summaries)
        }
    }
}
