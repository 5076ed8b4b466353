//! Each check added for the suite's former blind spots fails on a
//! purpose-built broken double (besides the catalogue mutant that names
//! it), with a message naming the rule and the input; and failure messages
//! name the input that failed and the rule broken first.

use crate::support;

use std::sync::Arc;

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};
use tinymemory_conformance::{DriverFactory, FnFactory};
use tinymemory_reference::ReferenceDriver;

/// How a [`Broken`] double departs from the reference driver.
#[derive(Clone, Copy)]
enum Fault {
    /// Reads give an entry without a session the session `session-1`,
    /// as a cache keyed without the session would.
    StaleSessionOnRead,
    /// Every timestamp read back is two days old.
    OldTimestamps,
    /// `last_updated` is always the same fixed instant.
    FixedLastUpdated,
    /// `last_updated` as an SQL driver that keeps canonical timestamps
    /// apart gets it wrong: the bytewise `MAX` over every timestamp, and
    /// when that is not canonically spelt, the newest by instant of the
    /// other spellings only, never comparing it with the canonical ones
    /// (the SQLite driver with a `!` deleted, found by cargo-mutants).
    CanonicalSpellingsSkipped,
    /// `(namespace, key)` is joined with `/` and split again at the last
    /// `/`, so `(learning:a, b/c)` is stored as `(learning:a/b, c)`.
    SplitAtLastSlash,
    /// `list` ignores the session filter.
    ListIgnoresSession,
    /// `recall` ignores the category filter.
    RecallIgnoresCategory,
    /// A limit above `u32::MAX` is refused.
    LimitAboveU32Refused,
    /// A pinned recall searches `global`.
    RecallsGlobal,
    /// `recall` finds entries whose lowercased content holds the lowercased
    /// query as a substring, as `LIKE '%q%'` would.
    SubstringMatch,
    /// Words outside ASCII are never indexed: a recall by one finds
    /// nothing, as an ASCII-only tokenizer does.
    AsciiOnlyWords,
    /// Content is split into words at spaces only, so `scope,` is not
    /// the word `scope`: a first attempt's tokenizer.
    SplitsAtSpacesOnly,
    /// Scores are a distance, lower is nearer (0.25 for the best hit, 0.5
    /// for the next, ...), nearest first, and every other entry of the
    /// namespace follows at distance 8: a vector store's top-k with its
    /// distances.
    DistanceTopK,
}

struct Broken {
    fault: Fault,
    inner: ReferenceDriver,
}

impl Broken {
    fn at(&self, namespace: &str, key: &str) -> (String, String) {
        if !matches!(self.fault, Fault::SplitAtLastSlash) {
            return (namespace.to_owned(), key.to_owned());
        }
        let joined = format!("{namespace}/{key}");
        let (ns, k) = joined.rsplit_once('/').unwrap_or((namespace, key));
        (ns.to_owned(), k.to_owned())
    }

    fn read(&self, mut e: MemoryEntry) -> MemoryEntry {
        match self.fault {
            Fault::StaleSessionOnRead if e.session_id.is_none() => {
                e.session_id = Some("session-1".into());
            }
            Fault::OldTimestamps => {
                let old = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 86_400);
                e.timestamp = humantime::format_rfc3339_micros(old).to_string();
            }
            _ => {}
        }
        e
    }
}

