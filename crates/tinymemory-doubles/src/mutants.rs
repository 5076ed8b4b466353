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
//! Lexical mutants wrap the reference driver and semantic ones the
//! semantic reference driver ([`Mutant::profile`], [`Mutant::base`]).
//! Mutants that change what `store` does also change `store_many` (it
//! calls [`store_each`](tinymemory_api::batch::store_each) over the
//! mutated `store`); those that change `list` or what it reads back export
//! through [`export_from_list`](tinymemory_api::portability::export_from_list)
//! over their own `list`; and those whose rule concerns what an upsert
//! keeps break `import` the same way. The others forward the three.
//!
//! The catalogue, in its order (made from [`mutants()`] by the conformance
//! crate's docs test, so it cannot drift: `TINYMEMORY_BLESS=1 cargo test
//! -p tinymemory-conformance --lib docs` rewrites it; the checks that also
//! catch each are in [`Mutant::also_caught_by`] and in the output of
//! `tinymemory-conformance mutants`):
//!
//! <!-- BEGIN GENERATED: mutants -->
//! | name | profile | wrapper | check | how it breaks the rule |
//! | --- | --- | --- | --- | --- |
//! | `duplicates-on-upsert` | lexical | [`DuplicatesOnStore::new(_)`](DuplicatesOnStore::new) | `store.upsert` | a second store under a key keeps the old entry too: both show in list and in the namespaces() count |
//! | `drops-taint` | lexical | [`DropsTaint::new(_)`](DropsTaint::new) | `store.upsert` | every store is written as MemoryTaint::Internal, so externally synced entries read back as internal |
//! | `loses-concurrent-writes` | lexical | [`LosesConcurrentWrites::new(_)`](LosesConcurrentWrites::new) | `store.concurrent_writes` | a store that starts while another store is in flight returns Ok but is never written |
//! | `none-means-all` | lexical | [`NoneMeansAll::new(_)`](crate::NoneMeansAll::new) | `recall.none_means_global` | recall with namespace None searches every namespace |
//! | `strips-hit-namespace` | lexical | [`TamperHits::strip(_)`](crate::TamperHits::strip) | `recall.hit_namespace` | recall hits carry namespace None |
//! | `negated-scores` | lexical | [`NegatedScores::new(_)`](NegatedScores::new) | `recall.scores_finite_higher_better` | recall scores are negated: lower is better, like an unconverted bm25 |
//! | `nan-scores` | lexical | [`NanScores::new(_)`](NanScores::new) | `recall.scores_finite_higher_better` | the best hit of every recall scores NaN, as a 0/0 normalisation would give |
//! | `limit-plus-one` | lexical | [`LimitPlusOne::new(_)`](LimitPlusOne::new) | `recall.limit` | recall returns up to limit + 1 hits, and one hit for limit 0 |
//! | `query-as-fts5-syntax` | lexical | [`EngineSyntaxErrors::new(_)`](EngineSyntaxErrors::new) | `recall.plain_text_query` | the query goes to FTS5 MATCH unescaped: don't, quotes, *, (, AND and blank queries fail with a syntax error |
//! | `ignores-min-score` | lexical | [`IgnoresMinScore::new(_)`](IgnoresMinScore::new) | `recall.min_score` | recall ignores min_score |
//! | `counts-every-store` | lexical | [`CountsEveryStore::new(_)`](CountsEveryStore::new) | `namespaces.exact_counts` | namespaces() counts every store of a key, upserts included, like a full-text table gaining a row per write |
//! | `sanitizes-invalid-namespaces` | lexical | [`SanitizesNamespaces::new(_)`](SanitizesNamespaces::new) | `namespace.invalid_refused` | an invalid namespace is silently rewritten to a valid one instead of refused |
//! | `folds-fullwidth-namespaces` | lexical | [`FoldsFullwidthNamespaces::new(_)`](FoldsFullwidthNamespaces::new) | `namespace.invalid_refused` | fullwidth forms in a namespace become their ASCII characters (as NFKC does) instead of refused |
//! | `forget-always-true` | lexical | [`ForgetAlwaysTrue::new(_)`](ForgetAlwaysTrue::new) | `forget.idempotent` | forget always returns true, even when nothing was there |
//! | `invalid-key-answered-absent` | lexical | [`InvalidKeyAbsent::new(_)`](InvalidKeyAbsent::new) | `key.invalid_refused` | get and forget answer an empty or over-long key as absent (None, false) instead of refusing it |
//! | `key-limit-off-by-one` | lexical | [`KeyLimitOffByOne::new(_)`](KeyLimitOffByOne::new) | `key.limit_accepted` | a key of exactly 1024 bytes is refused as key.too_long (the limit compared with >=) |
//! | `stale-recall-after-forget` | lexical | [`StaleRecallAfterForget::new(_)`](StaleRecallAfterForget::new) | `forget.idempotent` | forget leaves the entry in the recall index, like a full-text table with no delete trigger |
//! | `case-folds-namespaces` | lexical | [`CaseFoldsNamespaces::new(_)`](CaseFoldsNamespaces::new) | `namespace.case_sensitive` | every namespace is lowercased before use, like a case-insensitive collation |
//! | `like-wildcards` | lexical | [`LikeWildcards::new(_)`](LikeWildcards::new) | `namespace.no_wildcards` | list filters with namespace LIKE ?, so learning:a_b also lists learning:axb |
//! | `splits-namespaces-by-category` | lexical | [`SplitsNamespacesByCategory::new(_)`](SplitsNamespacesByCategory::new) | `sections.namespaces_listed_once` | namespaces() groups by (namespace, category), listing a mixed namespace once per category |
//! | `prefix-pinned-recall` | lexical | [`PrefixPinnedRecall::new(_)`](PrefixPinnedRecall::new) | `sections.pinned_hits_only` | a recall pinned to learning:rust also searches learning:rust-async (namespace LIKE ? || '%') |
//! | `merges-metadata-on-upsert` | lexical | [`MetadataFault::new(MetadataFaultKind::MergesMetadataOnUpsert, _)`](MetadataFault::new) | `store.upsert_replaces_metadata` | a store without a session keeps the session of the entry it replaces |
//! | `epoch-timestamps` | lexical | [`MetadataFault::new(MetadataFaultKind::EpochTimestamps, _)`](MetadataFault::new) | `store.timestamps` | every timestamp read back, last_updated included, is 1970-01-01T00:00:00Z |
//! | `oldest-last-updated` | lexical | [`MetadataFault::new(MetadataFaultKind::OldestLastUpdated, _)`](MetadataFault::new) | `namespaces.last_updated` | namespaces() gives the oldest timestamp as last_updated |
//! | `bytewise-last-updated` | lexical | [`MetadataFault::new(MetadataFaultKind::BytewiseLastUpdated, _)`](MetadataFault::new) | `namespaces.last_updated` | namespaces() gives the bytewise greatest timestamp as last_updated (SQL MAX over the text) |
//! | `joined-ids` | lexical | [`MetadataFault::new(MetadataFaultKind::JoinedIds, _)`](MetadataFault::new) | `store.distinct_identities` | entries are identified by namespace + "/" + key, so (learning:a/b, c) and (learning:a, b/c) are one |
//! | `inverted-list-category` | lexical | [`MetadataFault::new(MetadataFaultKind::InvertedListCategory, _)`](MetadataFault::new) | `list.filters` | list with a category keeps every other category |
//! | `inverted-recall-session` | lexical | [`MetadataFault::new(MetadataFaultKind::InvertedRecallSession, _)`](MetadataFault::new) | `recall.filters` | recall with a session keeps every other session |
//! | `limit-as-i64` | lexical | [`MetadataFault::new(MetadataFaultKind::LimitAsI64, _)`](MetadataFault::new) | `recall.huge_limit` | a limit above i64::MAX is a backend error, as an SQL LIMIT binding would be |
//! | `same-content-keeps-metadata` | lexical | [`MetadataFault::new(MetadataFaultKind::KeepsMetadataOfSameContent, _)`](MetadataFault::new) | `store.upsert_replaces_metadata` | a store whose content equals the stored entry's keeps its category, session and taint |
//! | `case-folds-category-filter` | lexical | [`MetadataFault::new(MetadataFaultKind::CaseFoldsCategoryFilter, _)`](MetadataFault::new) | `list.filters` | the category filters compare categories case-insensitively (custom:Work keeps custom:work) |
//! | `empty-session-as-none` | lexical | [`MetadataFault::new(MetadataFaultKind::EmptySessionAsNone, _)`](MetadataFault::new) | `list.filters` | a session of "" is stored as no session, and a filter by "" is no filter |
//! | `exports-empty-session-as-none` | lexical | [`MetadataFault::new(MetadataFaultKind::ExportsEmptySessionAsNone, _)`](MetadataFault::new) | `portability.round_trip` | export_page gives a record whose session is "" no session |
//! | `collection-wide-statistics` | lexical | [`CollectionWideStatistics::new(_)`](CollectionWideStatistics::new) | `recall.namespace_isolation` | scores are weighted by a BM25 IDF counted over every namespace, as FTS5's bm25() is, so a write elsewhere changes them |
//! | `overlapping-pages` | lexical | [`OverlappingPages::new(_)`](OverlappingPages::new) | `portability.pages_partition` | each page after the first starts with the previous page's last record, as resuming with >= instead of > does |
//! | `cursor-restarts` | lexical | [`CursorRestarts::new(_)`](CursorRestarts::new) | `portability.unknown_cursor` | an unknown cursor silently restarts the export from the first record |
//! | `empty-page-ends` | lexical | [`EmptyPageEnds::new(_)`](EmptyPageEnds::new) | `portability.end_of_export` | pages stop at namespace boundaries and an exhausted namespace gives an empty page with next_cursor None, records left |
//! | `partial-batch` | lexical | [`PartialBatch::new(_)`](PartialBatch::new) | `store.bulk` | store_many stores entry by entry without validating first, keeping what came before an invalid entry |
//! | `batch-equal-texts` | lexical | [`RefusesEqualTexts::new(_)`](RefusesEqualTexts::new) | `properties.store_many_matches_store` | store_many refuses a batch holding one content twice, storing nothing of it, as LangGraph's InMemoryStore does |
//! | `import-drops-taint` | lexical | [`ImportDropsTaint::new(_)`](ImportDropsTaint::new) | `portability.taint_kept` | import writes every record as MemoryTaint::Internal |
//! | `import-keeps-first-of-key` | lexical | [`ImportKeepsFirst::new(_)`](ImportKeepsFirst::new) | `portability.taint_kept` | import keeps the first of the records of one batch that share a key |
//! | `default-category-kept` | lexical | [`DefaultsAsAbsent::new(UpsertPath::Store, DefaultFields::CATEGORY, _)`](DefaultsAsAbsent::new) | `store.upsert_replaces_metadata` | a store of category core over an entry of another category keeps the old one, as patch semantics reading the default as not given do |
//! | `defaults-kept-by-store-many` | lexical | [`DefaultsAsAbsent::new(UpsertPath::StoreMany, DefaultFields::ALL, _)`](DefaultsAsAbsent::new) | `store.upsert_replaces_metadata` | store_many over existing keys keeps the stored category, session and taint where the entry gives core, no session or internal |
//! | `defaults-kept-by-import` | lexical | [`DefaultsAsAbsent::new(UpsertPath::Import, DefaultFields::ALL, _)`](DefaultsAsAbsent::new) | `portability.taint_kept` | import over existing keys keeps the stored category, session and taint where the record gives core, no session or internal |
//! | `bm25-sign-as-match` | lexical | [`Bm25SignAsMatch::new(_)`](Bm25SignAsMatch::new) | `recall.none_means_global` | a hit is kept only when its Okapi BM25 weight is above 0, so the only entry of a namespace is never found |
//! | `reserves-own-name` | lexical | [`ReservesName::langgraph(_)`](ReservesName::langgraph) | `namespace.reserved_words` | a namespace whose first label is langgraph is refused, as one agent framework's store refuses its own name |
//! | `drops-stop-words` | lexical | [`DropsStopWords::new(_)`](DropsStopWords::new) | `recall.common_words` | the query's English stop words (Lucene's list: the, is, it, be, not, a, ...) are dropped before the search, so recall("be") finds nothing |
//! | `utf16-key-order` | lexical | [`Utf16KeyOrder::new(_)`](Utf16KeyOrder::new) | `store.hostile_text_round_trip` | list sorts by UTF-16 code units, as JavaScript's default string comparison does, so a key starting at or above U+E000 comes after an astral one |
//! | `leap-second-any-day` | lexical | [`LeapSecondAnyDay::new(_)`](LeapSecondAnyDay::new) | `portability.import_failures` | import takes a second of 60 on any day and at any minute, read as 59, as a parser checking each field's range alone does |
//! | `keeps-imported-timestamp` | lexical | [`KeepsImportedTimestamp::new(_)`](KeepsImportedTimestamp::new) | `portability.store_after_import` | a store or store_many over a key an import wrote keeps the imported timestamp |
//! | `years-below-100-shifted` | lexical | [`ShiftedEarlyYears::new(_)`](ShiftedEarlyYears::new) | `namespaces.last_updated` | namespaces() compares timestamps of years 0000-0099 as 1900-1999, as JavaScript's Date.UTC reads a year below 100 |
//! | `distance-scores` | semantic | [`RankingFault::new(RankingFaultKind::DistanceScores, _)`](RankingFault::new) | `recall.ranking_higher_better` | scores are the cosine distance 1 - s, nearest first, as a vector store returns them |
//! | `jittered-scores` | semantic | [`RankingFault::new(RankingFaultKind::JitteredScores, _)`](RankingFault::new) | `recall.deterministic` | the n-th recall adds n * 1e-12 to every score |
//! | `length-scaled-scores` | semantic | [`RankingFault::new(RankingFaultKind::LengthScaledScores, _)`](RankingFault::new) | `recall.self_retrieval` | scores are multiplied by the content's length, like an inner product over unnormalised embeddings |
//! | `min-score-exclusive` | semantic | [`RankingFault::new(RankingFaultKind::MinScoreExclusive, _)`](RankingFault::new) | `recall.min_score` | a hit scoring exactly min_score is dropped (> instead of >=) |
//! | `short-top-k` | semantic | [`RankingFault::new(RankingFaultKind::ShortTopK, _)`](RankingFault::new) | `recall.limit` | a recall of two hits or more loses its last one |
//! | `ignores-pin` | semantic | [`RankingFault::new(RankingFaultKind::IgnoresPin, _)`](RankingFault::new) | `sections.pinned_hits_only` | a pinned recall ranks the entries of every namespace, as a collection-wide vector search |
//! | `stale-embedding-on-upsert` | semantic | [`StaleIndex::new(&[UpsertPath::Store, UpsertPath::StoreMany, UpsertPath::Import], _)`](StaleIndex::new) | `recall.reindexed_on_upsert` | a write over an existing key keeps the embedding of the entry's first content, while get and list show the new one |
//! | `zero-query-nan` | semantic | [`ZeroQueryNan::new(_)`](ZeroQueryNan::new) | `recall.plain_text_query` | a non-blank query without a word scores every hit NaN, as cosine against the zero vector its embedding is |
//! | `js-blank-set` | semantic | [`JsBlankSet::new(_)`](JsBlankSet::new) | `recall.plain_text_query` | blankness is decided by JavaScript's trim(): a query of U+0085 ranks every entry, and one of U+FEFF alone gives nothing |
//! | `row-dependent-scores` | lexical | [`RowDependentScores::new(RowStep::By(1e-3), _)`](RowDependentScores::new) | `properties.cap_determinism` | an entry's score moves up by 0.001 when it is stored in an odd row, so the same data stored in another order scores and ranks otherwise |
//! | `trims-trailing-line-breaks` | lexical | [`TrimsTrailingLineBreaks::new(_)`](TrimsTrailingLineBreaks::new) | `store.hostile_text_round_trip` | store, store_many and import drop the line breaks that end a content |
//! | `recall-cuts-content` | lexical | [`RecallCutsContent::new(_)`](RecallCutsContent::new) | `store.big_content_round_trip` | recall hits carry the first 1,000 characters of their content, as a snippet |
//! <!-- END GENERATED: mutants -->
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
//!             export_page, import, interface;
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
//! # A mutant is one file plus one line
//!
//! A mutant of this crate is one file of `src/mutants/`: the wrapper as
//! above, with `new`, `get_ref`, `get_mut` and `into_inner`
//! (`inner_only_accessors!`), and the file's catalogue entries, each with
//! its witness: a scenario the mutant and the driver it wraps answer
//! differently, and the exact line each gives. The file is declared, its
//! wrapper exported and its entries gathered into [`mutants()`] by one
//! line of the `mutant_files!` list at the end of `src/mutants.rs`
//! (`drops_last_hit => DropsLastHit;`), so the module list, the catalogue
//! and the witnesses cannot drift apart:
//!
//! ```text
//! pub(super) const MUTANTS: &[super::Mutant] = &[entry! {
//!     name: "drops-last-hit",
//!     rule: "contract 5: a recall returns min(limit, entries passing the filters) hits",
//!     check: "recall.limit",
//!     // Illustrative: so blunt a mutant fails some 23 other checks, each
//!     // of which its entry would list.
//!     also_caught_by: &["model.differential"],
//!     description: "every recall loses its last hit",
//!     wrap: DropsLastHit::new(),
//!     profile: Lexical,
//!     witness: |d| {
//!         use super::witness::{keys, put};
//!         put(d, "global", "k", "apple").await?;
//!         let hits = d.recall("apple", 5, &RecallOptions::default()).await?;
//!         Ok(format!("{:?}", keys(&hits)))
//!     },
//!     reference: r#"["k"]"#,
//!     mutant: "[]",
//! }];
//! ```
//!
//! `also_caught_by` names every other check that fails on the mutant, in
//! registry order (run `tinymemory-conformance run --no-corpus --driver
//! mutant:NAME` to see which: the self-test runs without a corpus, so no
//! `corpus.*` check belongs there); the conformance crate's self-test
//! fails on any difference. A mutant of the catalogue breaks one rule, so
//! it fails few checks; `short-top-k` (`ranking.rs`) is the careful form of
//! the one above. The tables
//! above are regenerated from the catalogue (`TINYMEMORY_BLESS=1 cargo
//! test -p tinymemory-conformance --lib docs`), and the doubles crate's
//! tests run every witness on both drivers. ARCHITECTURE.md, "A mutant",
//! has the steps and the tests that hold each.

