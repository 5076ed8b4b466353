//! Mutant `drops-taint`, for `store.upsert`.

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

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

/// Forwards every method; `store` always stores [`MemoryTaint::Internal`].
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for DropsTaint<P> {
    fn driver_id(&self) -> &str {
        self.inner.driver_id()
    }

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

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        self.inner.get(namespace, key).await
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.inner.forget(namespace, key).await
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.inner.list(namespace, category, session_id).await
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        self.inner.namespaces().await
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.inner.recall(query, limit, opts).await
    }

    /// Every entry through the mutated `store`: a bulk store drops taint too.
    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        tinymemory_api::batch::store_each(self, entries).await
    }

    /// Forwarded: the export reads back what was stored, taint already lost.
    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        self.inner.export_page(cursor, limit).await
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