#[async_trait]
impl MemoryProvider for Broken {
    fn driver_id(&self) -> &str {
        "broken"
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
        let (ns, k) = self.at(namespace, key);
        self.inner
            .store(&ns, &k, content, category, session_id, taint)
            .await
    }
    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        let (ns, k) = self.at(namespace, key);
        Ok(self.inner.get(&ns, &k).await?.map(|e| self.read(e)))
    }
    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        let (ns, k) = self.at(namespace, key);
        self.inner.forget(&ns, &k).await
    }
    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let session = match self.fault {
            Fault::ListIgnoresSession => None,
            _ => session_id,
        };
        let entries = self.inner.list(namespace, category, session).await?;
        Ok(entries.into_iter().map(|e| self.read(e)).collect())
    }
    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let mut summaries = self.inner.namespaces().await?;
        if matches!(self.fault, Fault::FixedLastUpdated) {
            for s in &mut summaries {
                s.last_updated = Some("2000-01-01T00:00:00Z".into());
            }
        }
        if matches!(self.fault, Fault::CanonicalSpellingsSkipped) {
            for s in &mut summaries {
                let stamps: Vec<String> = self
                    .inner
                    .list(Some(&s.namespace), None, None)
                    .await?
                    .into_iter()
                    .map(|e| e.timestamp)
                    .collect();
                let bytewise = stamps.iter().max().cloned();
                if bytewise
                    .as_deref()
                    .is_some_and(|t| !tinymemory_api::is_canonical_timestamp(t))
                {
                    s.last_updated = stamps
                        .iter()
                        .filter(|t| !tinymemory_api::is_canonical_timestamp(t))
                        .fold(None, |newest: Option<String>, t| {
                            if tinymemory_api::is_newer_timestamp(t, newest.as_deref()) {
                                Some(t.clone())
                            } else {
                                newest
                            }
                        });
                }
            }
        }
        Ok(summaries)
    }
    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        match self.fault {
            Fault::AsciiOnlyWords if !query.is_ascii() => return Ok(Vec::new()),
            Fault::SplitsAtSpacesOnly => {
                let hits = self.inner.recall(query, limit, opts).await?;
                let q = query.to_lowercase();
                return Ok(hits
                    .into_iter()
                    .filter(|h| h.content.to_lowercase().split(' ').any(|w| w == q))
                    .collect());
            }
            Fault::DistanceTopK => {
                let mut hits = self.inner.recall(query, limit, opts).await?;
                let mut distance = 0.25;
                for h in &mut hits {
                    h.score = Some(distance);
                    distance *= 2.0;
                }
                let ns = opts.effective_namespace().to_owned();
                for mut e in self.inner.list(Some(&ns), None, None).await? {
                    if hits.len() < limit && hits.iter().all(|h| h.key != e.key) {
                        e.score = Some(8.0);
                        e.namespace = Some(ns.clone());
                        hits.push(e);
                    }
                }
                return Ok(hits);
            }
            _ => {}
        }
        if matches!(self.fault, Fault::SubstringMatch) {
            let q = query.to_lowercase();
            let all = self
                .inner
                .list(Some(opts.effective_namespace()), None, None)
                .await?;
            return Ok(all
                .into_iter()
                .filter(|e| !q.trim().is_empty() && e.content.to_lowercase().contains(&q))
                .take(limit)
                .collect());
        }
        let opts = match self.fault {
            Fault::RecallIgnoresCategory => RecallOptions {
                category: None,
                ..opts.clone()
            },
            Fault::RecallsGlobal => RecallOptions {
                namespace: None,
                ..opts.clone()
            },
            Fault::LimitAboveU32Refused if limit > u32::MAX as usize => {
                return Err(MemoryError::invalid("limit", "a limit must fit 32 bits"));
            }
            _ => opts.clone(),
        };
        let hits = self.inner.recall(query, limit, &opts).await?;
        Ok(hits.into_iter().map(|e| self.read(e)).collect())
    }

    /// Through the faulty `store`, so a bulk store has the fault too.
    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        tinymemory_api::batch::store_each(self, entries).await
    }

    /// Through the faulty `list`, so an export reads what `list` reads.
    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        tinymemory_api::portability::export_from_list(self, cursor, limit).await
    }

    /// Forwarded: the faults here are in store, get, list and recall.
    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        self.inner.import(records).await
    }
}

/// The message of check `id` run alone against `fault`; panics unless it
/// failed.
async fn failure(fault: Fault, id: &str) -> String {
    let factory: Arc<dyn DriverFactory> = Arc::new(FnFactory::new("broken", move || {
        Ok(Box::new(Broken {
            fault,
            inner: ReferenceDriver::new(),
        }) as Box<dyn MemoryProvider>)
    }));
    support::one_check::failure_of(factory, id).await
}

