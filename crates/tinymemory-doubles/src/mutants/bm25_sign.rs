//! Mutant `bm25-sign-as-match`, for `recall.none_means_global`.

use std::collections::BTreeSet;

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

/// The lowercased distinct words of `text`.
fn word_set(text: &str) -> BTreeSet<String> {
    tinymemory_api::text::words(text)
        .map(str::to_lowercase)
        .collect()
}

/// Breaks "every entry sharing a word with the query is a hit" (lexical
/// profile; check `recall.none_means_global`, the first to recall from a
/// namespace of one entry): a hit is kept only when its Okapi BM25 weight
/// is above 0, as a driver does that uses the score's sign as the test
/// for "shares a word". The weight is the sum, over the query words the
/// hit holds, of Okapi's IDF `ln((N - n + 0.5) / (n + 0.5))` (`N` entries
/// passing the recall's filters in the namespace, `n` of them holding the
/// word), the IDF of a popular Python BM25 library: 0 or below for a word
/// that half the namespace or more holds, so the only entry of a
/// namespace is never found. Kept hits, their scores and order are the
/// wrapped driver's.
#[derive(Debug, Clone, Default)]
pub struct Bm25SignAsMatch<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(Bm25SignAsMatch);

/// Forwards every method; `recall` drops the hits of weight 0 or below.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for Bm25SignAsMatch<P> {
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
        let hits = self.inner.recall(query, limit, opts).await?;
        if hits.is_empty() {
            return Ok(hits);
        }
        let pool: Vec<BTreeSet<String>> = self
            .inner
            .list(
                Some(opts.effective_namespace()),
                opts.category.as_ref(),
                opts.session_id.as_deref(),
            )
            .await?
            .iter()
            .map(|e| word_set(&e.content))
            .collect();
        #[expect(
            clippy::cast_precision_loss,
            reason = "entry counts of a test double are far below 2^52"
        )]
        let idf = |word: &str| {
            let n = pool.iter().filter(|w| w.contains(word)).count() as f64;
            ((pool.len() as f64 - n + 0.5) / (n + 0.5)).ln()
        };
        let asked = word_set(query);
        Ok(hits
            .into_iter()
            .filter(|h| {
                let held = word_set(&h.content);
                asked.intersection(&held).map(|w| idf(w)).sum::<f64>() > 0.0
            })
            .collect())
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
