//! Mutant `stale-recall-after-forget`, for `forget.idempotent`.

use std::sync::Mutex;

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace, NewEntry,
    RecallOptions,
};

use crate::lock::lock;
use crate::merge::merge_order;

/// Breaks contract sentence 10's "a forgotten entry is gone from recall"
/// (check `forget.idempotent`): `forget` removes the entry from the wrapped
/// driver, so `get`, `list` and `namespaces()` no longer see it, but recall
/// still finds it, like a driver whose full-text index has no delete
/// trigger.
///
/// The forgotten entries (as `get` returned them just before) are kept
/// here until their `(namespace, key)` is stored again. A recall adds every
/// kept entry of its effective namespace that passes its category and
/// session filters, scored by the reference formula
/// ([`tinymemory_reference::score`]) and admitted by `min_score`, to the
/// wrapped driver's hits; merges them (score descending, unscored last,
/// ties by `(namespace, key)`) and keeps the first `limit`. `forget`'s
/// return value is the wrapped driver's.
#[derive(Debug, Default)]
pub struct StaleRecallAfterForget<P: ?Sized> {
    forgotten: Mutex<Vec<MemoryEntry>>,
    inner: P,
}

impl<P> StaleRecallAfterForget<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            forgotten: Mutex::new(Vec::new()),
            inner,
        }
    }

    /// Unwraps the provider; the forgotten entries are dropped.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> StaleRecallAfterForget<P> {
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

    fn unforget(&self, namespace: &str, key: &str) {
        lock(&self.forgotten)
            .retain(|e| !(e.namespace.as_deref() == Some(namespace) && e.key == key));
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `forget` keeps the entry for `recall`, as
    /// described on the type.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for StaleRecallAfterForget<P> {
        // `export_page` is forwarded: a forgotten entry is gone from `list`, so from the export
        // too.
        forward(inner): driver_id, get, list, namespaces, export_page, interface;

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
                .await?;
            self.unforget(namespace, key);
            Ok(())
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            let entry = self.inner.get(namespace, key).await?;
            let removed = self.inner.forget(namespace, key).await?;
            if let (true, Some(entry)) = (removed, entry) {
                self.unforget(namespace, key);
                lock(&self.forgotten).push(entry);
            }
            Ok(removed)
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let mut hits = self.inner.recall(query, limit, opts).await?;
            let namespace = opts.effective_namespace();
            Namespace::parse(namespace)?;
            let stale = lock(&self.forgotten)
                .iter()
                .filter(|e| e.namespace.as_deref() == Some(namespace))
                .filter(|e| opts.category.as_ref().is_none_or(|c| *c == e.category))
                .filter(|e| {
                    opts.session_id
                        .as_deref()
                        .is_none_or(|s| e.session_id.as_deref() == Some(s))
                })
                .filter_map(|e| {
                    let score = tinymemory_reference::score(query, &e.content)?;
                    opts.admits(Some(score)).then(|| MemoryEntry {
                        score: Some(score),
                        ..e.clone()
                    })
                })
                .collect::<Vec<_>>();
            hits.extend(stale);
            hits.sort_by(merge_order);
            hits.truncate(limit);
            Ok(hits)
        }

        /// Every entry through the mutated `store`, so a re-stored key leaves the stale index.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            tinymemory_api::batch::store_each(self, entries).await
        }

        /// Forwarded; like a store, an imported key leaves the stale index.
        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let outcome = self.inner.import(records).await?;
            for (index, record) in records.iter().enumerate() {
                if !outcome.failures.iter().any(|f| f.index == index) {
                    self.unforget(&record.namespace, &record.key);
                }
            }
            Ok(outcome)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "stale-recall-after-forget",
        rule: "contract 10: a forgotten entry is gone from get, list, namespaces and recall",
        check: "forget.idempotent",
        also_caught_by: &["model.differential"],
        description: "forget leaves the entry in the recall index, like a full-text table with no delete trigger",
        wrap: StaleRecallAfterForget::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "zebra").await?;
            d.forget("global", "k").await?;
            Ok(format!("{:?}", keys(&d.recall("zebra", 10, &any()).await?)))
        },
        reference: "[]",
        mutant: r#"["k"]"#,
    },
];