#[tokio::test]
async fn upsert_replaces_metadata_sees_a_stale_session() {
    let got = failure(Fault::StaleSessionOnRead, "store.upsert_replaces_metadata").await;
    assert!(
        got.starts_with(
            "(content, category, session, taint) of get(\"learning:meta\", \"k\") after storing"
        ),
        "{got}"
    );
    assert!(
        got.ends_with("got (\"second\", Daily, Some(\"session-1\"), Internal)"),
        "{got}"
    );
}

#[tokio::test]
async fn timestamps_are_the_time_of_the_store() {
    let got = failure(Fault::OldTimestamps, "store.timestamps").await;
    assert!(
        got.starts_with("the timestamp of learning:time/k is \""),
        "{got}"
    );
    assert!(
        got.contains("a timestamp is the time of the store"),
        "{got}"
    );
}

#[tokio::test]
async fn last_updated_is_the_newest_timestamp() {
    let got = failure(Fault::FixedLastUpdated, "namespaces.last_updated").await;
    assert!(
        got.starts_with("namespaces() gives learning:updates last_updated \"2000-01-01T00:00:00Z\" after three stores"),
        "{got}"
    );
}

#[tokio::test]
async fn last_updated_compares_the_drivers_own_spelling_with_the_others() {
    let got = failure(Fault::CanonicalSpellingsSkipped, "namespaces.last_updated").await;
    assert!(
        got.starts_with(
            "namespaces() gives learning:spellings last_updated \"2020-01-01T00:00:00.999999702Z\" \
             when its entries were imported with the timestamps [\"2020-01-01T00:00:01.000000Z\", "
        ),
        "{got}"
    );
    assert!(
        got.contains("the newest of those is \"2020-01-01T00:00:01.000000Z\""),
        "{got}"
    );
}

/// A pinned recall that misses an entry `get` and `list` find is the
/// recall's fault, and the message says so rather than suggesting the
/// namespace was folded (a fresh user's space-splitting store).
#[tokio::test]
async fn a_namespace_check_names_the_recall_when_only_the_recall_missed() {
    let got = failure(Fault::SplitsAtSpacesOnly, "namespace.case_sensitive").await;
    assert!(
        got.starts_with(
            "recall(\"scope\") pinned to \"Global\"; get and list found the entry, so the name \
             was kept: it is the recall of \"scope\" that missed it (a lexical recall missed \
             entries holding a query word: the usual causes are words split only at spaces"
        ),
        "{got}"
    );
    assert!(
        got.ends_with(
            "or a filter (the namespace too) applied to the engine's top hits instead of before \
             the limit: expected [(\"k\", \"the Global scope, unsectioned\")], got []"
        ),
        "{got}"
    );
}

#[tokio::test]
async fn identities_never_collide() {
    let got = failure(Fault::SplitAtLastSlash, "store.distinct_identities").await;
    assert!(
        got.starts_with(
            "get(\"learning:a/b\", \"c\") after storing (learning:a/b, c), (learning:a, b/c)"
        ),
        "{got}"
    );
}

#[tokio::test]
async fn list_keeps_exactly_the_session_asked() {
    let got = failure(Fault::ListIgnoresSession, "list.filters").await;
    assert_eq!(
        got,
        "keys of list(learning:filters, category None, session Some(\"s1\")): expected [\"core-s1\", \"daily-s1\"], \
         got [\"core-none\", \"core-s1\", \"core-s2\", \"daily-none\", \"daily-s1\", \"daily-s2\", \
         \"work-empty\", \"work-upper\"]"
    );
}

#[tokio::test]
async fn recall_keeps_exactly_the_category_asked() {
    let got = failure(Fault::RecallIgnoresCategory, "recall.filters").await;
    assert_eq!(
        got,
        "keys of recall(\"lantern\") in learning:filters with category Some(Core), session None: expected \
         [\"core-none\", \"core-s1\", \"core-s2\"], got [\"core-none\", \"core-s1\", \"core-s2\", \"daily-none\", \
         \"daily-s1\", \"daily-s2\", \"work-empty\", \"work-upper\"]"
    );
}

