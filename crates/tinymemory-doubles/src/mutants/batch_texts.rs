//! Mutant `batch-equal-texts`, for `properties.store_many_matches_store`.

use std::collections::BTreeSet;

use tinymemory_api::{MemoryError, MemoryProvider, NewEntry};

/// Breaks the bulk store's rule that a batch stores what the same `store`s
/// would (check `properties.store_many_matches_store`): a `store_many`
/// holding one content twice is refused with a backend error, storing
/// nothing, as LangGraph's `InMemoryStore.batch` (langgraph-checkpoint
/// 4.3.2) raises when it computes one vector per distinct text and pairs
/// them with one index per put. (The error names texts and entries only,
/// so that it reads the same under either recall profile.) A batch of distinct contents, and every other method, is forwarded
/// unchanged.
#[derive(Debug, Clone, Default)]
pub struct RefusesEqualTexts<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(RefusesEqualTexts);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `store_many` refuses a batch that repeats a content.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for RefusesEqualTexts<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, export_page,
            import, interface;

        /// Refused whole, as a backend failure, when two entries hold one content.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            let distinct: BTreeSet<&str> = entries.iter().map(|e| e.content.as_str()).collect();
            if distinct.len() < entries.len() {
                return Err(MemoryError::fault(format!(
                    "{} distinct texts for {} entries",
                    distinct.len(),
                    entries.len()
                )));
            }
            self.inner.store_many(entries).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[entry! {
    name: "batch-equal-texts",
    rule: "bulk store: a batch stores what the same stores, in its order, would",
    check: "properties.store_many_matches_store",
    also_caught_by: &["recall.namespace_isolation"],
    description: "store_many refuses a batch holding one content twice, storing nothing of it, as LangGraph's InMemoryStore does",
    wrap: RefusesEqualTexts::new(),
    profile: Lexical,
    witness: |d| {
        let batch = [
            NewEntry::new("global", "a", "same"),
            NewEntry::new("global", "b", "same"),
        ];
        let refused = d.store_many(&batch).await.err().map(|e| e.kind());
        let kept: Vec<String> = d
            .list(None, None, None)
            .await?
            .into_iter()
            .map(|e| e.key)
            .collect();
        Ok(format!("{refused:?} {kept:?}"))
    },
    reference: r#"None ["a", "b"]"#,
    mutant: r#"Some("backend") []"#,
}];
