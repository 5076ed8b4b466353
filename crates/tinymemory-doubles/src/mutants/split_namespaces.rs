//! Mutant `splits-namespaces-by-category`, for
//! `sections.namespaces_listed_once`.

use std::collections::BTreeMap;

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

/// Breaks contract sentence 8's "once" (check
/// `sections.namespaces_listed_once`): `namespaces()` lists one summary per
/// `(namespace, category)` instead of per namespace, like a driver whose
/// query says `GROUP BY namespace, category`. A namespace whose entries
/// share one category is listed once with its exact count, so the fault
/// shows only on mixed namespaces; a section recall then sees the namespace
/// twice, which it must report as a driver fault.
///
/// The summaries are built from the wrapped driver's `list(None, ..)`:
/// ordered by namespace, then category text
/// ([`MemoryCategory::as_text`]); each counts its group's entries, and its
/// `last_updated` is the newest timestamp among them. The counts of one
/// namespace add up to its true count. Every other method is forwarded
/// unchanged.
#[derive(Debug, Clone, Default)]
pub struct SplitsNamespacesByCategory<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(SplitsNamespacesByCategory);

/// Forwards every method; `namespaces()` groups by namespace and category.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for SplitsNamespacesByCategory<P> {
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
        let mut groups: BTreeMap<(String, String), NamespaceSummary> = BTreeMap::new();
        for entry in self.inner.list(None, None, None).await? {
            let Some(namespace) = entry.namespace else {
                continue;
            };
            let summary = groups
                .entry((namespace.clone(), entry.category.as_text()))
                .or_insert_with(|| NamespaceSummary {
                    namespace,
                    count: 0,
                    last_updated: None,
                });
            summary.count += 1;
            if tinymemory_api::is_newer_timestamp(&entry.timestamp, summary.last_updated.as_deref())
            {
                summary.last_updated = Some(entry.timestamp);
            }
        }
        Ok(groups.into_values().collect())
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
        self.inner.import(records).await
    }
}
