//! The model the differential check compares drivers with: the contract
//! itself, written as plainly as it can be, and no driver of the
//! workspace. The suite judges every driver, the reference drivers
//! included, so its oracle is none of them.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use async_trait::async_trait;
use tinymemory_api::{
    now_rfc3339, validate_key, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider,
    MemoryTaint, Namespace, NamespaceSummary, RecallOptions,
};

/// The contract as a store: entries keyed by `(namespace, key)`, so that
/// iteration is `list` order (namespace, then key).
///
/// - every method validates its namespace ([`Namespace::parse`]) and keys
///   ([`validate_key`]) with the contract's own rules, before anything else;
/// - `store` upserts (sentence 1), `forget` says whether there was an entry
///   (sentence 10), `namespaces` counts each non-empty namespace once
///   (sentence 8), with the newest timestamp as `last_updated`;
/// - `recall` searches the one namespace asked, `global` for `None`
///   (sentence 2), keeps the entries passing the category and session
///   filters that share a word with the query ([`tinymemory_api::text::words`],
///   compared lowercased), each with `namespace: Some(..)` (sentence 3) and
///   the score "distinct query words present / distinct query words" (so
///   finite and higher-is-better, sentence 4), best first then by key, at
///   most `limit` (sentence 5), none for a query without words
///   (sentence 6), those scoring below `min_score` dropped (sentence 7).
///
/// The check compares drivers with the model by what the contract fixes,
/// never by score values (`docs/properties.md`).
#[derive(Debug, Default)]
pub(crate) struct SpecModel {
    entries: Mutex<BTreeMap<(String, String), MemoryEntry>>,
}

impl SpecModel {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, BTreeMap<(String, String), MemoryEntry>> {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The lowercased distinct words of `text`.
fn words(text: &str) -> BTreeSet<String> {
    tinymemory_api::text::words(text)
        .map(str::to_lowercase)
        .collect()
}

fn passes(e: &MemoryEntry, category: Option<&MemoryCategory>, session: Option<&str>) -> bool {
    category.is_none_or(|c| *c == e.category)
        && session.is_none_or(|s| e.session_id.as_deref() == Some(s))
}

#[async_trait]
impl MemoryProvider for SpecModel {
    fn driver_id(&self) -> &str {
        "spec-model"
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
            id: format!("{namespace}\u{0}{key}"),
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
        if let Some(ns) = namespace {
            Namespace::parse(ns)?;
        }
        Ok(self
            .entries()
            .iter()
            .filter(|((ns, _), e)| {
                namespace.is_none_or(|want| want == ns) && passes(e, category, session_id)
            })
            .map(|(_, e)| e.clone())
            .collect())
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let mut summaries: BTreeMap<String, NamespaceSummary> = BTreeMap::new();
        for ((ns, _), e) in self.entries().iter() {
            let s = summaries
                .entry(ns.clone())
                .or_insert_with(|| NamespaceSummary {
                    namespace: ns.clone(),
                    count: 0,
                    last_updated: None,
                });
            s.count += 1;
            if tinymemory_api::is_newer_timestamp(&e.timestamp, s.last_updated.as_deref()) {
                s.last_updated = Some(e.timestamp.clone());
            }
        }
        Ok(summaries.into_values().collect())
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
        let asked = words(query);
        if asked.is_empty() {
            return Ok(Vec::new());
        }
        let mut hits: Vec<(f64, MemoryEntry)> = Vec::new();
        for ((ns, _), e) in self.entries().iter() {
            if ns != namespace || !passes(e, opts.category.as_ref(), opts.session_id.as_deref()) {
                continue;
            }
            let present = words(&e.content);
            let shared = asked.iter().filter(|w| present.contains(*w)).count();
            #[expect(clippy::cast_precision_loss, reason = "word counts are small")]
            let score = shared as f64 / asked.len() as f64;
            if shared > 0 && opts.admits(Some(score)) {
                hits.push((
                    score,
                    MemoryEntry {
                        score: Some(score),
                        ..e.clone()
                    },
                ));
            }
        }
        // Stable: equal scores keep key order.
        hits.sort_by(|a, b| b.0.total_cmp(&a.0));
        Ok(hits.into_iter().take(limit).map(|(_, e)| e).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn put(m: &SpecModel, ns: &str, key: &str, content: &str) {
        m.store(
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
    async fn recall_is_the_entries_sharing_a_word_best_first_then_by_key() {
        let m = SpecModel::new();
        put(&m, "global", "b", "Comet river").await;
        put(&m, "global", "a", "comet RIVER stone").await;
        put(&m, "global", "c", "river").await;
        put(&m, "global", "d", "lantern").await;
        put(&m, "learning:x", "e", "comet river").await;
        let hits = m
            .recall("comet river", 10, &RecallOptions::default())
            .await
            .unwrap();
        let got: Vec<(&str, Option<f64>)> =
            hits.iter().map(|h| (h.key.as_str(), h.score)).collect();
        assert_eq!(got, [("a", Some(1.0)), ("b", Some(1.0)), ("c", Some(0.5))]);
        assert!(m
            .recall("* (", 10, &RecallOptions::default())
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            m.recall("comet", 1, &RecallOptions::default())
                .await
                .unwrap()
                .len(),
            1
        );
        let counts: Vec<(String, u64)> = m
            .namespaces()
            .await
            .unwrap()
            .into_iter()
            .map(|s| (s.namespace, s.count))
            .collect();
        assert_eq!(
            counts,
            [("global".to_owned(), 4), ("learning:x".to_owned(), 1)]
        );
        assert!(m.forget("global", "a").await.unwrap());
        assert!(!m.forget("global", "a").await.unwrap());
        assert!(m.get("bad name", "k").await.is_err());
    }
}
