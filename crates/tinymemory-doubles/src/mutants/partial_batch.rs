//! Mutant `partial-batch`, for `store.bulk`.

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

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

/// Forwards every method; `store_many` stores entry by entry until one fails.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for PartialBatch<P> {
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

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        self.inner.export_page(cursor, limit).await
    }

    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        self.inner.import(records).await
    }
}
