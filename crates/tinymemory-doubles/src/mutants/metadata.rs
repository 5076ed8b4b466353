//! Mutants of what a store keeps besides content: metadata, timestamps,
//! `last_updated`, identities, filters and limits. Each breaks one rule
//! that real adapters (vector stores especially) were seen to break.

use std::collections::HashMap;
use std::sync::Mutex;

use tinymemory_api::portability::{
    validate_record, ExportCursor, ExportPage, ImportFailure, ImportOutcome, MemoryRecord,
};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

use crate::import_each::absorb;

/// The one fault a [`MetadataFault`] injects; every other method and
/// every other part of a call is the wrapped driver's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MetadataFaultKind {
    /// `namespaces()` gives each namespace the *oldest* timestamp of its
    /// entries as `last_updated` (`namespaces.last_updated`).
    OldestLastUpdated,
    /// `namespaces()` gives each namespace the bytewise greatest timestamp
    /// of its entries as `last_updated`, as SQL's `MAX` over the text does:
    /// right while every timestamp is spelt alike, wrong once an import
    /// brought `…00Z` beside `…00.5Z` (`namespaces.last_updated`).
    BytewiseLastUpdated,
    /// `list` with a category keeps the entries of every *other* category
    /// (`list.filters`).
    InvertedListCategory,
    /// `recall` with a session keeps the entries of every *other* session
    /// (`recall.filters`).
    InvertedRecallSession,
    /// A store without a session keeps the session of the entry it
    /// replaces, as a metadata merge on upsert does
    /// (`store.upsert_replaces_metadata`).
    MergesMetadataOnUpsert,
    /// Every timestamp read back, `last_updated` included, is
    /// `1970-01-01T00:00:00Z` (`store.timestamps`).
    EpochTimestamps,
    /// Entries are identified by `namespace + "/" + key`, so
    /// `(learning:a/b, c)` and `(learning:a, b/c)` are one entry: the later
    /// store replaces the earlier, and `get` of either returns the survivor
    /// (`store.distinct_identities`).
    JoinedIds,
    /// A limit above `i64::MAX` is a backend error, as binding it to an
    /// SQL `LIMIT` would be (`recall.huge_limit`).
    LimitAsI64,
}

/// Wraps a driver and injects one [`MetadataFaultKind`].
#[derive(Debug)]
pub struct MetadataFault<P: ?Sized> {
    kind: MetadataFaultKind,
    /// For [`MetadataFaultKind::JoinedIds`]: joined id to the
    /// `(namespace, key)` stored under it last.
    joined: Mutex<HashMap<String, (String, String)>>,
    inner: P,
}

impl<P> MetadataFault<P> {
    /// Wraps `inner`, injecting `kind`.
    #[must_use]
    pub fn new(kind: MetadataFaultKind, inner: P) -> Self {
        Self {
            kind,
            joined: Mutex::new(HashMap::new()),
            inner,
        }
    }
}

impl<P: ?Sized> MetadataFault<P> {
    /// The fault injected.
    #[must_use]
    pub fn kind(&self) -> MetadataFaultKind {
        self.kind
    }

    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    /// The `(namespace, key)` the joined id of `(namespace, key)` points at.
    fn resolve(&self, namespace: &str, key: &str) -> (String, String) {
        let joined = self
            .joined
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        joined
            .get(&format!("{namespace}/{key}"))
            .cloned()
            .unwrap_or_else(|| (namespace.to_owned(), key.to_owned()))
    }
}

const EPOCH: &str = "1970-01-01T00:00:00Z";

