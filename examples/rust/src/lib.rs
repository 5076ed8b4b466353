//! `MyMemory`: a small in-memory store written against the tinymemory
//! contract, to show what a driver of one's own looks like and that the
//! suite from crates.io passes it (docs/validate-rust-driver.md).
//!
//! Recall scores an entry by the share of the query's distinct words it
//! contains (the contract's word rules, case-folded) and returns the best
//! first, equal scores in key order.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use async_trait::async_trait;
use tinymemory_api::{
    is_newer_timestamp, now_rfc3339, text, validate_key, MemoryCategory, MemoryEntry, MemoryError,
    MemoryProvider, MemoryTaint, Namespace, NamespaceSummary, RecallOptions,
};

/// One empty store per value; entries keyed by (namespace, key), so the
/// map iterates in the order `list` and `namespaces` answer in.
#[derive(Debug, Default)]
pub struct MyMemory {
    entries: Mutex<BTreeMap<(String, String), MemoryEntry>>,
    next_id: AtomicU64,
}

impl MyMemory {
    fn entries(&self) -> std::sync::MutexGuard<'_, BTreeMap<(String, String), MemoryEntry>> {
        // Every change is one map call: a panic elsewhere leaves no half-written state.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The distinct words of `text`, case-folded.
fn words(text: &str) -> BTreeSet<String> {
    text::words(text).map(str::to_lowercase).collect()
}

/// The share of the query's words found in `content`, or `None` when none is.
fn score(query: &BTreeSet<String>, content: &str) -> Option<f64> {
    let content = words(content);
    let found = query.iter().filter(|w| content.contains(*w)).count();
    (found > 0).then(|| found as f64 / query.len() as f64)
}

#[async_trait]
impl MemoryProvider for MyMemory {
    fn driver_id(&self) -> &str {
        "my-memory"
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
            id: format!("my-{}", self.next_id.fetch_add(1, Ordering::Relaxed)),
            key: key.to_owned(),
            content: content.to_owned(),
            namespace: Some(namespace.to_owned()),
            category,
            timestamp: now_rfc3339(),
            session_id: session_id.map(str::to_owned),
            score: None,
            taint,
        };
        self.entries()
            .insert((namespace.to_owned(), key.to_owned()), entry);
        Ok(())
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        Ok(self
            .entries()
            .get(&(namespace.to_owned(), key.to_owned()))
            .cloned())
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        Ok(self
            .entries()
            .remove(&(namespace.to_owned(), key.to_owned()))
            .is_some())
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        if let Some(namespace) = namespace {
            Namespace::parse(namespace)?;
        }
        Ok(self
            .entries()
            .values()
            .filter(|e| namespace.is_none_or(|n| e.namespace.as_deref() == Some(n)))
            .filter(|e| category.is_none_or(|c| *c == e.category))
            .filter(|e| session_id.is_none_or(|s| e.session_id.as_deref() == Some(s)))
            .cloned()
            .collect())
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let mut out: Vec<NamespaceSummary> = Vec::new();
        for ((namespace, _), entry) in self.entries().iter() {
            match out.last_mut() {
                Some(last) if last.namespace == *namespace => {
                    last.count += 1;
                    if is_newer_timestamp(&entry.timestamp, last.last_updated.as_deref()) {
                        last.last_updated = Some(entry.timestamp.clone());
                    }
                }
                _ => out.push(NamespaceSummary {
                    namespace: namespace.clone(),
                    count: 1,
                    last_updated: Some(entry.timestamp.clone()),
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
        let query = words(query);
        if limit == 0 || query.is_empty() {
            return Ok(Vec::new());
        }
        let mut hits: Vec<MemoryEntry> = self
            .entries()
            .values()
            .filter(|e| e.namespace.as_deref() == Some(namespace))
            .filter(|e| opts.category.as_ref().is_none_or(|c| *c == e.category))
            .filter(|e| {
                opts.session_id
                    .as_deref()
                    .is_none_or(|s| e.session_id.as_deref() == Some(s))
            })
            .filter_map(|e| {
                let score = score(&query, &e.content)?;
                opts.admits(Some(score)).then(|| MemoryEntry {
                    score: Some(score),
                    ..e.clone()
                })
            })
            .collect();
        // A stable sort of entries in key order: equal scores stay in key order.
        hits.sort_by(|a, b| {
            b.score
                .partial_cmp(&a.score)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        hits.truncate(limit);
        Ok(hits)
    }
}