#[tokio::test]
async fn huge_limits_are_no_error() {
    let got = failure(Fault::LimitAboveU32Refused, "recall.huge_limit").await;
    assert!(
        got.starts_with(&format!("recall(\"lantern\", limit {}) failed", usize::MAX)),
        "{got}"
    );
}

#[tokio::test]
async fn a_view_recall_searches_its_scope() {
    let got = failure(Fault::RecallsGlobal, "sections.view_recall_pinned").await;
    assert_eq!(
        got,
        "learnings().recall(\"lights\", \"lantern\"): a view's recall searches <section>:<scope>: expected \
         [(Some(\"learning:lights\"), \"l\")], got [(Some(\"global\"), \"g\")]"
    );
}

#[tokio::test]
async fn whole_words_refuse_a_substring_match() {
    let got = failure(Fault::SubstringMatch, "recall.whole_words").await;
    assert_eq!(
        got,
        "recall(\"alpha,beta\") in learning:words returned [], expected [\"alpha\", \"beta\"]: \
         punctuation separates a query's words, so each of alpha and beta must find its entry (a \
         split on white space alone keeps alpha,beta one word; a phrase search wants both in one \
         entry)"
    );
}

#[tokio::test]
async fn big_content_names_the_word_it_recalls_by() {
    assert_eq!(
        failure(Fault::AsciiOnlyWords, "store.big_content_round_trip").await,
        "recall(\"机\", limit 5) in hostile:big, a word of the 1 MiB content: \
         expected [\"big\"], got []"
    );
}

#[tokio::test]
async fn a_distance_for_score_is_reported_before_the_extra_hits() {
    assert_eq!(
        failure(Fault::DistanceTopK, "recall.scores_finite_higher_better").await,
        "the entry holding both query words scored 0.25, not above the entry holding \
         one (0.5): scores must be higher-is-better"
    );
}

/// A store whose recall answers are cached by `(namespace, query)` in a
/// cache every store of its factory shares, cleared by a write to that
/// namespace but never by opening a new store: an exec driver's process
/// whose `reset` empties the data and keeps the query cache. No check
/// asked a new store anything before writing to it, so this passed the
/// whole suite.
struct CacheKeptAcrossStores {
    inner: ReferenceDriver,
    cache: Arc<std::sync::Mutex<RecallCache>>,
}

/// Recall answers by `(namespace, query)`.
type RecallCache = std::collections::HashMap<(String, String), Vec<MemoryEntry>>;

tinymemory_api::delegate_provider! {
    impl[] MemoryProvider for CacheKeptAcrossStores {
        forward(inner): driver_id, get, forget, list, namespaces, store_many, export_page, import, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.cache.lock().unwrap().retain(|(ns, _), _| ns != namespace);
            self.inner.store(namespace, key, content, category, session_id, taint).await
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let key = (opts.effective_namespace().to_owned(), query.to_owned());
            if let Some(hits) = self.cache.lock().unwrap().get(&key) {
                return Ok(hits.clone());
            }
            let hits = self.inner.recall(query, limit, opts).await?;
            self.cache.lock().unwrap().insert(key, hits.clone());
            Ok(hits)
        }
    }
}

#[tokio::test]
async fn a_cache_kept_from_one_store_to_the_next_fails_opens_empty() {
    let cache = Arc::default();
    let factory: Arc<dyn DriverFactory> = Arc::new(FnFactory::new("cache-kept", move || {
        Ok(Box::new(CacheKeptAcrossStores {
            inner: ReferenceDriver::new(),
            cache: Arc::clone(&cache),
        }) as Box<dyn MemoryProvider>)
    }));
    let message = support::one_check::failure_of(factory, "store.opens_empty").await;
    assert_eq!(
        message,
        "recall(\"lantern\") in learning:reopened of a new store found [\"lantern\"], which only \
         the closed store held: a store opened after another is closed must be empty: a cache \
         that reset does not clear answers with the closed store's entries (an exec driver's \
         process serves store after store)"
    );
}
