//! The semantic reference driver: the reference store, ranked by cosine
//! similarity of hashed embeddings.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace,
    NamespaceSummary, NewEntry, RecallOptions,
};

use crate::embedding::Embedding;
use crate::ReferenceDriver;

/// The in-memory reference for the `semantic` recall profile
/// ([`tinymemory_api::RecallProfile::Semantic`]): what a vector store
/// does, with no model to download.
///
/// Storage, `get`, `forget`, `list` and `namespaces` are the
/// [`ReferenceDriver`]'s. `recall` is brute force over the pinned
/// namespace: every entry passing the category and session filters is
/// scored by [`Embedding::cosine`] of its content against the query
/// (`docs` of [`crate::embedding`] give the formula), entries below
/// `min_score` are dropped, and the rest are ordered by score descending,
/// then key ascending, and cut to `limit`. So a recall returns
/// `min(limit, entries passing the filters)` hits, whatever words they
/// share with the query; an entry's own content ranks it first with score
/// `1.0` (tied only with entries of the same word set). A query that is
/// empty or whitespace returns no hits (contract sentence 6); any other
/// query, punctuation alone included, is ranked (a query without words
/// scores every entry `0.0`).
///
/// Embeddings are memoised by content: an embedding is a pure function of
/// the text, so the memo can never disagree with what is stored (whatever
/// order concurrent stores land in); it keeps one embedding per distinct
/// content ever stored, for the life of the driver.
#[derive(Debug, Default)]
pub struct SemanticReferenceDriver {
    store: ReferenceDriver,
    memo: Mutex<HashMap<String, Arc<Embedding>>>,
}

impl SemanticReferenceDriver {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn embedding(&self, content: &str) -> Arc<Embedding> {
        let mut memo = self
            .memo
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(
            memo.entry(content.to_owned())
                .or_insert_with(|| Arc::new(Embedding::of(content))),
        )
    }
}

#[async_trait]
impl MemoryProvider for SemanticReferenceDriver {
    fn driver_id(&self) -> &str {
        "semantic-reference"
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
        self.store
            .store(namespace, key, content, category, session_id, taint)
            .await
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        self.store.get(namespace, key).await
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.store.forget(namespace, key).await
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.store.list(namespace, category, session_id).await
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        self.store.namespaces().await
    }

    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        self.store.store_many(entries).await
    }

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        self.store.export_page(cursor, limit).await
    }

    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        self.store.import(records).await
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let namespace = opts.effective_namespace();
        Namespace::parse(namespace)?;
        opts.validate()?;
        if limit == 0 || query.trim().is_empty() {
            return Ok(Vec::new());
        }
        let q = Embedding::of(query);
        let candidates = self
            .store
            .list(
                Some(namespace),
                opts.category.as_ref(),
                opts.session_id.as_deref(),
            )
            .await?;
        let mut hits: Vec<MemoryEntry> = candidates
            .into_iter()
            .filter_map(|e| {
                let s = q.cosine(&self.embedding(&e.content));
                opts.admits(Some(s)).then_some(MemoryEntry {
                    score: Some(s),
                    ..e
                })
            })
            .collect();
        // `list` gives key order and the sort is stable: ties stay by key.
        // Every score is Some and finite here.
        let score = |e: &MemoryEntry| e.score.unwrap_or(0.0);
        hits.sort_by(|a, b| score(b).total_cmp(&score(a)));
        hits.truncate(limit);
        Ok(hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn put(d: &SemanticReferenceDriver, ns: &str, key: &str, content: &str) {
        d.store(
            ns,
            key,
            content,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
    }

    fn ranked(hits: &[MemoryEntry]) -> Vec<(&str, f64)> {
        hits.iter()
            .map(|h| (h.key.as_str(), h.score.unwrap()))
            .collect()
    }

    #[tokio::test]
    async fn ranks_every_entry_of_the_namespace_by_cosine() {
        let d = SemanticReferenceDriver::new();
        put(&d, "global", "self", "async fn returns a future").await;
        put(&d, "global", "near", "an async future").await;
        put(&d, "global", "far", "granite steps by the river").await;
        put(&d, "learning:x", "other", "async fn returns a future").await;
        let q = "async fn returns a future";
        let hits = d.recall(q, 10, &RecallOptions::default()).await.unwrap();
        let want = Embedding::of(q);
        let expect = |text: &str| want.cosine(&Embedding::of(text));
        assert_eq!(
            ranked(&hits),
            [
                ("self", 1.0),
                ("near", expect("an async future")),
                ("far", expect("granite steps by the river")),
            ]
        );
        assert!(expect("an async future") > expect("granite steps by the river"));
        assert!(hits
            .iter()
            .all(|h| h.namespace.as_deref() == Some("global")));
        assert_eq!(
            d.recall(q, 1, &RecallOptions::default())
                .await
                .unwrap()
                .len(),
            1
        );
        assert!(d
            .recall(" \t", 10, &RecallOptions::default())
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            d.recall("*", 10, &RecallOptions::default())
                .await
                .unwrap()
                .len(),
            3
        );
    }

    #[tokio::test]
    async fn min_score_filters_and_ties_go_by_key() {
        let d = SemanticReferenceDriver::new();
        put(&d, "global", "b", "hi").await;
        put(&d, "global", "a", "hi hi").await;
        put(&d, "global", "c", "hello there").await;
        let opts = RecallOptions {
            min_score: Some(0.99),
            ..RecallOptions::default()
        };
        let hits = d.recall("hi", 10, &opts).await.unwrap();
        assert_eq!(ranked(&hits), [("a", 1.0), ("b", 1.0)]);
        let bad = RecallOptions {
            min_score: Some(f64::NAN),
            ..RecallOptions::default()
        };
        assert!(d.recall("hi", 10, &bad).await.is_err());
        assert!(d
            .recall("hi", 10, &RecallOptions::in_namespace("a/../b"))
            .await
            .is_err());
    }
}