fn epoch(mut entries: Vec<MemoryEntry>) -> Vec<MemoryEntry> {
    for e in &mut entries {
        EPOCH.clone_into(&mut e.timestamp);
    }
    entries
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; the fault lives where its kind says.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for MetadataFault<P> {
        forward(inner): driver_id;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            match self.kind {
                MetadataFaultKind::MergesMetadataOnUpsert if session_id.is_none() => {
                    let old = self
                        .inner
                        .get(namespace, key)
                        .await?
                        .and_then(|e| e.session_id);
                    self.inner
                        .store(namespace, key, content, category, old.as_deref(), taint)
                        .await
                }
                MetadataFaultKind::JoinedIds => {
                    let (ns, k) = self.resolve(namespace, key);
                    if (ns.as_str(), k.as_str()) != (namespace, key) {
                        self.inner.forget(&ns, &k).await?;
                    }
                    self.inner
                        .store(namespace, key, content, category, session_id, taint)
                        .await?;
                    self.joined
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .insert(
                            format!("{namespace}/{key}"),
                            (namespace.to_owned(), key.to_owned()),
                        );
                    Ok(())
                }
                _ => {
                    self.inner
                        .store(namespace, key, content, category, session_id, taint)
                        .await
                }
            }
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            match self.kind {
                MetadataFaultKind::JoinedIds => {
                    self.inner.get(namespace, key).await?;
                    let (ns, k) = self.resolve(namespace, key);
                    self.inner.get(&ns, &k).await
                }
                MetadataFaultKind::EpochTimestamps => Ok(self
                    .inner
                    .get(namespace, key)
                    .await?
                    .map(|e| epoch(vec![e]).remove(0))),
                _ => self.inner.get(namespace, key).await,
            }
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            if self.kind == MetadataFaultKind::JoinedIds {
                self.inner.get(namespace, key).await?;
                let (ns, k) = self.resolve(namespace, key);
                return self.inner.forget(&ns, &k).await;
            }
            self.inner.forget(namespace, key).await
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            match (self.kind, category) {
                (MetadataFaultKind::InvertedListCategory, Some(c)) => {
                    let mut all = self.inner.list(namespace, None, session_id).await?;
                    all.retain(|e| e.category != *c);
                    Ok(all)
                }
                (MetadataFaultKind::EpochTimestamps, _) => Ok(epoch(
                    self.inner.list(namespace, category, session_id).await?,
                )),
                _ => self.inner.list(namespace, category, session_id).await,
            }
        }

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let mut summaries = self.inner.namespaces().await?;
            match self.kind {
                MetadataFaultKind::OldestLastUpdated => {
                    for s in &mut summaries {
                        let entries = self.inner.list(Some(&s.namespace), None, None).await?;
                        s.last_updated = entries.into_iter().map(|e| e.timestamp).min();
                    }
                }
                MetadataFaultKind::BytewiseLastUpdated => {
                    for s in &mut summaries {
                        let entries = self.inner.list(Some(&s.namespace), None, None).await?;
                        s.last_updated = entries.into_iter().map(|e| e.timestamp).max();
                    }
                }
                MetadataFaultKind::EpochTimestamps => {
                    for s in &mut summaries {
                        s.last_updated = Some(EPOCH.to_owned());
                    }
                }
                _ => {}
            }
            Ok(summaries)
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            match self.kind {
                MetadataFaultKind::InvertedRecallSession if opts.session_id.is_some() => {
                    let any_session = RecallOptions {
                        session_id: None,
                        ..opts.clone()
                    };
                    let mut hits = self.inner.recall(query, usize::MAX, &any_session).await?;
                    hits.retain(|h| h.session_id != opts.session_id);
                    hits.truncate(limit);
                    Ok(hits)
                }
                MetadataFaultKind::EpochTimestamps => {
                    Ok(epoch(self.inner.recall(query, limit, opts).await?))
                }
                MetadataFaultKind::LimitAsI64 if i64::try_from(limit).is_err() => {
                    Err(MemoryError::fault(format!(
                        "limit {limit} does not fit the engine's i64 LIMIT"
                    )))
                }
                _ => self.inner.recall(query, limit, opts).await,
            }
        }

        /// Through the mutated `store` for the kinds that change it
        /// ([`MetadataFaultKind::MergesMetadataOnUpsert`],
        /// [`MetadataFaultKind::JoinedIds`]), so a bulk store breaks the rule
        /// too; forwarded for the others.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            match self.kind {
                MetadataFaultKind::MergesMetadataOnUpsert | MetadataFaultKind::JoinedIds => {
                    tinymemory_api::batch::store_each(self, entries).await
                }
                _ => self.inner.store_many(entries).await,
            }
        }

        /// Built on this wrapper's own `list` for
        /// [`MetadataFaultKind::EpochTimestamps`], so exported records carry
        /// the epoch too; forwarded for the others (`list(None, None, None)`,
        /// which the export reads, is the wrapped driver's for every other
        /// kind).
        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            match self.kind {
                MetadataFaultKind::EpochTimestamps => {
                    tinymemory_api::portability::export_from_list(self, cursor, limit).await
                }
                _ => self.inner.export_page(cursor, limit).await,
            }
        }

        /// An import is an upsert, so the kinds that break upserts break it
        /// too, one record at a time: [`MetadataFaultKind::MergesMetadataOnUpsert`]
        /// keeps the replaced entry's session for a record without one, and
        /// [`MetadataFaultKind::JoinedIds`] replaces the entry of the same
        /// joined id. Forwarded for the others: the timestamps are wrong when
        /// read back, not when written.
        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            if !matches!(
                self.kind,
                MetadataFaultKind::MergesMetadataOnUpsert | MetadataFaultKind::JoinedIds
            ) {
                return self.inner.import(records).await;
            }
            let mut outcome = ImportOutcome::default();
            for (index, record) in records.iter().enumerate() {
                if let Err(error) = validate_record(record) {
                    outcome
                        .failures
                        .push(ImportFailure::new(index, record, error));
                    continue;
                }
                let mut record = record.clone();
                if self.kind == MetadataFaultKind::JoinedIds {
                    let (ns, k) = self.resolve(&record.namespace, &record.key);
                    if (ns.as_str(), k.as_str()) != (record.namespace.as_str(), record.key.as_str())
                    {
                        self.inner.forget(&ns, &k).await?;
                    }
                } else if record.session_id.is_none() {
                    record.session_id = self
                        .inner
                        .get(&record.namespace, &record.key)
                        .await?
                        .and_then(|e| e.session_id);
                }
                let one = self.inner.import(std::slice::from_ref(&record)).await?;
                if self.kind == MetadataFaultKind::JoinedIds && one.imported > 0 {
                    self.joined
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .insert(
                            format!("{}/{}", record.namespace, record.key),
                            (record.namespace.clone(), record.key.clone()),
                        );
                }
                absorb(&mut outcome, one, index);
            }
            Ok(outcome)
        }
    }
}
