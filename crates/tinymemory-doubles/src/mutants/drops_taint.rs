//! Mutant `drops-taint`, for `store.upsert`.

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, NewEntry};

/// Breaks contract sentence 1's second half ("taint, category and session
/// are stored as given", check `store.upsert`): every `store` is forwarded
/// with [`MemoryTaint::Internal`], whatever taint was given, like a driver
/// whose schema has no taint column and reads back the default.
///
/// The loss is silent: the store succeeds, and an entry synced from outside
/// ([`MemoryTaint::ExternalSync`]) reads back as internal, trusted data.
/// Everything else is forwarded unchanged.
#[derive(Debug, Clone, Default)]
pub struct DropsTaint<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(DropsTaint);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `store` always stores [`MemoryTaint::Internal`].
    impl[P: MemoryProvider + ?Sized] MemoryProvider for DropsTaint<P> {
        // `export_page` is forwarded: the export reads back what was stored, taint already lost.
        forward(inner): driver_id, get, forget, list, namespaces, recall, export_page, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            _taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.inner
                .store(
                    namespace,
                    key,
                    content,
                    category,
                    session_id,
                    MemoryTaint::Internal,
                )
                .await
        }

        /// Every entry through the mutated `store`: a bulk store drops taint too.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            tinymemory_api::batch::store_each(self, entries).await
        }

        /// Every record is written as [`MemoryTaint::Internal`], as a store
        /// would be: an import drops taint too.
        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let internal: Vec<MemoryRecord> = records
                .iter()
                .map(|r| MemoryRecord {
                    taint: MemoryTaint::Internal,
                    ..r.clone()
                })
                .collect();
            self.inner.import(&internal).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "drops-taint",
        rule: "contract 1: taint, category and session are stored as given",
        check: "store.upsert",
        also_caught_by: &["store.bulk", "portability.taint_kept", "portability.import_hostile", "model.differential"],
        description: "every store is written as MemoryTaint::Internal, so externally synced entries read back as internal",
        wrap: DropsTaint::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::put_as;
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            put_as(
                d,
                "global",
                "k",
                MemoryCategory::Core,
                MemoryTaint::ExternalSync,
            )
            .await?;
            Ok(format!("{:?}", d.get("global", "k").await?.map(|e| e.taint)))
        },
        reference: "Some(ExternalSync)",
        mutant: "Some(Internal)",
    },
];
