//! Mutant `partial-batch`, for `store.bulk`.

use tinymemory_api::{MemoryError, MemoryProvider, NewEntry};

/// Breaks the bulk store's all-or-nothing rule (check `store.bulk`):
/// `store_many` stores each entry in turn without validating the batch
/// first, so the entries before an invalid one are kept when the batch is
/// refused, like a driver that loops over `store` without a transaction.
/// Everything else is forwarded unchanged.
#[derive(Debug, Clone, Default)]
pub struct PartialBatch<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(PartialBatch);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `store_many` stores entry by entry until one fails.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for PartialBatch<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, export_page,
            import, interface;

        /// Entry by entry, no validation first: what came before an invalid
        /// entry stays stored.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            for e in entries {
                self.inner
                    .store(
                        &e.namespace,
                        &e.key,
                        &e.content,
                        e.category.clone(),
                        e.session_id.as_deref(),
                        e.taint,
                    )
                    .await?;
            }
            Ok(())
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "partial-batch",
        rule: "bulk store: one invalid entry refuses the whole batch, nothing of it stored",
        check: "store.bulk",
        also_caught_by: &["key.invalid_refused"],
        description: "store_many stores entry by entry without validating first, keeping what came before an invalid entry",
        wrap: PartialBatch::new(),
        profile: Lexical,
        witness: |d| {
            let batch = [
                tinymemory_api::NewEntry::new("global", "a", "first"),
                tinymemory_api::NewEntry::new("global", "", "empty key"),
            ];
            let refused = d.store_many(&batch).await.err();
            let kept: Vec<String> = d
                .list(None, None, None)
                .await?
                .into_iter()
                .map(|e| e.key)
                .collect();
            Ok(format!("{:?} {kept:?}", refused.as_ref().and_then(MemoryError::rule)))
        },
        reference: r#"Some("key.empty") []"#,
        mutant: r#"Some("key.empty") ["a"]"#,
    },
];
