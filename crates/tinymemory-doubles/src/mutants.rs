//! A catalogue of mutants: one wrapper per rule a driver can break, each
//! breaking exactly that rule.
//!
//! A conformance suite is only as good as the faults it catches. Each
//! [`Mutant`] wraps a conforming driver (the reference driver, in the
//! self-test) and breaks one rule in a way a straightforward check must
//! notice; [`Mutant::check`] names that check, and
//! [`Mutant::also_caught_by`] records any other check known to notice too.
//! The self-test runs every check against every mutant and expects exactly
//! those checks to fail; `tinymemory-conformance mutants` prints the same
//! table.
//!
//! | name | wrapper | check | how it breaks the rule |
//! | --- | --- | --- | --- |
//! | `duplicates-on-upsert` | [`DuplicatesOnStore`] | `store.upsert` | a second store under a key keeps the old entry too: both show in `list` and in the `namespaces()` count |
//! | `drops-taint` | [`DropsTaint`] | `store.upsert` | every store is written as [`MemoryTaint::Internal`](tinymemory_api::MemoryTaint::Internal) |
//! | `loses-concurrent-writes` | [`LosesConcurrentWrites`] | `store.concurrent_writes` | a store starting while another is in flight is acknowledged, never written |
//! | `none-means-all` | [`NoneMeansAll`](crate::NoneMeansAll) | `recall.none_means_global` | an unpinned recall searches every namespace |
//! | `strips-hit-namespace` | [`TamperHits::strip`](crate::TamperHits::strip) | `recall.hit_namespace` | every recall hit has `namespace: None` |
//! | `negated-scores` | [`NegatedScores`] | `recall.scores_finite_higher_better` | scores are negated (lower is better), like an unconverted bm25 |
//! | `nan-scores` | [`NanScores`] | `recall.scores_finite_higher_better` | the best hit of each recall scores `NaN` |
//! | `limit-plus-one` | [`LimitPlusOne`] | `recall.limit` | returns up to `limit + 1` hits; `limit == 0` gives one hit |
//! | `query-as-fts5-syntax` | [`EngineSyntaxErrors`] | `recall.plain_text_query` | `don't`, quotes, `*`, `(`, `AND`, ... and blank queries are a backend error |
//! | `ignores-min-score` | [`IgnoresMinScore`] | `recall.min_score` | `min_score` is ignored |
//! | `counts-every-store` | [`CountsEveryStore`] | `namespaces.exact_counts` | `namespaces()` counts every store of a key, upserts included |
//! | `sanitizes-invalid-namespaces` | [`SanitizesNamespaces`] | `namespace.invalid_refused` | an invalid namespace is silently rewritten to a valid one |
//! | `forget-always-true` | [`ForgetAlwaysTrue`] | `forget.idempotent` | `forget` always returns `true` |
//! | `stale-recall-after-forget` | [`StaleRecallAfterForget`] | `forget.idempotent` | a forgotten entry is still recalled |
//! | `case-folds-namespaces` | [`CaseFoldsNamespaces`] | `namespace.case_sensitive` | namespaces are lowercased, so `learning:A` is `learning:a` |
//! | `like-wildcards` | [`LikeWildcards`] | `namespace.no_wildcards` | `list` matches its namespace filter with SQL `LIKE`, `_` as a wildcard |
//! | `splits-namespaces-by-category` | [`SplitsNamespacesByCategory`] | `sections.namespaces_listed_once` | `namespaces()` lists a namespace once per category |
//! | `prefix-pinned-recall` | [`PrefixPinnedRecall`] | `sections.pinned_hits_only` | a pinned recall also searches every namespace its name prefixes |
//!
//!
//! The mutants of contract sentence 11 and of the portability family
//! wrap the reference driver; each forwards every method but the one it
//! breaks:
//!
//! | name | wrapper | check | how it breaks the rule |
//! | --- | --- | --- | --- |
//! | `collection-wide-statistics` | [`CollectionWideStatistics`] | `recall.namespace_isolation` | scores are weighted by a BM25 IDF over every namespace, as FTS5's `bm25()` is |
//! | `overlapping-pages` | [`OverlappingPages`] | `portability.pages_partition` | each page after the first repeats the previous page's last record |
//! | `cursor-restarts` | [`CursorRestarts`] | `portability.unknown_cursor` | an unknown cursor restarts the export from the beginning |
//! | `empty-page-ends` | [`EmptyPageEnds`] | `portability.end_of_export` | an exhausted namespace gives an empty page with `next_cursor: None` while later namespaces hold records |
//! | `partial-batch` | [`PartialBatch`] | `store.bulk` | `store_many` stores entry by entry without validating first: the entries before an invalid one stay stored |
//! | `import-drops-taint` | [`ImportDropsTaint`] | `portability.taint_kept` | `import` writes every record as [`MemoryTaint::Internal`](tinymemory_api::MemoryTaint::Internal) |
//!
//! The mutants of faults that passed every check until issue 22 wrap the
//! reference driver, each breaking one path:
//!
//! | name | wrapper | check | how it breaks the rule |
//! | --- | --- | --- | --- |
//! | `default-category-kept` | [`DefaultsAsAbsent`] ([`UpsertPath::Store`], [`DefaultFields::CATEGORY`]) | `store.upsert_replaces_metadata` | a store of category `core` over another category keeps the old one |
//! | `defaults-kept-by-store-many` | [`DefaultsAsAbsent`] ([`UpsertPath::StoreMany`], [`DefaultFields::ALL`]) | `store.upsert_replaces_metadata` | `store_many` keeps the stored category, session and taint where an entry gives the default |
//! | `defaults-kept-by-import` | [`DefaultsAsAbsent`] ([`UpsertPath::Import`], [`DefaultFields::ALL`]) | `portability.taint_kept` | `import` does the same |
//! | `bm25-sign-as-match` | [`Bm25SignAsMatch`] | `recall.none_means_global` | a hit is kept only when its Okapi BM25 weight is above 0 |
//! | `reserves-own-name` | [`ReservesName`] | `namespace.reserved_words` | a namespace whose first label is `langgraph` is refused |
//!
//! Mutants that change what `store` does also change `store_many` (it
//! calls [`store_each`](tinymemory_api::batch::store_each) over the
//! mutated `store`); those that change `list` or what it reads back export
//! through [`export_from_list`](tinymemory_api::portability::export_from_list)
//! over their own `list`; and those whose rule concerns what an upsert
//! keeps break `import` the same way. The others forward the three.
//!
//! The mutants of a ranking engine wrap the semantic reference driver
//! ([`Mutant::profile`] is `semantic`), each a [`RankingFault`]:
//!
//! | name | fault | check | how it breaks the rule |
//! | --- | --- | --- | --- |
//! | `distance-scores` | [`RankingFaultKind::DistanceScores`] | `recall.ranking_higher_better` | scores are the cosine distance `1 - s`, nearest first |
//! | `jittered-scores` | [`RankingFaultKind::JitteredScores`] | `recall.deterministic` | every call shifts the scores by a little |
//! | `length-scaled-scores` | [`RankingFaultKind::LengthScaledScores`] | `recall.self_retrieval` | scores grow with the content's length, like an unnormalised inner product |
//! | `min-score-exclusive` | [`RankingFaultKind::MinScoreExclusive`] | `recall.min_score` | a hit scoring exactly `min_score` is dropped |
//! | `short-top-k` | [`RankingFaultKind::ShortTopK`] | `recall.limit` | a recall of two hits or more loses its last |
//! | `ignores-pin` | [`RankingFaultKind::IgnoresPin`] | `sections.pinned_hits_only` | a pinned recall ranks every namespace's entries |
//!
//! Two more wrap the semantic reference driver:
//!
//! | name | wrapper | check | how it breaks the rule |
//! | --- | --- | --- | --- |
//! | `stale-embedding-on-upsert` | [`StaleIndex`] (every [`UpsertPath`]) | `recall.reindexed_on_upsert` | a write over a key keeps ranking by the first content |
//! | `zero-query-nan` | [`ZeroQueryNan`] | `recall.plain_text_query` | a non-blank query without a word scores every hit `NaN` |
//!
//! The mutants of what a store keeps besides content wrap the reference
//! driver, each a [`MetadataFault`]:
//!
//! | name | fault | check | how it breaks the rule |
//! | --- | --- | --- | --- |
//! | `merges-metadata-on-upsert` | [`MetadataFaultKind::MergesMetadataOnUpsert`] | `store.upsert_replaces_metadata` | a store without a session keeps the old one |
//! | `epoch-timestamps` | [`MetadataFaultKind::EpochTimestamps`] | `store.timestamps` | every timestamp reads `1970-01-01T00:00:00Z` |
//! | `oldest-last-updated` | [`MetadataFaultKind::OldestLastUpdated`] | `namespaces.last_updated` | `last_updated` is the oldest timestamp |
//! | `bytewise-last-updated` | [`MetadataFaultKind::BytewiseLastUpdated`] | `namespaces.last_updated` | `last_updated` is the bytewise greatest timestamp (SQL `MAX` over the text) |
//! | `joined-ids` | [`MetadataFaultKind::JoinedIds`] | `store.distinct_identities` | entries are identified by `namespace/key` |
//! | `inverted-list-category` | [`MetadataFaultKind::InvertedListCategory`] | `list.filters` | `list`'s category filter keeps the other categories |
//! | `inverted-recall-session` | [`MetadataFaultKind::InvertedRecallSession`] | `recall.filters` | `recall`'s session filter keeps the other sessions |
//! | `limit-as-i64` | [`MetadataFaultKind::LimitAsI64`] | `recall.huge_limit` | a limit above `i64::MAX` is a backend error |
//!
//! Each wrapper's documentation states exactly what it changes and what it
//! leaves alone, and every wrapper forwards `driver_id`, so a mutant
//! reports the id of the driver it wraps. [`InflatedCounts`] (every count
//! one too high) is kept as a plain double: so blunt a fault fails every
//! check that counts, and says little about any one of them.
//!
//! ```
//! use tinymemory_api::MemoryProvider;
//! use tinymemory_doubles::mutants::{mutant, mutants};
//! use tinymemory_reference::ReferenceDriver;
//!
//! let m = mutant("negated-scores").unwrap();
//! assert_eq!(m.check, "recall.scores_finite_higher_better");
//! let driver: Box<dyn MemoryProvider> = (m.wrap)(Box::new(ReferenceDriver::new()));
//! assert_eq!(driver.driver_id(), "reference");
//! assert!(mutants().iter().any(|m| m.check == "recall.limit"));
//! ```
//!
//! # Writing a mutant
//!
//! A mutant is its doc comment (the rule it breaks, and how), a struct
//! around the driver it wraps, the tower-style accessors, and one
//! [`delegate_provider!`](tinymemory_api::delegate_provider) call that
//! names the methods it forwards and writes out only the ones it breaks.
//! Every method is in one list or the other, or the mutant does not
//! compile: one that breaks `store` must say whether `store_many` forwards
//! or goes through the broken `store`
//! ([`store_each`](tinymemory_api::batch::store_each)). A complete mutant:
//!
//! ```
//! use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};
//!
//! /// Breaks `recall.limit`: every recall loses its last hit.
//! pub struct DropsLastHit<P: ?Sized> {
//!     inner: P,
//! }
//!
//! tinymemory_api::delegate_provider! {
//!     impl[P: MemoryProvider + ?Sized] MemoryProvider for DropsLastHit<P> {
//!         forward(inner): driver_id, store, get, forget, list, namespaces, store_many,
//!             export_page, import;
//!
//!         async fn recall(
//!             &self,
//!             query: &str,
//!             limit: usize,
//!             opts: &RecallOptions,
//!         ) -> Result<Vec<MemoryEntry>, MemoryError> {
//!             let mut hits = self.inner.recall(query, limit, opts).await?;
//!             hits.pop();
//!             Ok(hits)
//!         }
//!     }
//! }
//! # use tinymemory_api::{MemoryCategory, MemoryTaint};
//! # let driver = DropsLastHit { inner: tinymemory_reference::ReferenceDriver::new() };
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! #     driver
//! #         .store("global", "k", "apple", MemoryCategory::Core, None, MemoryTaint::Internal)
//! #         .await
//! #         .unwrap();
//! #     let hits = driver.recall("apple", 5, &RecallOptions::default()).await.unwrap();
//! #     assert!(hits.is_empty());
//! # });
//! ```
//!
//! The mutants of this crate add `new`, `get_ref`, `get_mut` and
//! `into_inner` (`inner_only_accessors!`), an entry in [`mutants()`]
//! (`src/mutants/catalogue.rs`) naming the check that must catch them and
//! every other check that fails on them (run `tinymemory-conformance run
//! --driver mutant:NAME` to see which), a row in the tables above, and a
//! witness in `tests/doubles/mutants.rs`: a scenario the reference driver
//! and the mutant answer differently. ARCHITECTURE.md, "A mutant", has
//! the steps and the tests that hold each.

