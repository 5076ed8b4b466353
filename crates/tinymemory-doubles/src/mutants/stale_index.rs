//! Mutant `stale-embedding-on-upsert`, for `recall.reindexed_on_upsert`.

use std::collections::HashMap;
use std::sync::Mutex;

use tinymemory_api::portability::{
    validate_record, ExportCursor, ExportPage, ImportOutcome, MemoryRecord,
};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NewEntry, RecallOptions,
};

use super::UpsertPath;

/// Breaks "an upsert re-indexes the new content" (check
/// `recall.reindexed_on_upsert`): on the [`UpsertPath`]s given, a write
/// over an existing entry replaces what `get`, `list`, `recall` and
/// `export_page` show, but the wrapped driver goes on ranking by the
/// content the entry held before, as a vector store that keeps an entry's
/// first embedding after an upsert does (or a full-text index whose old
/// terms are never deleted).
///
/// It keeps the indexed (old) content in the wrapped driver and the shown
/// (new) content in its own map: every field but the content is written
/// as given. A write of a new key, and the paths not given, are the
/// wrapped driver's; a forget drops the shown content too.
#[derive(Debug)]
pub struct StaleIndex<P: ?Sized> {
    paths: Vec<UpsertPath>,
    /// `(namespace, key)` to the content shown instead of the indexed one.
    shown: Mutex<HashMap<(String, String), String>>,
    inner: P,
}

impl<P> StaleIndex<P> {
    /// Wraps `inner`, keeping the old index on `paths`.
    #[must_use]
    pub fn new(paths: &[UpsertPath], inner: P) -> Self {
        Self {
            paths: paths.to_vec(),
            shown: Mutex::new(HashMap::new()),
            inner,
        }
    }
}

impl<P: ?Sized> StaleIndex<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), String>> {
        self.shown
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn show(&self, mut e: MemoryEntry) -> MemoryEntry {
        if let Some(ns) = &e.namespace {
            if let Some(c) = self.map().get(&(ns.clone(), e.key.clone())) {
                e.content.clone_from(c);
            }
        }
        e
    }

    fn show_all(&self, entries: Vec<MemoryEntry>) -> Vec<MemoryEntry> {
        entries.into_iter().map(|e| self.show(e)).collect()
    }
}

impl<P: MemoryProvider + ?Sized> StaleIndex<P> {
    /// The content to hand the wrapped driver for a write of `content` at
    /// `(namespace, key)` on `path`: the indexed one when the entry exists
    /// and the path is broken (remembering `content` to show), else
    /// `content` itself (forgetting any shown content once written).
    async fn indexed(
        &self,
        path: UpsertPath,
        namespace: &str,
        key: &str,
        content: &str,
    ) -> (String, Option<String>) {
        let id = (namespace.to_owned(), key.to_owned());
        if self.paths.contains(&path) {
            if let Ok(Some(old)) = self.inner.get(namespace, key).await {
                return (old.content, Some(content.to_owned()));
            }
        }
        self.map().remove(&id);
        (content.to_owned(), None)
    }

    fn remember(&self, namespace: &str, key: &str, shown: Option<String>) {
        if let Some(s) = shown {
            self.map().insert((namespace.to_owned(), key.to_owned()), s);
        }
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; writes on the broken paths keep the old index,
    /// reads show the new content.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for StaleIndex<P> {
        forward(inner): driver_id, namespaces, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            let (indexed, shown) = self
                .indexed(UpsertPath::Store, namespace, key, content)
                .await;
            self.inner
                .store(namespace, key, &indexed, category, session_id, taint)
                .await?;
            self.remember(namespace, key, shown);
            Ok(())
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            Ok(self.inner.get(namespace, key).await?.map(|e| self.show(e)))
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            let gone = self.inner.forget(namespace, key).await?;
            self.map().remove(&(namespace.to_owned(), key.to_owned()));
            Ok(gone)
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            Ok(self.show_all(self.inner.list(namespace, category, session_id).await?))
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            Ok(self.show_all(self.inner.recall(query, limit, opts).await?))
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            let mut written = Vec::with_capacity(entries.len());
            let mut shown = Vec::new();
            for e in entries {
                let (content, s) = self
                    .indexed(UpsertPath::StoreMany, &e.namespace, &e.key, &e.content)
                    .await;
                shown.push((e.namespace.clone(), e.key.clone(), s));
                written.push(NewEntry {
                    content,
                    ..e.clone()
                });
            }
            self.inner.store_many(&written).await?;
            for (ns, key, s) in shown {
                self.remember(&ns, &key, s);
            }
            Ok(())
        }

        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            let mut page = self.inner.export_page(cursor, limit).await?;
            let map = self.map();
            for r in &mut page.records {
                if let Some(c) = map.get(&(r.namespace.clone(), r.key.clone())) {
                    r.content.clone_from(c);
                }
            }
            Ok(page)
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let mut written = Vec::with_capacity(records.len());
            let mut shown = Vec::new();
            for r in records {
                if validate_record(r).is_err() {
                    written.push(r.clone());
                    shown.push(None);
                    continue;
                }
                let (content, s) = self
                    .indexed(UpsertPath::Import, &r.namespace, &r.key, &r.content)
                    .await;
                shown.push(s);
                written.push(MemoryRecord {
                    content,
                    ..r.clone()
                });
            }
            let outcome = self.inner.import(&written).await?;
            for (i, (r, s)) in records.iter().zip(shown).enumerate() {
                if outcome.failures.iter().all(|f| f.index != i) {
                    self.remember(&r.namespace, &r.key, s);
                }
            }
            Ok(outcome)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "stale-embedding-on-upsert",
        rule: "ranking: an upsert, a bulk store or an import over a key re-embeds its new content",
        check: "recall.reindexed_on_upsert",
        also_caught_by: &["recall.self_retrieval", "portability.round_trip"],
        description: "a write over an existing key keeps the embedding of the entry's first content, while get and list show the new one",
        wrap: StaleIndex::new(&[UpsertPath::Store, UpsertPath::StoreMany, UpsertPath::Import]),
        profile: Semantic,
        witness: |d| {
            use super::witness::{put, ranked};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "comet tail").await?;
            put(d, "global", "k", "granite river").await?;
            Ok(ranked(&d.recall("comet tail", 10, &any()).await?))
        },
        reference: r#"[("k", "0.000")]"#,
        mutant: r#"[("k", "1.000")]"#,
    },
];