#[macro_use]
mod catalogue;
mod witness;

// Not a mutant: so blunt a fault says little about any one check (above).
mod exact_counts;

pub use catalogue::{mutant, mutants, Mutant, Witness, WitnessFuture};
pub use exact_counts::InflatedCounts;

/// Declares each mutant file, re-exports the items it names, and gathers
/// its `MUTANTS` into the catalogue in the order of the lines: a file
/// missing from this list is not compiled, so its mutants cannot be left
/// out of the catalogue while their wrapper builds.
macro_rules! mutant_files {
    ($($module:ident $(=> $($export:ident),+)?;)*) => {
        $(
            mod $module;
            $(pub use $module::{$($export),+};)?
        )*

        /// The catalogue: every file's entries, file by file.
        fn gathered() -> Vec<Mutant> {
            [$($module::MUTANTS),*].concat()
        }
    };
}

// One line per mutant file, in catalogue order: `file => what it exports`.
mutant_files! {
    store_upsert => DuplicatesOnStore;
    drops_taint => DropsTaint;
    concurrent_writes => LosesConcurrentWrites;
    none_means_all;
    hit_namespace;
    scores => NegatedScores;
    nan_scores => NanScores;
    limit => LimitPlusOne;
    plain_text_query => EngineSyntaxErrors;
    min_score => IgnoresMinScore;
    counts_every_store => CountsEveryStore;
    invalid_refused => sanitize_namespace, SanitizesNamespaces;
    fullwidth_namespaces => fold_fullwidth, FoldsFullwidthNamespaces;
    forget => ForgetAlwaysTrue;
    key_unchecked => InvalidKeyAbsent;
    key_limit => KeyLimitOffByOne;
    stale_recall => StaleRecallAfterForget;
    case_folds => CaseFoldsNamespaces;
    wildcards => like, LikeWildcards;
    split_namespaces => SplitsNamespacesByCategory;
    prefix_pin => PrefixPinnedRecall;
    metadata => MetadataFault, MetadataFaultKind;
    collection_stats => CollectionWideStatistics;
    paging => CursorRestarts, EmptyPageEnds, OverlappingPages;
    partial_batch => PartialBatch;
    batch_texts => RefusesEqualTexts;
    import_taint => ImportDropsTaint;
    import_order => ImportKeepsFirst;
    defaults_absent => DefaultFields, DefaultsAsAbsent, UpsertPath;
    bm25_sign => Bm25SignAsMatch;
    reserved_name => first_label, ReservesName, LANGGRAPH;
    stop_words => DropsStopWords, ENGLISH_STOP_WORDS;
    utf16_order => Utf16KeyOrder;
    leap_second => LeapSecondAnyDay;
    import_timestamp => KeepsImportedTimestamp;
    early_years => ShiftedEarlyYears;
    ranking => RankingFault, RankingFaultKind;
    stale_index => StaleIndex;
    zero_query => ZeroQueryNan;
    blank_set => JsBlankSet;
    row_scores => RowDependentScores, RowStep;
    line_breaks => TrimsTrailingLineBreaks;
    recall_content => RecallCutsContent, SNIPPET_CHARS;
}
