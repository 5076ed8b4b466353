//! Mutant `prefix-pinned-recall`, for `sections.pinned_hits_only`.

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace,
    NamespaceSummary, NewEntry, RecallOptions,
};

use crate::merge::merge_order;

/// Breaks "a recall pinned to a namespace searches that namespace only"
/// (check `sections.pinned_hits_only`): a recall searches every namespace
/// whose name *starts with* its effective namespace, like a driver
/// filtering with `WHERE namespace LIKE ? || '%'`. A recall pinned to
/// `learning:rust` also finds the entries of `learning:rust-async` and
/// `learning:rust/tokio`; a section recall must report such a hit as a
/// driver fault, not merge it.
///
/// A recall validates its namespace and options, calls the inner
/// `namespaces()` once, recalls each matching namespace in the order listed
/// (pinned, with the full `limit` and the other options unchanged), merges
/// the hits (score descending by [`f64::total_cmp`], unscored last, ties by
/// `(namespace, key)`) and keeps the first `limit`. Hits keep the namespace
/// they live in. Where no namespace name extends another, which holds in
/// every check but the one named, the hits are the wrapped driver's own.
#[derive(Debug, Clone, Default)]
pub struct PrefixPinnedRecall<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(PrefixPinnedRecall);

/// Forwards every method; `recall` matches its namespace as a prefix.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for PrefixPinnedRecall<P> {
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
        let prefix = opts.effective_namespace();
        Namespace::parse(prefix)?;
        opts.validate()?;
        let mut hits = Vec::new();
        for summary in self.inner.namespaces().await? {
            if !summary.namespace.starts_with(prefix) {
                continue;
            }
            let pinned = RecallOptions {
                namespace: Some(summary.namespace),
                ..opts.clone()
            };
            hits.extend(self.inner.recall(query, limit, &pinned).await?);
        }
        hits.sort_by(merge_order);
        hits.truncate(limit);
        Ok(hits)
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
