//! Mutant `zero-query-nan`, for `recall.plain_text_query`.

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

/// Breaks contract sentences 4 and 6 for queries without a word (check
/// `recall.plain_text_query`): a query that is not blank but holds no
/// word (`"`, `?!`) scores every hit `NaN`, as a cosine similarity against
/// the zero vector that a bag-of-words or hashed embedding gives such a
/// query does (`0 / 0`). Hits and their order are the wrapped driver's, and
/// every query with a word is forwarded untouched. [`ZeroQueryNan::refusing`]
/// makes such a recall a backend error instead, as engines that refuse a
/// zero query vector do.
#[derive(Debug, Clone, Default)]
pub struct ZeroQueryNan<P: ?Sized> {
    refuse: bool,
    inner: P,
}

impl<P> ZeroQueryNan<P> {
    /// Wraps `inner`: a wordless query scores `NaN`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            refuse: false,
            inner,
        }
    }

    /// Wraps `inner`: a wordless query is a backend error.
    #[must_use]
    pub fn refusing(inner: P) -> Self {
        Self {
            refuse: true,
            inner,
        }
    }
}

impl<P: ?Sized> ZeroQueryNan<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

/// Forwards every method; `recall` of a wordless query scores `NaN`.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for ZeroQueryNan<P> {
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
        let wordless = tinymemory_api::text::words(query).next().is_none();
        if wordless && self.refuse && !query.trim().is_empty() {
            return Err(MemoryError::fault(
                "cannot search with a zero vector: the query's norm is 0",
            ));
        }
        let mut hits = self.inner.recall(query, limit, opts).await?;
        if wordless {
            for h in &mut hits {
                h.score = Some(f64::NAN);
            }
        }
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
