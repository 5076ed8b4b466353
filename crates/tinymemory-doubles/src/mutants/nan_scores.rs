//! Mutant `nan-scores`, for `recall.scores_finite_higher_better`.

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace,
    NamespaceSummary, NewEntry, RecallOptions,
};

/// Breaks contract sentence 4's "finite" (check
/// `recall.scores_finite_higher_better`): the best hit of every recall
/// (the first one the inner driver returns, when it has a score) scores
/// `NaN`, as a score normalised by `0.0 / 0.0` for a perfect match would.
/// The other hits keep their scores, and the order is unchanged.
///
/// To keep sentence 7 (`recall.min_score`) intact, `min_score` applies to
/// the reported scores: the inner recall runs without it, and the hits that
/// [`RecallOptions::admits`] refuses are dropped afterwards, so with
/// `min_score` set the `NaN` hit is always dropped (and not replaced). A
/// `min_score` that is not finite is still refused.
#[derive(Debug, Clone, Default)]
pub struct NanScores<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(NanScores);

/// Forwards every method; `recall` gives its best hit a `NaN` score.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for NanScores<P> {
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
        if let Some(best) = hits.first_mut() {
            best.score = best.score.map(|_| f64::NAN);
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
