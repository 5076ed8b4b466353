//! Mutant `counts-every-store`, for `namespaces.exact_counts`.

use std::collections::BTreeMap;
use std::sync::Mutex;

use tinymemory_api::portability::{validate_record, ImportFailure, ImportOutcome, MemoryRecord};

use crate::import_each::absorb;
use tinymemory_api::{
    MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary, NewEntry,
};

use crate::lock::lock;

/// Breaks contract sentence 8's "exact count" (check
/// `namespaces.exact_counts`): `namespaces()` counts every `store` of a
/// key still present, upserts included, instead of its entries, like a
/// driver counting the rows of a full-text table that gains a row on each
/// write and loses them only on `forget`.
///
/// Entries themselves are untouched: `get`, `list` and `recall` see one
/// entry per key. A namespace whose keys were each stored once has its
/// exact count, so only a check that stores a key twice and then counts
/// sees the fault. `forget` drops the key's stores from the count, so an
/// emptied namespace still disappears.
///
/// Overlap: `store.upsert` also counts through `namespaces()` after its
/// second store.
#[derive(Debug, Default)]
pub struct CountsEveryStore<P: ?Sized> {
    /// `(namespace, key)` → stores beyond the first, for keys present.
    extra: Mutex<BTreeMap<(String, String), u64>>,
    inner: P,
}

impl<P> CountsEveryStore<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            extra: Mutex::new(BTreeMap::new()),
            inner,
        }
    }

    /// Unwraps the provider; the store counts are dropped.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> CountsEveryStore<P> {
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
    /// Forwards every method; `namespaces()` adds the repeated stores of each
    /// present key to its namespace's count.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for CountsEveryStore<P> {
        // `export_page` is forwarded: entries are untouched, only counts are wrong.
        forward(inner): driver_id, get, list, recall, export_page, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            let present = self.inner.get(namespace, key).await?.is_some();
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await?;
            if present {
                *lock(&self.extra)
                    .entry((namespace.to_owned(), key.to_owned()))
                    .or_insert(0) += 1;
            }
            Ok(())
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            let removed = self.inner.forget(namespace, key).await?;
            lock(&self.extra).remove(&(namespace.to_owned(), key.to_owned()));
            Ok(removed)
        }

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let mut summaries = self.inner.namespaces().await?;
            let extra = lock(&self.extra);
            for summary in &mut summaries {
                let more: u64 = extra
                    .iter()
                    .filter(|((ns, _), _)| *ns == summary.namespace)
                    .map(|(_, n)| *n)
                    .sum();
                summary.count += more;
            }
            Ok(summaries)
        }

        /// Every entry through the mutated `store`: each bulk upsert is counted too.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            tinymemory_api::batch::store_each(self, entries).await
        }

        /// An import is an upsert, so it is counted too: one record at a time,
        /// a record replacing a present key adds one to its namespace's count.
        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let mut outcome = ImportOutcome::default();
            for (index, record) in records.iter().enumerate() {
                if let Err(error) = validate_record(record) {
                    outcome
                        .failures
                        .push(ImportFailure::new(index, record, error));
                    continue;
                }
                let present = self
                    .inner
                    .get(&record.namespace, &record.key)
                    .await?
                    .is_some();
                let one = self.inner.import(std::slice::from_ref(record)).await?;
                if present && one.imported > 0 {
                    *lock(&self.extra)
                        .entry((record.namespace.clone(), record.key.clone()))
                        .or_insert(0) += 1;
                }
                absorb(&mut outcome, one, index);
            }
            Ok(outcome)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "counts-every-store",
        rule: "contract 8: namespaces() gives every non-empty namespace its exact count",
        check: "namespaces.exact_counts",
        also_caught_by: &["store.upsert", "store.bulk", "portability.round_trip", "properties.export_round_trip", "model.differential"],
        description: "namespaces() counts every store of a key, upserts included, like a full-text table gaining a row per write",
        wrap: CountsEveryStore::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{counts, put};
            put(d, "global", "a", "x").await?;
            put(d, "global", "a", "y").await?;
            put(d, "global", "b", "x").await?;
            Ok(format!("{:?}", counts(&d.namespaces().await?)))
        },
        reference: r#"[("global", 2)]"#,
        mutant: r#"[("global", 3)]"#,
    },
];
