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
    /// How many writes began or ended: an answer is kept only when none
    /// did while the driver was reading it (a read that overlapped a write
    /// may be the data before it).
    writes: u64,
    namespaces: Option<Vec<NamespaceSummary>>,
    lists: HashMap<ListArgs, Vec<MemoryEntry>>,
    gets: HashMap<(String, String), Option<MemoryEntry>>,
}

/// A driver whose repeated `get`, `list` and `namespaces()` on unchanged
/// data are answered from the first answer; every write (`store`,
/// `store_many`, `forget`, `import`) forgets the answers as it begins and
/// as it ends, whatever it returned, and a read that overlapped a write is
/// not kept; every other call is forwarded.
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
        let mut answers = self.answers();
        *answers = Answers {
            writes: answers.writes + 1,
            ..Answers::default()
        };
    }

    /// `write` awaited, the kept answers forgotten as it begins and again
    /// as it ends: a read answered while it was under way may be the data
    /// before it, and is kept by neither side ([`Self::keep`]).
    async fn writing<T>(&self, write: impl std::future::Future<Output = T>) -> T {
        self.written();
        let done = write.await;
        self.written();
        done
    }

    /// The writes begun or ended so far, read before asking the driver.
    fn writes(&self) -> u64 {
        self.answers().writes
    }

    /// `keep` applied to the kept answers unless a write began since
    /// `before` ([`Self::writes`]).
    fn keep(&self, before: u64, keep: impl FnOnce(&mut Answers)) {
        let mut answers = self.answers();
        if answers.writes == before {
            keep(&mut answers);
        }
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
        self.writing(
            self.inner
                .store(namespace, key, content, category, session_id, taint),
        )
        .await
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        let args = (namespace.to_owned(), key.to_owned());
        if let Some(kept) = self.answers().gets.get(&args) {
            return Ok(kept.clone());
        }
        let before = self.writes();
        let answer = self.inner.get(namespace, key).await?;
        self.keep(before, |kept| {
            kept.gets.insert(args, answer.clone());
        });
        Ok(answer)
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.writing(self.inner.forget(namespace, key)).await
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
        let before = self.writes();
        let answer = self.inner.list(namespace, category, session_id).await?;
        self.keep(before, |kept| {
            kept.lists.insert(args, answer.clone());
        });
        Ok(answer)
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        if let Some(kept) = &self.answers().namespaces {
            return Ok(kept.clone());
        }
        let before = self.writes();
        let answer = self.inner.namespaces().await?;
        self.keep(before, |kept| kept.namespaces = Some(answer.clone()));
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
        self.writing(self.inner.store_many(entries)).await
    }

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        self.inner.export_page(cursor, limit).await
    }

    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        self.writing(self.inner.import(records)).await
    }

    async fn interface(&self, scenario: &Scenario<'_>) -> Result<String, MemoryError> {
        self.inner.interface(scenario).await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint};
    use tinymemory_reference::ReferenceDriver;
    use tokio::sync::Notify;

    use super::Memo;

    /// The reference driver whose `get` reads the data, then waits for
    /// `release` before answering: a write can land between the read and
    /// the answer, as on a driver answering calls side by side.
    struct SlowGet {
        inner: ReferenceDriver,
        read: Arc<Notify>,
        release: Arc<Notify>,
    }

    tinymemory_api::delegate_provider! {
        impl MemoryProvider for SlowGet {
            forward(inner): driver_id, store, forget, list, namespaces, recall, store_many,
                export_page, import, interface;

            async fn get(
                &self,
                namespace: &str,
                key: &str,
            ) -> Result<Option<MemoryEntry>, MemoryError> {
                let answer = self.inner.get(namespace, key).await;
                self.read.notify_one();
                self.release.notified().await;
                answer
            }
        }
    }

    /// The reference driver whose `store` waits for `release` before it
    /// writes: a read can be answered while the write is under way.
    struct SlowStore {
        inner: ReferenceDriver,
        release: Arc<Notify>,
    }

    tinymemory_api::delegate_provider! {
        impl MemoryProvider for SlowStore {
            forward(inner): driver_id, get, forget, list, namespaces, recall, store_many,
                export_page, import, interface;

            async fn store(
                &self,
                namespace: &str,
                key: &str,
                content: &str,
                category: MemoryCategory,
                session_id: Option<&str>,
                taint: MemoryTaint,
            ) -> Result<(), MemoryError> {
                self.release.notified().await;
                self.inner.store(namespace, key, content, category, session_id, taint).await
            }
        }
    }

    async fn put(d: &dyn MemoryProvider, content: &str) {
        d.store(
            "a",
            "k",
            content,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
    }

    /// A `get` answered before a write and returned after it is the data
    /// before the write: the memo must not keep it for the reads after.
    #[tokio::test]
    async fn an_answer_read_before_a_write_is_not_kept_after_it() {
        let (read, release) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
        let slow = SlowGet {
            inner: ReferenceDriver::new(),
            read: Arc::clone(&read),
            release: Arc::clone(&release),
        };
        let memo = Memo::new(&slow);
        put(&memo, "before").await;
        let content = |e: Option<MemoryEntry>| e.map(|e| e.content);
        let (stale, ()) = tokio::join!(memo.get("a", "k"), async {
            read.notified().await;
            put(&memo, "after").await;
            release.notify_one();
        });
        assert_eq!(content(stale.unwrap()), Some("before".to_owned()));
        // The next read is asked of the driver again (released ahead: a
        // memo answering it itself does not wait).
        release.notify_one();
        let fresh = memo.get("a", "k").await;
        assert_eq!(content(fresh.unwrap()), Some("after".to_owned()));
    }

    /// A `get` answered while a write is under way may be the data before
    /// it: the memo must not keep it for the reads after the write.
    #[tokio::test]
    async fn an_answer_read_during_a_write_is_not_kept_after_it() {
        let release = Arc::new(Notify::new());
        let slow = SlowStore {
            inner: ReferenceDriver::new(),
            release: Arc::clone(&release),
        };
        let memo = Memo::new(&slow);
        release.notify_one();
        put(&memo, "before").await;
        let content = |e: Option<MemoryEntry>| e.map(|e| e.content);
        let ((), during) = tokio::join!(put(&memo, "after"), async {
            let during = memo.get("a", "k").await;
            release.notify_one();
            during
        });
        assert_eq!(content(during.unwrap()), Some("before".to_owned()));
        assert_eq!(
            content(memo.get("a", "k").await.unwrap()),
            Some("after".to_owned())
        );
    }
}
