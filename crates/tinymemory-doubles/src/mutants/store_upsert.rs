//! Mutant for `store.upsert`.

use std::sync::Mutex;

use tinymemory_api::portability::{
    validate_record, ExportCursor, ExportPage, ImportFailure, ImportOutcome, MemoryRecord,
};

use crate::import_each::absorb;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry,
};

use crate::lock::lock;

/// Breaks contract sentence 1 (`store.upsert`): a second `store` under the
/// same `(namespace, key)` keeps the entry it replaces, as if the driver
/// inserted instead of upserting.
///
/// The wrapped driver holds the newest entry; the ones it replaced are kept
/// here and show up in `list` (after the current entry of the same key) and
/// in the `namespaces()` count. `get` and `recall` see only the newest entry,
/// so a check that stores a key twice and then calls `list` catches the
/// mutant. `forget` removes the key's entry and everything it superseded,
/// returning `true` when any was removed, so `forget.idempotent` still
/// passes.
///
/// Overlap: a `namespaces.exact_counts` check that stores the same key twice
/// also sees an inflated count; one that stores distinct keys does not.
#[derive(Debug, Default)]
pub struct DuplicatesOnStore<P: ?Sized> {
    superseded: Mutex<Vec<MemoryEntry>>,
    inner: P,
}

impl<P> DuplicatesOnStore<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            superseded: Mutex::new(Vec::new()),
            inner,
        }
    }

    /// Unwraps the provider; the superseded entries are dropped.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> DuplicatesOnStore<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    /// The wrapped provider, mutably.
    #[must_use]
    pub fn get_mut(&mut self) -> &mut P {
        &mut self.inner
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `store`, `forget`, `list` and `namespaces`
    /// also see the superseded entries.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for DuplicatesOnStore<P> {
        forward(inner): driver_id, get, recall, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            let old = self.inner.get(namespace, key).await?;
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await?;
            if let Some(old) = old {
                lock(&self.superseded).push(old);
            }
            Ok(())
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            let removed = self.inner.forget(namespace, key).await?;
            let mut superseded = lock(&self.superseded);
            let before = superseded.len();
            superseded.retain(|e| !(e.namespace.as_deref() == Some(namespace) && e.key == key));
            Ok(removed || superseded.len() < before)
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let mut entries = self.inner.list(namespace, category, session_id).await?;
            entries.extend(
                lock(&self.superseded)
                    .iter()
                    .filter(|e| namespace.is_none_or(|ns| e.namespace.as_deref() == Some(ns)))
                    .filter(|e| category.is_none_or(|c| *c == e.category))
                    .filter(|e| session_id.is_none_or(|s| e.session_id.as_deref() == Some(s)))
                    .cloned(),
            );
            // Stable: the current entry stays ahead of the ones it superseded.
            entries.sort_by(|a, b| (&a.namespace, &a.key).cmp(&(&b.namespace, &b.key)));
            Ok(entries)
        }

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let mut summaries = self.inner.namespaces().await?;
            for old in lock(&self.superseded).iter() {
                let Some(ns) = old.namespace.as_deref() else {
                    continue;
                };
                match summaries.iter_mut().find(|s| s.namespace == ns) {
                    Some(summary) => summary.count += 1,
                    None => summaries.push(NamespaceSummary {
                        namespace: ns.to_owned(),
                        count: 1,
                        last_updated: Some(old.timestamp.clone()),
                    }),
                }
            }
            Ok(summaries)
        }

        /// Every entry through the mutated `store`: a bulk upsert duplicates too.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            tinymemory_api::batch::store_each(self, entries).await
        }

        /// Built on this wrapper's own `list`, so the superseded entries are exported too.
        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            tinymemory_api::portability::export_from_list(self, cursor, limit).await
        }

        /// An import is an upsert, so it duplicates too: one record at a time,
        /// the entry it replaces is kept with the superseded ones.
        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let mut outcome = ImportOutcome::default();
            for (index, record) in records.iter().enumerate() {
                if let Err(error) = validate_record(record) {
                    outcome
                        .failures
                        .push(ImportFailure::new(index, record, error));
                    continue;
                }
                let old = self.inner.get(&record.namespace, &record.key).await?;
                let one = self.inner.import(std::slice::from_ref(record)).await?;
                let written = one.imported > 0;
                absorb(&mut outcome, one, index);
                if let (true, Some(old)) = (written, old) {
                    lock(&self.superseded).push(old);
                }
            }
            Ok(outcome)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "duplicates-on-upsert",
        rule: "contract 1: a second store at (namespace, key) replaces the first, never duplicates",
        check: "store.upsert",
        also_caught_by: &["namespaces.exact_counts", "store.bulk", "store.upsert_replaces_metadata", "store.timestamps", "portability.cursor_stable", "portability.round_trip", "properties.export_partition", "properties.export_round_trip", "model.differential"],
        description: "a second store under a key keeps the old entry too: both show in list and in the namespaces() count",
        wrap: DuplicatesOnStore::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            put(d, "global", "k", "alpha").await?;
            put(d, "global", "k", "beta").await?;
            let list = d.list(None, None, None).await?;
            let got: Vec<_> = list
                .iter()
                .map(|e| (e.key.as_str(), e.content.as_str()))
                .collect();
            Ok(format!("{got:?}"))
        },
        reference: r#"[("k", "beta")]"#,
        mutant: r#"[("k", "beta"), ("k", "alpha")]"#,
    },
];
