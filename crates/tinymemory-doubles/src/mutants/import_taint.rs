//! Mutant `import-drops-taint`, for `portability.taint_kept`.

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

/// Breaks "an import keeps taint" (check `portability.taint_kept`): every
/// record is imported as [`MemoryTaint::Internal`], whatever taint it was
/// exported with, like an importer that builds entries with the default
/// taint. Data synced from outside ([`MemoryTaint::ExternalSync`]) comes
/// back as internal, trusted data after a migration.
///
/// Only `import` changes: `store` and `store_many` keep taint (that is
/// [`DropsTaint`](super::DropsTaint)'s rule), and every other part of a
/// record (content, category, session, timestamp) is imported as given.
#[derive(Debug, Clone, Default)]
pub struct ImportDropsTaint<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(ImportDropsTaint);

/// Forwards every method; `import` writes every record as internal.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for ImportDropsTaint<P> {
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
        taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        self.inner
            .store(namespace, key, content, category, session_id, taint)
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

    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        self.inner.store_many(entries).await
    }

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        self.inner.export_page(cursor, limit).await
    }

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
