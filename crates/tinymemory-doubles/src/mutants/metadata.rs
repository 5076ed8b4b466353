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
    /// A store (or a store_many entry) whose content equals the stored
    /// entry's keeps that entry's category, session and taint, as a write
    /// skipped when the content's hash is unchanged does
    /// (`store.upsert_replaces_metadata`). A changed content replaces them
    /// as it should.
    KeepsMetadataOfSameContent,
    /// The category filters of `list` and `recall` compare the text forms
    /// case-insensitively, so a filter by `custom:Work` keeps `custom:work`
    /// too (`list.filters`). Storing keeps the category as given.
    CaseFoldsCategoryFilter,
    /// A session of `""` is stored as no session, and a `list` or `recall`
    /// filter by `""` is no filter, as a store writing `session or None`
    /// does (`list.filters`). Imports are forwarded.
    EmptySessionAsNone,
    /// `export_page` gives a record whose session is `""` no session, as
    /// a serialiser writing `session or null` does (`portability.round_trip`).
    /// Everything else, the stored entries included, is the wrapped
    /// driver's.
    ExportsEmptySessionAsNone,
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

/// `session`, or `None` for the empty session
/// ([`MetadataFaultKind::EmptySessionAsNone`]).
fn non_empty(session: Option<&str>) -> Option<&str> {
    session.filter(|s| !s.is_empty())
}

/// Whether `category` is `wanted` up to case
/// ([`MetadataFaultKind::CaseFoldsCategoryFilter`]).
fn same_folded(category: &MemoryCategory, wanted: &MemoryCategory) -> bool {
    category.as_text().to_lowercase() == wanted.as_text().to_lowercase()
}

