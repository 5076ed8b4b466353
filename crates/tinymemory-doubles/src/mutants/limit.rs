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
            import, interface;

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

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "limit-plus-one",
        rule: "contract 5: at most limit hits; limit 0 returns Ok(empty)",
        check: "recall.limit",
        also_caught_by: &["recall.min_score", "sections.across_merge_order", "model.differential"],
        description: "recall returns up to limit + 1 hits, and one hit for limit 0",
        wrap: LimitPlusOne::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            for k in ["a", "b", "c"] {
                put(d, "global", k, "rust").await?;
            }
            let zero = d.recall("rust", 0, &any()).await?.len();
            let two = d.recall("rust", 2, &any()).await?.len();
            Ok(format!("{:?}", (zero, two)))
        },
        reference: "(0, 2)",
        mutant: "(1, 3)",
    },
];
