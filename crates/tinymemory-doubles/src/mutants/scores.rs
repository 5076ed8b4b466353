//! Mutant for `recall.scores_finite_higher_better`.

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace,
    NamespaceSummary, NewEntry, RecallOptions,
};

/// Breaks contract sentence 4 (`recall.scores_finite_higher_better`): every
/// recall score is negated, so the best hit has the *lowest* score, as a
/// driver reporting SQLite's raw `bm25()` would. Hits stay in the inner
/// driver's order (best first), so they come out in ascending score order.
///
/// To keep sentence 7 (`recall.min_score`) intact, `min_score` applies to
/// the reported, negated scores: the inner recall runs without it and the
/// hits with a negated score below it are dropped afterwards. (With a
/// `limit` below the number of matches, the dropped hits are not replaced.)
/// A `min_score` that is not finite is still refused.
#[derive(Debug, Clone, Default)]
pub struct NegatedScores<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(NegatedScores);

/// Forwards every method; `recall` negates scores as described on the type.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for NegatedScores<P> {
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
        Namespace::parse(opts.effective_namespace())?;
        opts.validate()?;
        let unfiltered = RecallOptions {
            min_score: None,
            ..opts.clone()
        };
        let mut hits = self.inner.recall(query, limit, &unfiltered).await?;
        for hit in &mut hits {
            hit.score = hit.score.map(|s| -s);
        }
        hits.retain(|hit| opts.admits(hit.score));
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
