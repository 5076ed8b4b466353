//! Mutant for `recall.limit`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// Breaks contract sentence 5 (`recall.limit`): recall forwards
/// `limit + 1` (saturating), so it returns one hit too many whenever there
/// are enough matches, and one hit for `limit == 0`. Nothing else changes.
#[derive(Debug, Clone, Default)]
pub struct LimitPlusOne<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(LimitPlusOne);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` asks for one hit more.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for LimitPlusOne<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            self.inner
                .recall(query, limit.saturating_add(1), opts)
                .await
        }
    }
}
