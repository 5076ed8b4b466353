//! The reference driver itself.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use async_trait::async_trait;
use tinymemory_api::{
    now_rfc3339, validate_key, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider,
    MemoryTaint, Namespace, NamespaceSummary, RecallOptions,
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
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let entry = MemoryEntry {
            id: format!("ref-{id}"),
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
        Ok(self
            .lock()
            .get(&(namespace.to_owned(), key.to_owned()))
            .cloned())
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        Namespace::parse(namespace)?;
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

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let mut out: Vec<NamespaceSummary> = Vec::new();
        for ((ns, _), e) in self.lock().iter() {
            match out.last_mut() {
                Some(last) if last.namespace == *ns => {
                    last.count += 1;
                    if last.last_updated.as_deref() < Some(e.timestamp.as_str()) {
                        last.last_updated = Some(e.timestamp.clone());
                    }
                }
                _ => out.push(NamespaceSummary {
                    namespace: ns.clone(),
                    count: 1,
                    last_updated: Some(e.timestamp.clone()),
                }),
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
