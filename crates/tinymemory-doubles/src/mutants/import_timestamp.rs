//! Mutant `keeps-imported-timestamp`, for `portability.store_after_import`.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, NewEntry};

/// Breaks "a store stamps the time of the store" (check
/// `portability.store_after_import`) for keys an import wrote: a later
/// `store` or `store_many` of such a key writes every field it is given
/// but keeps the imported timestamp, as an upsert that sets the content
/// columns but not the timestamp column does (or an adapter that merges
/// the new value into the imported one). An entry imported from 2001
/// stays stamped 2001 however often it is stored again.
///
/// A key stored but never imported is stamped as the wrapped driver
/// stamps it, so every store-only check passes; a forget, or an import of
/// the key with another timestamp, ends or replaces what is kept.
#[derive(Debug, Default)]
pub struct KeepsImportedTimestamp<P: ?Sized> {
    /// `(namespace, key)` to the timestamp its last import wrote.
    imported: Mutex<HashMap<(String, String), String>>,
    inner: P,
}

impl<P> KeepsImportedTimestamp<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            imported: Mutex::new(HashMap::new()),
            inner,
        }
    }
}

impl<P: ?Sized> KeepsImportedTimestamp<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    fn map(&self) -> MutexGuard<'_, HashMap<(String, String), String>> {
        self.imported.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<P: MemoryProvider + ?Sized> KeepsImportedTimestamp<P> {
    /// Writes the entries just stored again, each at the timestamp its
    /// import wrote, for the keys an import wrote.
    async fn keep_imported(&self, written: &[NewEntry]) -> Result<(), MemoryError> {
        let records: Vec<MemoryRecord> = {
            let map = self.map();
            written
                .iter()
                .filter_map(|e| {
                    let at = map.get(&(e.namespace.clone(), e.key.clone()))?;
                    Some(MemoryRecord {
                        namespace: e.namespace.clone(),
                        key: e.key.clone(),
                        content: e.content.clone(),
                        category: e.category.clone(),
                        session_id: e.session_id.clone(),
                        taint: e.taint,
                        timestamp: at.clone(),
                    })
                })
                .collect()
        };
        if !records.is_empty() {
            self.inner.import(&records).await?;
        }
        Ok(())
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; a store of an imported key keeps the
    /// imported timestamp.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for KeepsImportedTimestamp<P> {
        forward(inner): driver_id, get, list, namespaces, recall, export_page, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            let entry = NewEntry {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
                content: content.to_owned(),
                category,
                session_id: session_id.map(str::to_owned),
                taint,
            };
            self.inner
                .store(
                    namespace,
                    key,
                    content,
                    entry.category.clone(),
                    session_id,
                    taint,
                )
                .await?;
            self.keep_imported(std::slice::from_ref(&entry)).await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            self.inner.store_many(entries).await?;
            self.keep_imported(entries).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            let gone = self.inner.forget(namespace, key).await?;
            self.map().remove(&(namespace.to_owned(), key.to_owned()));
            Ok(gone)
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let outcome = self.inner.import(records).await?;
            let mut map = self.map();
            for (i, r) in records.iter().enumerate() {
                if !outcome.failures.iter().any(|f| f.index == i) {
                    map.insert((r.namespace.clone(), r.key.clone()), r.timestamp.clone());
                }
            }
            Ok(outcome)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "keeps-imported-timestamp",
        rule: "contract: a timestamp is the time of the store, over a key an import wrote too",
        check: "portability.store_after_import",
        also_caught_by: &[],
        description: "a store or store_many over a key an import wrote keeps the imported timestamp",
        wrap: KeepsImportedTimestamp::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{put, record};
            use tinymemory_api::portability::MemoryRecord;
            use tinymemory_api::MemoryTaint;
            d.import(&[MemoryRecord {
                timestamp: "2001-01-01T00:00:00Z".into(),
                ..record("global", "k", MemoryTaint::Internal)
            }])
            .await?;
            put(d, "global", "k", "stored").await?;
            let stamped = d.get("global", "k").await?.map(|e| e.timestamp);
            Ok(format!("{}", stamped.is_some_and(|t| t.starts_with("2001-"))))
        },
        reference: "false",
        mutant: "true",
    },
];