fn epoch(mut entries: Vec<MemoryEntry>) -> Vec<MemoryEntry> {
    for e in &mut entries {
        EPOCH.clone_into(&mut e.timestamp);
    }
    entries
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; the fault lives where its kind says.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for MetadataFault<P> {
        forward(inner): driver_id, interface;

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
                MetadataFaultKind::KeepsMetadataOfSameContent => {
                    match self.inner.get(namespace, key).await? {
                        Some(old) if old.content == content => {
                            self.inner
                                .store(
                                    namespace,
                                    key,
                                    content,
                                    old.category,
                                    old.session_id.as_deref(),
                                    old.taint,
                                )
                                .await
                        }
                        _ => {
                            self.inner
                                .store(namespace, key, content, category, session_id, taint)
                                .await
                        }
                    }
                }
                MetadataFaultKind::EmptySessionAsNone => {
                    self.inner
                        .store(namespace, key, content, category, non_empty(session_id), taint)
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
                (MetadataFaultKind::CaseFoldsCategoryFilter, Some(c)) => {
                    let mut all = self.inner.list(namespace, None, session_id).await?;
                    all.retain(|e| same_folded(&e.category, c));
                    Ok(all)
                }
                (MetadataFaultKind::EmptySessionAsNone, _) => {
                    self.inner
                        .list(namespace, category, non_empty(session_id))
                        .await
                }
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
                MetadataFaultKind::CaseFoldsCategoryFilter if opts.category.is_some() => {
                    let any_category = RecallOptions {
                        category: None,
                        ..opts.clone()
                    };
                    let mut hits = self.inner.recall(query, usize::MAX, &any_category).await?;
                    hits.retain(|h| opts.category.as_ref().is_some_and(|c| same_folded(&h.category, c)));
                    hits.truncate(limit);
                    Ok(hits)
                }
                MetadataFaultKind::EmptySessionAsNone => {
                    let folded = RecallOptions {
                        session_id: non_empty(opts.session_id.as_deref()).map(str::to_owned),
                        ..opts.clone()
                    };
                    self.inner.recall(query, limit, &folded).await
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
        /// [`MetadataFaultKind::JoinedIds`],
        /// [`MetadataFaultKind::KeepsMetadataOfSameContent`],
        /// [`MetadataFaultKind::EmptySessionAsNone`]), so a bulk store breaks
        /// the rule too; forwarded for the others.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            match self.kind {
                MetadataFaultKind::MergesMetadataOnUpsert
                | MetadataFaultKind::JoinedIds
                | MetadataFaultKind::KeepsMetadataOfSameContent
                | MetadataFaultKind::EmptySessionAsNone => {
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
                MetadataFaultKind::ExportsEmptySessionAsNone => {
                    let mut page = self.inner.export_page(cursor, limit).await?;
                    for r in &mut page.records {
                        r.session_id = r.session_id.take().filter(|s| !s.is_empty());
                    }
                    Ok(page)
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

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "merges-metadata-on-upsert",
        rule: "contract 1: an upsert replaces category, session and taint; metadata is never merged",
        check: "store.upsert_replaces_metadata",
        also_caught_by: &["store.bulk", "portability.taint_kept", "portability.store_after_import", "model.differential"],
        description: "a store without a session keeps the session of the entry it replaces",
        wrap: MetadataFault::new(MetadataFaultKind::MergesMetadataOnUpsert),
        profile: Lexical,
        witness: |d| {
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            d.store(
                "global",
                "k",
                "a",
                MemoryCategory::Core,
                Some("s1"),
                MemoryTaint::Internal,
            )
            .await?;
            d.store(
                "global",
                "k",
                "b",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await?;
            Ok(format!(
                "{:?}",
                d.get("global", "k").await?.map(|e| e.session_id)
            ))
        },
        reference: "Some(None)",
        mutant: r#"Some(Some("s1"))"#,
    },
    entry! {
        name: "epoch-timestamps",
        rule: "contract: a timestamp is the RFC 3339 time of the store",
        check: "store.timestamps",
        also_caught_by: &["store.bulk", "namespaces.last_updated", "portability.taint_kept", "portability.import_hostile", "portability.import_failures", "portability.store_after_import"],
        description: "every timestamp read back, last_updated included, is 1970-01-01T00:00:00Z",
        wrap: MetadataFault::new(MetadataFaultKind::EpochTimestamps),
        profile: Lexical,
        witness: |d| {
            use super::witness::{absent, put};
            put(d, "global", "k", "a").await?;
            let t = d.get("global", "k").await?.ok_or_else(|| absent("global/k"))?.timestamp;
            Ok(format!("{}", t.starts_with("1970-")))
        },
        reference: "false",
        mutant: "true",
    },
    entry! {
        name: "oldest-last-updated",
        rule: "contract 8: last_updated is the newest timestamp of the namespace's entries",
        check: "namespaces.last_updated",
        also_caught_by: &[],
        description: "namespaces() gives the oldest timestamp as last_updated",
        wrap: MetadataFault::new(MetadataFaultKind::OldestLastUpdated),
        profile: Lexical,
        witness: |d| {
            use super::witness::{absent, put};
            put(d, "global", "a", "x").await?;
            tokio::time::sleep(std::time::Duration::from_millis(3)).await;
            put(d, "global", "b", "y").await?;
            let newest = d.get("global", "b").await?.ok_or_else(|| absent("global/b"))?.timestamp;
            let last = d.namespaces().await?.into_iter().next().and_then(|s| s.last_updated);
            Ok(format!("{}", last == Some(newest)))
        },
        reference: "true",
        mutant: "false",
    },
    entry! {
        name: "bytewise-last-updated",
        rule: "contract 8: last_updated is the newest timestamp by instant, whatever its spelling",
        check: "namespaces.last_updated",
        also_caught_by: &[],
        description: "namespaces() gives the bytewise greatest timestamp as last_updated (SQL MAX over the text)",
        wrap: MetadataFault::new(MetadataFaultKind::BytewiseLastUpdated),
        profile: Lexical,
        witness: |d| {
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            use tinymemory_api::portability::MemoryRecord;
            let spelt = |key: &str, timestamp: &str| MemoryRecord {
                namespace: "global".into(),
                key: key.into(),
                content: "x".into(),
                category: MemoryCategory::Core,
                session_id: None,
                taint: MemoryTaint::Internal,
                timestamp: timestamp.into(),
            };
            d.import(&[
                spelt("utc", "2020-01-01T00:00:00Z"),
                spelt("half", "2020-01-01T00:00:00.5Z"),
            ])
            .await?;
            let last = d.namespaces().await?.into_iter().next().and_then(|s| s.last_updated);
            Ok(format!("{last:?}"))
        },
        reference: r#"Some("2020-01-01T00:00:00.5Z")"#,
        mutant: r#"Some("2020-01-01T00:00:00Z")"#,
    },
    entry! {
        name: "joined-ids",
        rule: "contract 1: an entry is identified by (namespace, key), never by the two joined",
        check: "store.distinct_identities",
        also_caught_by: &[],
        description: "entries are identified by namespace + \"/\" + key, so (learning:a/b, c) and (learning:a, b/c) are one",
        wrap: MetadataFault::new(MetadataFaultKind::JoinedIds),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            put(d, "learning:a/b", "c", "first").await?;
            put(d, "learning:a", "b/c", "second").await?;
            Ok(format!(
                "{:?}",
                d.get("learning:a/b", "c").await?.map(|e| e.content)
            ))
        },
        reference: r#"Some("first")"#,
        mutant: r#"Some("second")"#,
    },
    entry! {
        name: "inverted-list-category",
        rule: "contract: list keeps exactly the entries of the category asked",
        check: "list.filters",
        also_caught_by: &["model.differential"],
        description: "list with a category keeps every other category",
        wrap: MetadataFault::new(MetadataFaultKind::InvertedListCategory),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put_as};
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            put_as(
                d,
                "global",
                "core",
                MemoryCategory::Core,
                MemoryTaint::Internal,
            )
            .await?;
            put_as(
                d,
                "global",
                "daily",
                MemoryCategory::Daily,
                MemoryTaint::Internal,
            )
            .await?;
            Ok(format!(
                "{:?}",
                keys(
                    &d.list(None, Some(&MemoryCategory::Core), None)
                        .await?
                )
            ))
        },
        reference: r#"["core"]"#,
        mutant: r#"["daily"]"#,
    },
    entry! {
        name: "inverted-recall-session",
        rule: "contract: recall keeps exactly the entries of the session asked",
        check: "recall.filters",
        also_caught_by: &["recall.limit", "store.upsert_replaces_metadata", "model.differential"],
        description: "recall with a session keeps every other session",
        wrap: MetadataFault::new(MetadataFaultKind::InvertedRecallSession),
        profile: Lexical,
        witness: |d| {
            use super::witness::keys;
            use tinymemory_api::{MemoryCategory, MemoryTaint, RecallOptions};
            let any = RecallOptions::default;
            d.store(
                "global",
                "s1",
                "lantern",
                MemoryCategory::Core,
                Some("s1"),
                MemoryTaint::Internal,
            )
            .await?;
            d.store(
                "global",
                "s2",
                "lantern",
                MemoryCategory::Core,
                Some("s2"),
                MemoryTaint::Internal,
            )
            .await?;
            let opts = RecallOptions {
                session_id: Some("s1".into()),
                ..any()
            };
            Ok(format!("{:?}", keys(&d.recall("lantern", 10, &opts).await?)))
        },
        reference: r#"["s1"]"#,
        mutant: r#"["s2"]"#,
    },
    entry! {
        name: "limit-as-i64",
        rule: "contract 5: any limit up to 2^64 - 1 is valid",
        check: "recall.huge_limit",
        also_caught_by: &[],
        description: "a limit above i64::MAX is a backend error, as an SQL LIMIT binding would be",
        wrap: MetadataFault::new(MetadataFaultKind::LimitAsI64),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "lantern").await?;
            Ok(format!("{}", d.recall("lantern", usize::MAX, &any()).await.is_ok()))
        },
        reference: "true",
        mutant: "false",
    },
    entry! {
        name: "same-content-keeps-metadata",
        rule: "contract 1: an upsert replaces category, session and taint, whether or not the content changed",
        check: "store.upsert_replaces_metadata",
        also_caught_by: &["model.differential"],
        description: "a store whose content equals the stored entry's keeps its category, session and taint",
        wrap: MetadataFault::new(MetadataFaultKind::KeepsMetadataOfSameContent),
        profile: Lexical,
        witness: |d| {
            use super::witness::absent;
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            d.store("global", "k", "same", MemoryCategory::Core, Some("s1"), MemoryTaint::Internal)
                .await?;
            d.store("global", "k", "same", MemoryCategory::Daily, None, MemoryTaint::ExternalSync)
                .await?;
            let e = d.get("global", "k").await?.ok_or_else(|| absent("global/k"))?;
            Ok(format!("{} {:?} {}", e.category, e.session_id, e.taint))
        },
        reference: "daily None external_sync",
        mutant: r#"core Some("s1") internal"#,
    },
    entry! {
        name: "case-folds-category-filter",
        rule: "contract: list and recall keep exactly the entries of the category asked, compared exactly",
        check: "list.filters",
        also_caught_by: &["recall.filters"],
        description: "the category filters compare categories case-insensitively (custom:Work keeps custom:work)",
        wrap: MetadataFault::new(MetadataFaultKind::CaseFoldsCategoryFilter),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put_as};
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            let work = |c: &str| MemoryCategory::Custom(c.into());
            put_as(d, "global", "lower", work("work"), MemoryTaint::Internal).await?;
            put_as(d, "global", "upper", work("Work"), MemoryTaint::Internal).await?;
            Ok(format!("{:?}", keys(&d.list(None, Some(&work("Work")), None).await?)))
        },
        reference: r#"["upper"]"#,
        mutant: r#"["lower", "upper"]"#,
    },
    entry! {
        name: "empty-session-as-none",
        rule: "contract 1: a session is stored as given; the empty session is a session, not none",
        check: "list.filters",
        also_caught_by: &["recall.filters"],
        description: "a session of \"\" is stored as no session, and a filter by \"\" is no filter",
        wrap: MetadataFault::new(MetadataFaultKind::EmptySessionAsNone),
        profile: Lexical,
        witness: |d| {
            use super::witness::absent;
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            d.store("global", "k", "x", MemoryCategory::Core, Some(""), MemoryTaint::Internal)
                .await?;
            let e = d.get("global", "k").await?.ok_or_else(|| absent("global/k"))?;
            Ok(format!("{:?}", e.session_id))
        },
        reference: r#"Some("")"#,
        mutant: "None",
    },
    entry! {
        name: "exports-empty-session-as-none",
        rule: "portability: an export carries every field as stored; the empty session is a session, not none",
        check: "portability.round_trip",
        also_caught_by: &["portability.pages_partition"],
        description: "export_page gives a record whose session is \"\" no session",
        wrap: MetadataFault::new(MetadataFaultKind::ExportsEmptySessionAsNone),
        profile: Lexical,
        witness: |d| {
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            d.store("global", "k", "x", MemoryCategory::Core, Some(""), MemoryTaint::Internal)
                .await?;
            let page = d.export_page(None, 10).await?;
            Ok(format!("{:?}", page.records.iter().map(|r| r.session_id.clone()).collect::<Vec<_>>()))
        },
        reference: r#"[Some("")]"#,
        mutant: "[None]",
    },
];
