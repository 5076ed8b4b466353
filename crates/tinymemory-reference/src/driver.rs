//! The reference driver itself.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use async_trait::async_trait;
use tinymemory_api::batch::validate_batch;
use tinymemory_api::portability::{
    validate_record, ExportCursor, ExportPage, ImportFailure, ImportOutcome, KeysetCursor,
    MemoryRecord,
};
use tinymemory_api::{
    now_rfc3339, validate_key, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider,
    MemoryTaint, Namespace, NamespaceSummary, NewEntry, RecallOptions,
};

use crate::scoring::score;

/// The in-memory reference [`MemoryProvider`]. Cheap to create; each value
/// is its own empty store. Nothing survives a drop.
#[derive(Debug, Default)]
pub struct ReferenceDriver {
    /// Keyed by `(namespace, key)`, so iteration is in list order.
    entries: Mutex<BTreeMap<(String, String), MemoryEntry>>,
    next_id: AtomicU64,
}

impl ReferenceDriver {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The entries of `namespace`, in key order: one range of the map,
    /// since keys sort by namespace first.
    fn in_namespace<'a>(
        map: &'a BTreeMap<(String, String), MemoryEntry>,
        namespace: &'a str,
    ) -> impl Iterator<Item = &'a MemoryEntry> + 'a {
        map.range((namespace.to_owned(), String::new())..)
            .take_while(move |((ns, _), _)| ns == namespace)
            .map(|(_, e)| e)
    }

    fn next_id(&self) -> String {
        format!("ref-{}", self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<(String, String), MemoryEntry>> {
        // A panic while holding the lock cannot leave the map half-written
        // (every mutation is one map call), so a poisoned lock is still sound.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[async_trait]
impl MemoryProvider for ReferenceDriver {
    fn driver_id(&self) -> &str {
        "reference"
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
        Namespace::parse(namespace)?;
        validate_key(key)?;
        let entry = MemoryEntry {
            id: self.next_id(),
            key: key.to_owned(),
            content: content.to_owned(),
            namespace: Some(namespace.to_owned()),
            category,
            timestamp: now_rfc3339(),
            session_id: session_id.map(str::to_owned),
            score: None,
            taint,
        };
        self.lock()
            .insert((namespace.to_owned(), key.to_owned()), entry);
        Ok(())
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        Ok(self
            .lock()
            .get(&(namespace.to_owned(), key.to_owned()))
            .cloned())
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        Ok(self
            .lock()
            .remove(&(namespace.to_owned(), key.to_owned()))
            .is_some())
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        if let Some(ns) = namespace {
            Namespace::parse(ns)?;
        }
        let map = self.lock();
        let entries: Box<dyn Iterator<Item = &MemoryEntry>> = match namespace {
            Some(ns) => Box::new(Self::in_namespace(&map, ns)),
            None => Box::new(map.values()),
        };
        Ok(entries
            .filter(|e| category.is_none_or(|c| *c == e.category))
            .filter(|e| session_id.is_none_or(|s| e.session_id.as_deref() == Some(s)))
            .cloned()
            .collect())
    }

    /// All-or-nothing: validated first, then inserted under one lock, so
    /// no reader sees part of the batch.
    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        validate_batch(entries)?;
        let timestamp = now_rfc3339();
        let mut map = self.lock();
        for e in entries {
            let entry = MemoryEntry {
                id: self.next_id(),
                key: e.key.clone(),
                content: e.content.clone(),
                namespace: Some(e.namespace.clone()),
                category: e.category.clone(),
                timestamp: timestamp.clone(),
                session_id: e.session_id.clone(),
                score: None,
                taint: e.taint,
            };
            map.insert((e.namespace.clone(), e.key.clone()), entry);
        }
        Ok(())
    }

    /// One range of the map after the cursor's position ([`KeysetCursor`]).
    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        let position = cursor.map_or_else(|| Ok(KeysetCursor::start()), KeysetCursor::decode)?;
        let map = self.lock();
        let mut after: Box<dyn Iterator<Item = &MemoryEntry>> = match &position.after {
            None => Box::new(map.values()),
            Some(at) => Box::new(
                map.range((
                    std::ops::Bound::Excluded(at.clone()),
                    std::ops::Bound::Unbounded,
                ))
                .map(|(_, e)| e),
            ),
        };
        let records: Vec<MemoryRecord> = after
            .by_ref()
            .take(limit)
            .filter_map(|e| MemoryRecord::from_entry(e.clone()))
            .collect();
        let next_cursor = match (after.next(), records.last()) {
            (None, _) => None,
            (Some(_), Some(last)) => Some(KeysetCursor::after(&last.namespace, &last.key).encode()),
            (Some(_), None) => Some(position.encode()),
        };
        Ok(ExportPage {
            records,
            next_cursor,
        })
    }

    /// Valid records are inserted under one lock, each keeping its
    /// timestamp; invalid ones are reported.
    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        let mut outcome = ImportOutcome::default();
        let mut map = self.lock();
        for (index, record) in records.iter().enumerate() {
            if let Err(error) = validate_record(record) {
                outcome
                    .failures
                    .push(ImportFailure::new(index, record, error));
                continue;
            }
            let entry = record.clone().into_entry(self.next_id());
            map.insert((record.namespace.clone(), record.key.clone()), entry);
            outcome.imported += 1;
        }
        Ok(outcome)
    }

    /// One walk of the map. The running newest timestamp of each
    /// namespace is kept with its parsed instant, so each entry's
    /// timestamp is parsed at most once, and not at all when it is byte
    /// for byte the running newest (every entry of one `store_many`):
    /// the same result as [`tinymemory_api::is_newer_timestamp`] at every
    /// step, which parses both sides.
    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let mut out: Vec<NamespaceSummary> = Vec::new();
        // The parsed instant of `out.last()`'s `last_updated`.
        let mut newest = None;
        for ((ns, _), e) in self.lock().iter() {
            match out.last_mut() {
                Some(last) if last.namespace == *ns => {
                    last.count += 1;
                    let current = last.last_updated.as_deref().unwrap_or_default();
                    if e.timestamp == current {
                        continue;
                    }
                    let instant = tinymemory_api::parse_rfc3339(&e.timestamp);
                    if instant
                        .cmp(&newest)
                        .then_with(|| e.timestamp.as_bytes().cmp(current.as_bytes()))
                        .is_gt()
                    {
                        last.last_updated = Some(e.timestamp.clone());
                        newest = instant;
                    }
                }
                _ => {
                    newest = tinymemory_api::parse_rfc3339(&e.timestamp);
                    out.push(NamespaceSummary {
                        namespace: ns.clone(),
                        count: 1,
                        last_updated: Some(e.timestamp.clone()),
                    });
                }
            }
        }
        Ok(out)
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let namespace = opts.effective_namespace();
        Namespace::parse(namespace)?;
        opts.validate()?;
        if limit == 0 {
            return Ok(Vec::new());
        }
        let map = self.lock();
        let mut hits: Vec<MemoryEntry> = Self::in_namespace(&map, namespace)
            .filter(|e| opts.category.as_ref().is_none_or(|c| *c == e.category))
            .filter(|e| {
                opts.session_id
                    .as_deref()
                    .is_none_or(|s| e.session_id.as_deref() == Some(s))
            })
            .filter_map(|e| {
                let s = score(query, &e.content)?;
                opts.admits(Some(s)).then(|| MemoryEntry {
                    score: Some(s),
                    ..e.clone()
                })
            })
            .collect();
        // Entries come out in key order, and the sort is stable, so equal
        // scores stay ordered by key.
        hits.sort_by(|a, b| {
            b.score
                .partial_cmp(&a.score)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        hits.truncate(limit);
        Ok(hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn put(d: &ReferenceDriver, ns: &str, key: &str, content: &str) {
        d.store(
            ns,
            key,
            content,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn recall_orders_by_score_then_key() {
        let d = ReferenceDriver::new();
        put(&d, "global", "b", "rust async").await;
        put(&d, "global", "a", "rust async").await;
        put(&d, "global", "c", "rust").await;
        put(&d, "learning:x", "z", "rust async").await;
        let hits = d
            .recall("rust async", 10, &RecallOptions::default())
            .await
            .unwrap();
        let got: Vec<_> = hits.iter().map(|h| (h.key.as_str(), h.score)).collect();
        assert_eq!(got, [("a", Some(1.0)), ("b", Some(1.0)), ("c", Some(0.5))]);
        assert!(hits
            .iter()
            .all(|h| h.namespace.as_deref() == Some("global")));
    }

    #[tokio::test]
    async fn namespaces_last_updated_is_the_newest_instant_whatever_the_order() {
        // Keys sort a..h, so the walk meets the timestamps in this order:
        // equal bytes after the newest, an older instant spelt otherwise,
        // one instant spelt twice (the tie goes bytewise: `t` > `T`).
        let spelt = [
            ("learning:a", "a", "2020-01-01T00:00:00.000000Z"),
            ("learning:a", "b", "2020-01-01T00:00:00.000000Z"),
            ("learning:a", "c", "2020-01-01T01:00:00+02:00"),
            ("learning:a", "d", "2020-01-01T00:00:00.500000Z"),
            ("learning:a", "e", "2020-01-01t00:00:00.5z"),
            ("learning:a", "f", "2020-01-01T00:00:00.500000Z"),
            ("learning:a", "g", "2019-12-31T23:59:59Z"),
            ("learning:b", "a", "2021-06-01T12:00:00+00:00"),
            ("learning:b", "b", "2021-06-01T12:00:00.000000Z"),
            ("learning:b", "c", "2021-06-01T11:59:59.999999Z"),
            ("learning:b", "d", "2021-06-01T12:00:00+00:00"),
        ];
        let records: Vec<MemoryRecord> = spelt
            .iter()
            .map(|&(ns, key, t)| MemoryRecord {
                namespace: ns.to_owned(),
                key: key.to_owned(),
                content: "x".to_owned(),
                category: MemoryCategory::Core,
                session_id: None,
                taint: MemoryTaint::Internal,
                timestamp: t.to_owned(),
            })
            .collect();
        let d = ReferenceDriver::new();
        assert_eq!(d.import(&records).await.unwrap().imported, 11);
        let got: Vec<_> = d
            .namespaces()
            .await
            .unwrap()
            .into_iter()
            .map(|s| (s.namespace, s.count, s.last_updated))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "learning:a".to_owned(),
                    7,
                    Some("2020-01-01t00:00:00.5z".to_owned())
                ),
                (
                    "learning:b".to_owned(),
                    4,
                    Some("2021-06-01T12:00:00.000000Z".to_owned())
                ),
            ]
        );
    }

    #[tokio::test]
    async fn namespaces_counts_each_once() {
        let d = ReferenceDriver::new();
        put(&d, "global", "a", "x").await;
        put(&d, "global", "a", "y").await;
        put(&d, "global", "b", "x").await;
        put(&d, "learning:x", "a", "x").await;
        let got: Vec<_> = d
            .namespaces()
            .await
            .unwrap()
            .into_iter()
            .map(|s| (s.namespace, s.count))
            .collect();
        assert_eq!(
            got,
            [("global".to_owned(), 2), ("learning:x".to_owned(), 1)]
        );
    }
}