mod bm25_sign;
mod case_folds;
mod catalogue;
mod collection_stats;
mod concurrent_writes;
mod counts_every_store;
mod defaults_absent;
mod drops_taint;
mod exact_counts;
mod forget;
mod import_taint;
mod invalid_refused;
mod limit;
mod metadata;
mod min_score;
mod nan_scores;
mod paging;
mod partial_batch;
mod plain_text_query;
mod prefix_pin;
mod ranking;
mod reserved_name;
mod scores;
mod split_namespaces;
mod stale_index;
mod stale_recall;
mod store_upsert;
mod wildcards;
mod zero_query;

pub use bm25_sign::Bm25SignAsMatch;
pub use case_folds::CaseFoldsNamespaces;
pub use catalogue::{mutant, mutants, Mutant};
pub use collection_stats::CollectionWideStatistics;
pub use concurrent_writes::LosesConcurrentWrites;
pub use counts_every_store::CountsEveryStore;
pub use defaults_absent::{DefaultFields, DefaultsAsAbsent, UpsertPath};
pub use drops_taint::DropsTaint;
pub use exact_counts::InflatedCounts;
pub use forget::ForgetAlwaysTrue;
pub use import_taint::ImportDropsTaint;
pub use invalid_refused::{sanitize_namespace, SanitizesNamespaces};
pub use limit::LimitPlusOne;
pub use metadata::{MetadataFault, MetadataFaultKind};
pub use min_score::IgnoresMinScore;
pub use nan_scores::NanScores;
pub use paging::{CursorRestarts, EmptyPageEnds, OverlappingPages};
pub use partial_batch::PartialBatch;
pub use plain_text_query::EngineSyntaxErrors;
pub use prefix_pin::PrefixPinnedRecall;
pub use ranking::{RankingFault, RankingFaultKind};
pub use reserved_name::{first_label, ReservesName, LANGGRAPH};
pub use scores::NegatedScores;
pub use split_namespaces::SplitsNamespacesByCategory;
pub use stale_index::StaleIndex;
pub use stale_recall::StaleRecallAfterForget;
pub use store_upsert::DuplicatesOnStore;
pub use wildcards::{like, LikeWildcards};
pub use zero_query::ZeroQueryNan;
