//! [`Memo`]: a case's reads of unchanged data asked of the driver once.
//!
//! Through an adapter each request is a round trip and an engine call
//! (docs/benchmarks.md, "Requests a check needs"). `get`, `list` and
//! `namespaces()` answer from the data alone (contract sentences 1, 3 and
//! 8), so a repeated one is answered here until the next write. A recall
//! is always forwarded: a recall that answers otherwise on unchanged data
//! (`jittered-scores`) is a fault the properties that repeat one must
//! still see.
//!
//! - `properties.custom_spelling` reads everything through two spellings
//!   of one section, which the section API resolves to the same
//!   namespaces: each read through the second spelling was the request the
//!   first had sent, on the same data.
//! - `properties.cap_determinism` asks one section recall again and again
//!   on a store it no longer writes, each through a new shuffle of
//!   `namespaces()` ([`ShuffledNamespaces`](tinymemory_doubles::ShuffledNamespaces)
//!   over the memo): the order changes on every call, the driver is asked
//!   once.
//! - `properties.truncation` compares the section recalls' visit with the
//!   namespaces it lists first, on the same data: the driver is asked
//!   `namespaces()` once for the three.

use std::collections::HashMap;
use std::sync::Mutex;

use tinymemory_api::interface::Scenario;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

/// The arguments of a `list`: namespace, category, session.
type ListArgs = (Option<String>, Option<MemoryCategory>, Option<String>);

/// The answers given since the last write; only `Ok` answers are kept, so
/// an error is asked of the driver again.
#[derive(Default)]
struct Answers {
    namespaces: Option<Vec<NamespaceSummary>>,
    lists: HashMap<ListArgs, Vec<MemoryEntry>>,
    gets: HashMap<(String, String), Option<MemoryEntry>>,
}

/// A driver whose repeated `get`, `list` and `namespaces()` on unchanged
/// data are answered from the first answer; every write (`store`,
/// `store_many`, `forget`, `import`) forgets the answers, whatever it
/// returned, and every other call is forwarded.
pub(crate) struct Memo<'a> {
    inner: &'a dyn MemoryProvider,
    answers: Mutex<Answers>,
}

impl<'a> Memo<'a> {
    /// Wraps `inner`, with no answer kept.
    pub(crate) fn new(inner: &'a dyn MemoryProvider) -> Self {
        Self {
            inner,
            answers: Mutex::default(),
        }
    }

    /// The kept answers; a case that panicked while holding them left
    /// nothing half-written (each update is one insert), so a poisoned
    /// lock is used as it is.
    fn answers(&self) -> std::sync::MutexGuard<'_, Answers> {
        self.answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Forgets every kept answer: the data may have changed.
    fn written(&self) {
        *self.answers() = Answers::default();
    }
}

#[async_trait::async_trait]
impl MemoryProvider for Memo<'_> {
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
        self.written();
        self.inner
            .store(namespace, key, content, category, session_id, taint)
            .await
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        let args = (namespace.to_owned(), key.to_owned());
        if let Some(kept) = self.answers().gets.get(&args) {
            return Ok(kept.clone());
        }
        let answer = self.inner.get(namespace, key).await?;
        self.answers().gets.insert(args, answer.clone());
        Ok(answer)
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.written();
        self.inner.forget(namespace, key).await
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let args = (
            namespace.map(str::to_owned),
            category.cloned(),
            session_id.map(str::to_owned),
        );
        if let Some(kept) = self.answers().lists.get(&args) {
            return Ok(kept.clone());
        }
        let answer = self.inner.list(namespace, category, session_id).await?;
        self.answers().lists.insert(args, answer.clone());
        Ok(answer)
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        if let Some(kept) = &self.answers().namespaces {
            return Ok(kept.clone());
        }
        let answer = self.inner.namespaces().await?;
        self.answers().namespaces = Some(answer.clone());
        Ok(answer)
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
        self.written();
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
        self.written();
        self.inner.import(records).await
    }

    async fn interface(&self, scenario: &Scenario<'_>) -> Result<String, MemoryError> {
        self.inner.interface(scenario).await
    }
}
