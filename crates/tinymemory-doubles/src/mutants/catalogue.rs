//! The list of mutants.

use std::fmt;

use tinymemory_api::{MemoryProvider, RecallProfile};

use super::{
    Bm25SignAsMatch, CaseFoldsNamespaces, CollectionWideStatistics, CountsEveryStore,
    CursorRestarts, DefaultFields, DefaultsAsAbsent, DropsStopWords, DropsTaint, DuplicatesOnStore,
    EmptyPageEnds, EngineSyntaxErrors, ForgetAlwaysTrue, IgnoresMinScore, ImportDropsTaint,
    JsBlankSet, LeapSecondAnyDay, LikeWildcards, LimitPlusOne, LosesConcurrentWrites,
    MetadataFault, MetadataFaultKind, NanScores, NegatedScores, OverlappingPages, PartialBatch,
    PrefixPinnedRecall, RankingFault, RankingFaultKind, ReservesName, SanitizesNamespaces,
    ShiftedEarlyYears, SplitsNamespacesByCategory, StaleIndex, StaleRecallAfterForget, UpsertPath,
    Utf16KeyOrder, ZeroQueryNan,
};

/// One entry of the catalogue: a way to break exactly one rule, and the
/// conformance check that must notice.
///
/// Fields are public for reading; entries are built by this crate only.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Mutant {
    /// Unique, kebab-case, saying what the driver does wrong, such as
    /// `negated-scores`.
    pub name: &'static str,
    /// The rule broken, one line: `contract N: ...` for a sentence of the
    /// `MemoryProvider` contract, `namespaces: ...` for a namespace rule,
    /// `section API: ...` for a rule of the section API that a driver can
    /// break.
    pub rule: &'static str,
    /// The id of the conformance check that must catch this mutant, such
    /// as `recall.limit`.
    pub check: &'static str,
    /// Other checks known to fail on this mutant too, in registry order;
    /// empty when none. The self-test fails on any failing check that is
    /// neither [`Mutant::check`] nor listed here, so a new overlap is
    /// written down, not discovered later.
    pub also_caught_by: &'static [&'static str],
    /// One line: how the wrapped driver misbehaves.
    pub description: &'static str,
    /// The recall profile of the driver it wraps, and so of the run that
    /// must catch it: `lexical` mutants wrap the reference driver,
    /// `semantic` ones the semantic reference driver
    /// ([`Mutant::base`]).
    pub profile: RecallProfile,
    /// The call that builds the wrapper, as [`Mutant::wrap`] makes it,
    /// with `_` for the wrapped driver (always the last argument):
    /// `DuplicatesOnStore::new(_)`, `RankingFault::new(RankingFaultKind::ShortTopK, _)`.
    /// Paths are relative to [`mutants`](mod@crate::mutants), or start
    /// with `crate::` for the decorators at the crate's root.
    pub wrapper: &'static str,
    /// Wraps a (conforming) driver into the mutant. The result reports the
    /// wrapped driver's `driver_id`.
    pub wrap: fn(Box<dyn MemoryProvider>) -> Box<dyn MemoryProvider>,
}

/// One [`Mutant`] from its fields, `wrap` written as the wrapper's
/// constructor without the wrapped driver: [`Mutant::wrap`] and
/// [`Mutant::wrapper`] come from the same tokens, so the name the docs
/// show is the code that runs.
macro_rules! entry {
    (
        name: $name:literal,
        rule: $rule:literal,
        check: $check:literal,
        also_caught_by: $also:expr,
        description: $description:literal,
        wrap: $first:ident $(:: $rest:ident)* ($($arg:expr),*),
        profile: $profile:expr $(,)?
    ) => {
        Mutant {
            name: $name,
            rule: $rule,
            check: $check,
            also_caught_by: $also,
            description: $description,
            wrapper: concat!(
                stringify!($first), $("::", stringify!($rest),)* "(", $(stringify!($arg), ", ",)* "_)"
            ),
            wrap: |p| Box::new($first $(:: $rest)* ($($arg,)* p)),
            profile: $profile,
        }
    };
}

impl Mutant {
    /// The ids of every check expected to fail on this mutant:
    /// [`Mutant::check`], then [`Mutant::also_caught_by`].
    #[must_use]
    pub fn expected_failures(&self) -> Vec<&'static str> {
        let mut ids = vec![self.check];
        ids.extend_from_slice(self.also_caught_by);
        ids
    }

    /// A fresh, empty conforming driver of [`Mutant::profile`]: the
    /// [`ReferenceDriver`](tinymemory_reference::ReferenceDriver) or the
    /// [`SemanticReferenceDriver`](tinymemory_reference::SemanticReferenceDriver).
    #[must_use]
    pub fn base(&self) -> Box<dyn MemoryProvider> {
        match self.profile {
            RecallProfile::Lexical => Box::new(tinymemory_reference::ReferenceDriver::new()),
            RecallProfile::Semantic => {
                Box::new(tinymemory_reference::SemanticReferenceDriver::new())
            }
        }
    }

    /// [`Mutant::wrap`] around a fresh [`Mutant::base`].
    #[must_use]
    pub fn open(&self) -> Box<dyn MemoryProvider> {
        (self.wrap)(self.base())
    }
}

/// Shows every field but `wrap`.
impl fmt::Debug for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mutant")
            .field("name", &self.name)
            .field("rule", &self.rule)
            .field("check", &self.check)
            .field("also_caught_by", &self.also_caught_by)
            .field("description", &self.description)
            .field("wrapper", &self.wrapper)
            .field("profile", &self.profile)
            .finish_non_exhaustive()
    }
}

static MUTANTS: &[Mutant] = &[
    entry! {
        name: "duplicates-on-upsert",
        rule: "contract 1: a second store at (namespace, key) replaces the first, never duplicates",
        check: "store.upsert",
        also_caught_by: &["namespaces.exact_counts", "store.bulk", "store.upsert_replaces_metadata", "store.timestamps", "portability.cursor_stable", "portability.round_trip", "properties.export_partition", "properties.export_round_trip", "model.differential"],
        description: "a second store under a key keeps the old entry too: both show in list and in the namespaces() count",
        wrap: DuplicatesOnStore::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "drops-taint",
        rule: "contract 1: taint, category and session are stored as given",
        check: "store.upsert",
        also_caught_by: &["store.bulk", "portability.taint_kept", "portability.import_hostile", "model.differential"],
        description: "every store is written as MemoryTaint::Internal, so externally synced entries read back as internal",
        wrap: DropsTaint::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "loses-concurrent-writes",
        rule: "contract 1: every store that returned Ok is kept, however many run at once",
        check: "store.concurrent_writes",
        also_caught_by: &[],
        description: "a store that starts while another store is in flight returns Ok but is never written",
        wrap: LosesConcurrentWrites::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "none-means-all",
        rule: "contract 2: recall with namespace None searches global only, never every namespace",
        check: "recall.none_means_global",
        also_caught_by: &["recall.namespace_isolation", "model.differential"],
        description: "recall with namespace None searches every namespace",
        wrap: crate::NoneMeansAll::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "strips-hit-namespace",
        rule: "contract 3: every recall hit carries Some(the namespace it lives in)",
        check: "recall.hit_namespace",
        also_caught_by: &["recall.hostile_queries", "sections.view_recall_pinned", "model.differential"],
        description: "recall hits carry namespace None",
        wrap: crate::TamperHits::strip(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "negated-scores",
        rule: "contract 4: scores are higher-is-better; an engine ranking lower-is-better converts",
        check: "recall.scores_finite_higher_better",
        also_caught_by: &["recall.min_score", "recall.self_retrieval", "model.differential"],
        description: "recall scores are negated: lower is better, like an unconverted bm25",
        wrap: NegatedScores::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "nan-scores",
        rule: "contract 4: scores, when present, are finite",
        check: "recall.scores_finite_higher_better",
        also_caught_by: &["recall.plain_text_query", "recall.min_score", "recall.self_retrieval", "recall.hostile_queries", "model.differential"],
        description: "the best hit of every recall scores NaN, as a 0/0 normalisation would give",
        wrap: NanScores::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "limit-plus-one",
        rule: "contract 5: at most limit hits; limit 0 returns Ok(empty)",
        check: "recall.limit",
        also_caught_by: &["recall.min_score", "sections.across_merge_order", "model.differential"],
        description: "recall returns up to limit + 1 hits, and one hit for limit 0",
        wrap: LimitPlusOne::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "query-as-fts5-syntax",
        rule: "contract 6: a query is plain text, never engine syntax; a blank query is Ok(empty)",
        check: "recall.plain_text_query",
        also_caught_by: &["recall.whole_words", "recall.hostile_queries", "properties.across_ordering", "properties.cap_determinism", "properties.pinning_cost", "properties.truncation", "properties.concurrent_equals_sequential", "model.differential"],
        description: "the query goes to FTS5 MATCH unescaped: don't, quotes, *, (, AND and blank queries fail with a syntax error",
        wrap: EngineSyntaxErrors::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "ignores-min-score",
        rule: "contract 7: min_score drops hits below it, and unscored hits when set",
        check: "recall.min_score",
        also_caught_by: &[],
        description: "recall ignores min_score",
        wrap: IgnoresMinScore::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "counts-every-store",
        rule: "contract 8: namespaces() gives every non-empty namespace its exact count",
        check: "namespaces.exact_counts",
        also_caught_by: &["store.upsert", "store.bulk", "portability.round_trip", "properties.export_round_trip", "model.differential"],
        description: "namespaces() counts every store of a key, upserts included, like a full-text table gaining a row per write",
        wrap: CountsEveryStore::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "sanitizes-invalid-namespaces",
        rule: "contract 9: an invalid namespace is MemoryError::Invalid on every method",
        check: "namespace.invalid_refused",
        also_caught_by: &["store.bulk", "portability.import_failures", "properties.namespace_round_trip", "model.differential"],
        description: "an invalid namespace is silently rewritten to a valid one instead of refused",
        wrap: SanitizesNamespaces::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "forget-always-true",
        rule: "contract 10: forget is idempotent: true, then false",
        check: "forget.idempotent",
        also_caught_by: &["model.differential"],
        description: "forget always returns true, even when nothing was there",
        wrap: ForgetAlwaysTrue::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "stale-recall-after-forget",
        rule: "contract 10: a forgotten entry is gone from get, list, namespaces and recall",
        check: "forget.idempotent",
        also_caught_by: &["model.differential"],
        description: "forget leaves the entry in the recall index, like a full-text table with no delete trigger",
        wrap: StaleRecallAfterForget::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "case-folds-namespaces",
        rule: "namespaces: names compare byte for byte, so learning:A and learning:a are two namespaces",
        check: "namespace.case_sensitive",
        also_caught_by: &["model.differential"],
        description: "every namespace is lowercased before use, like a case-insensitive collation",
        wrap: CaseFoldsNamespaces::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "like-wildcards",
        rule: "namespaces: a namespace filter matches that one name; _ and . are plain characters",
        check: "namespace.no_wildcards",
        also_caught_by: &[],
        description: "list filters with namespace LIKE ?, so learning:a_b also lists learning:axb",
        wrap: LikeWildcards::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "splits-namespaces-by-category",
        rule: "section API: a namespace listed twice by namespaces() is a driver fault (contract 8: once each)",
        check: "sections.namespaces_listed_once",
        also_caught_by: &["store.bulk", "model.differential"],
        description: "namespaces() groups by (namespace, category), listing a mixed namespace once per category",
        wrap: SplitsNamespacesByCategory::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "prefix-pinned-recall",
        rule: "section API: a hit from another namespace than the one a recall was pinned to is a driver fault",
        check: "sections.pinned_hits_only",
        also_caught_by: &["recall.limit", "recall.namespace_isolation", "namespace.reserved_words", "properties.across_ordering", "properties.cap_determinism", "properties.pinning_cost", "properties.truncation", "properties.concurrent_equals_sequential", "model.differential"],
        description: "a recall pinned to learning:rust also searches learning:rust-async (namespace LIKE ? || '%')",
        wrap: PrefixPinnedRecall::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "merges-metadata-on-upsert",
        rule: "contract 1: an upsert replaces category, session and taint; metadata is never merged",
        check: "store.upsert_replaces_metadata",
        also_caught_by: &["store.bulk", "portability.taint_kept", "model.differential"],
        description: "a store without a session keeps the session of the entry it replaces",
        wrap: MetadataFault::new(MetadataFaultKind::MergesMetadataOnUpsert),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "epoch-timestamps",
        rule: "contract: a timestamp is the RFC 3339 time of the store",
        check: "store.timestamps",
        also_caught_by: &["store.bulk", "namespaces.last_updated", "portability.taint_kept", "portability.import_hostile", "portability.import_failures"],
        description: "every timestamp read back, last_updated included, is 1970-01-01T00:00:00Z",
        wrap: MetadataFault::new(MetadataFaultKind::EpochTimestamps),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "oldest-last-updated",
        rule: "contract 8: last_updated is the newest timestamp of the namespace's entries",
        check: "namespaces.last_updated",
        also_caught_by: &[],
        description: "namespaces() gives the oldest timestamp as last_updated",
        wrap: MetadataFault::new(MetadataFaultKind::OldestLastUpdated),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "bytewise-last-updated",
        rule: "contract 8: last_updated is the newest timestamp by instant, whatever its spelling",
        check: "namespaces.last_updated",
        also_caught_by: &[],
        description: "namespaces() gives the bytewise greatest timestamp as last_updated (SQL MAX over the text)",
        wrap: MetadataFault::new(MetadataFaultKind::BytewiseLastUpdated),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "joined-ids",
        rule: "contract 1: an entry is identified by (namespace, key), never by the two joined",
        check: "store.distinct_identities",
        also_caught_by: &[],
        description: "entries are identified by namespace + \"/\" + key, so (learning:a/b, c) and (learning:a, b/c) are one",
        wrap: MetadataFault::new(MetadataFaultKind::JoinedIds),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "inverted-list-category",
        rule: "contract: list keeps exactly the entries of the category asked",
        check: "list.filters",
        also_caught_by: &["model.differential"],
        description: "list with a category keeps every other category",
        wrap: MetadataFault::new(MetadataFaultKind::InvertedListCategory),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "inverted-recall-session",
        rule: "contract: recall keeps exactly the entries of the session asked",
        check: "recall.filters",
        also_caught_by: &["recall.limit", "store.upsert_replaces_metadata", "model.differential"],
        description: "recall with a session keeps every other session",
        wrap: MetadataFault::new(MetadataFaultKind::InvertedRecallSession),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "limit-as-i64",
        rule: "contract 5: any limit up to 2^64 - 1 is valid",
        check: "recall.huge_limit",
        also_caught_by: &[],
        description: "a limit above i64::MAX is a backend error, as an SQL LIMIT binding would be",
        wrap: MetadataFault::new(MetadataFaultKind::LimitAsI64),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "collection-wide-statistics",
        rule: "contract 11: a pinned recall returns the same hits and score bits whatever other namespaces hold",
        check: "recall.namespace_isolation",
        also_caught_by: &[],
        description: "scores are weighted by a BM25 IDF counted over every namespace, as FTS5's bm25() is, so a write elsewhere changes them",
        wrap: CollectionWideStatistics::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "overlapping-pages",
        rule: "portability: every entry is in exactly one page of an export",
        check: "portability.pages_partition",
        also_caught_by: &["portability.end_of_export", "portability.page_limits", "portability.cursor_stable", "portability.round_trip", "portability.import_hostile", "properties.export_partition", "properties.export_round_trip"],
        description: "each page after the first starts with the previous page's last record, as resuming with >= instead of > does",
        wrap: OverlappingPages::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "cursor-restarts",
        rule: "portability: a malformed cursor is Invalid, never a restart",
        check: "portability.unknown_cursor",
        also_caught_by: &[],
        description: "an unknown cursor silently restarts the export from the first record",
        wrap: CursorRestarts::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "empty-page-ends",
        rule: "portability: only next_cursor None ends an export, and only when no record follows",
        check: "portability.end_of_export",
        also_caught_by: &["portability.pages_partition", "portability.cursor_stable", "portability.round_trip", "portability.import_hostile", "properties.export_partition", "properties.export_round_trip"],
        description: "pages stop at namespace boundaries and an exhausted namespace gives an empty page with next_cursor None, records left",
        wrap: EmptyPageEnds::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "partial-batch",
        rule: "bulk store: one invalid entry refuses the whole batch, nothing of it stored",
        check: "store.bulk",
        also_caught_by: &[],
        description: "store_many stores entry by entry without validating first, keeping what came before an invalid entry",
        wrap: PartialBatch::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "import-drops-taint",
        rule: "portability: an import keeps every field, taint included (ExternalSync stays ExternalSync)",
        check: "portability.taint_kept",
        also_caught_by: &["portability.round_trip", "portability.import_hostile", "properties.export_round_trip"],
        description: "import writes every record as MemoryTaint::Internal",
        wrap: ImportDropsTaint::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "default-category-kept",
        rule: "contract 1: an upsert replaces the category, the default core included; metadata is never merged",
        check: "store.upsert_replaces_metadata",
        also_caught_by: &["model.differential"],
        description: "a store of category core over an entry of another category keeps the old one, as patch semantics reading the default as not given do",
        wrap: DefaultsAsAbsent::new(UpsertPath::Store, DefaultFields::CATEGORY),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "defaults-kept-by-store-many",
        rule: "bulk store: an entry of a batch replaces category, session and taint, defaults included",
        check: "store.upsert_replaces_metadata",
        also_caught_by: &[],
        description: "store_many over existing keys keeps the stored category, session and taint where the entry gives core, no session or internal",
        wrap: DefaultsAsAbsent::new(UpsertPath::StoreMany, DefaultFields::ALL),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "defaults-kept-by-import",
        rule: "portability: an import replaces category, session and taint, defaults included",
        check: "portability.taint_kept",
        also_caught_by: &[],
        description: "import over existing keys keeps the stored category, session and taint where the record gives core, no session or internal",
        wrap: DefaultsAsAbsent::new(UpsertPath::Import, DefaultFields::ALL),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "bm25-sign-as-match",
        rule: "lexical: every entry sharing a word with the query is a hit, whatever its BM25 weight",
        check: "recall.none_means_global",
        also_caught_by: &["recall.hit_namespace", "recall.limit", "forget.idempotent", "recall.common_words", "recall.self_retrieval", "recall.filters", "recall.huge_limit", "store.big_content_round_trip", "namespace.case_sensitive", "namespace.no_wildcards", "namespace.reserved_words", "sections.across_merge_order", "sections.cap_and_truncation", "sections.namespaces_listed_once", "sections.pinned_hits_only", "sections.view_recall_pinned", "portability.import_hostile", "model.differential"],
        description: "a hit is kept only when its Okapi BM25 weight is above 0, so the only entry of a namespace is never found",
        wrap: Bm25SignAsMatch::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "reserves-own-name",
        rule: "namespaces: every valid name is a namespace, whatever word its first label is",
        check: "namespace.reserved_words",
        also_caught_by: &["properties.across_ordering", "properties.cap_determinism", "properties.pinning_cost", "properties.truncation", "properties.concurrent_equals_sequential", "properties.export_partition", "properties.export_round_trip"],
        description: "a namespace whose first label is langgraph is refused, as one agent framework's store refuses its own name",
        wrap: ReservesName::langgraph(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "drops-stop-words",
        rule: "lexical: every entry sharing a word with the query is a hit, stop words and one-letter words included",
        check: "recall.common_words",
        also_caught_by: &[],
        description: "the query's English stop words (Lucene's list: the, is, it, be, not, a, ...) are dropped before the search, so recall(\"be\") finds nothing",
        wrap: DropsStopWords::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "utf16-key-order",
        rule: "contract: list orders entries by (namespace, key), bytewise (UTF-8), not by UTF-16 code units",
        check: "store.hostile_text_round_trip",
        also_caught_by: &["portability.round_trip"],
        description: "list sorts by UTF-16 code units, as JavaScript's default string comparison does, so a key starting at or above U+E000 comes after an astral one",
        wrap: Utf16KeyOrder::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "leap-second-any-day",
        rule: "portability: an import refuses a timestamp that is not RFC 3339, a leap second outside 23:59:60 UTC on a month's last day included",
        check: "portability.import_failures",
        also_caught_by: &[],
        description: "import takes a second of 60 on any day and at any minute, read as 59, as a parser checking each field's range alone does",
        wrap: LeapSecondAnyDay::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "years-below-100-shifted",
        rule: "metadata: last_updated is the namespace's newest timestamp by instant, years 0000-0099 included",
        check: "namespaces.last_updated",
        also_caught_by: &[],
        description: "namespaces() compares timestamps of years 0000-0099 as 1900-1999, as JavaScript's Date.UTC reads a year below 100",
        wrap: ShiftedEarlyYears::new(),
        profile: RecallProfile::Lexical,
    },
    entry! {
        name: "distance-scores",
        rule: "contract 4: scores are higher-is-better; a distance (lower = nearer) converts",
        check: "recall.ranking_higher_better",
        also_caught_by: &["recall.min_score", "recall.self_retrieval", "recall.reindexed_on_upsert", "model.differential"],
        description: "scores are the cosine distance 1 - s, nearest first, as a vector store returns them",
        wrap: RankingFault::new(RankingFaultKind::DistanceScores),
        profile: RecallProfile::Semantic,
    },
    entry! {
        name: "jittered-scores",
        rule: "ranking: the same recall on unchanged data returns identical hits and score bits",
        check: "recall.deterministic",
        also_caught_by: &["recall.limit", "recall.min_score", "recall.namespace_isolation", "properties.across_ordering", "properties.cap_determinism", "properties.custom_spelling", "properties.concurrent_equals_sequential", "model.differential"],
        description: "the n-th recall adds n * 1e-12 to every score",
        wrap: RankingFault::new(RankingFaultKind::JitteredScores),
        profile: RecallProfile::Semantic,
    },
    entry! {
        name: "length-scaled-scores",
        rule: "ranking: an entry's own content ranks that entry first",
        check: "recall.self_retrieval",
        also_caught_by: &[],
        description: "scores are multiplied by the content's length, like an inner product over unnormalised embeddings",
        wrap: RankingFault::new(RankingFaultKind::LengthScaledScores),
        profile: RecallProfile::Semantic,
    },
    entry! {
        name: "min-score-exclusive",
        rule: "contract 7: min_score keeps exactly the hits scoring >= it",
        check: "recall.min_score",
        also_caught_by: &[],
        description: "a hit scoring exactly min_score is dropped (> instead of >=)",
        wrap: RankingFault::new(RankingFaultKind::MinScoreExclusive),
        profile: RecallProfile::Semantic,
    },
    entry! {
        name: "short-top-k",
        rule: "contract 5: a recall returns min(limit, entries passing the filters) hits",
        check: "recall.limit",
        also_caught_by: &["recall.hit_namespace", "recall.min_score", "recall.ranking_higher_better", "recall.filters", "recall.huge_limit", "sections.namespaces_listed_once", "model.differential"],
        description: "a recall of two hits or more loses its last one",
        wrap: RankingFault::new(RankingFaultKind::ShortTopK),
        profile: RecallProfile::Semantic,
    },
    entry! {
        name: "ignores-pin",
        rule: "section API: a hit from another namespace than the one a recall was pinned to is a driver fault",
        check: "sections.pinned_hits_only",
        also_caught_by: &["recall.none_means_global", "recall.hit_namespace", "recall.limit", "recall.self_retrieval", "recall.namespace_isolation", "recall.filters", "recall.hostile_queries", "namespace.case_sensitive", "namespace.no_wildcards", "namespace.reserved_words", "sections.across_merge_order", "sections.cap_and_truncation", "sections.namespaces_listed_once", "sections.view_recall_pinned", "properties.across_ordering", "properties.cap_determinism", "properties.pinning_cost", "properties.truncation", "properties.concurrent_equals_sequential", "model.differential"],
        description: "a pinned recall ranks the entries of every namespace, as a collection-wide vector search",
        wrap: RankingFault::new(RankingFaultKind::IgnoresPin),
        profile: RecallProfile::Semantic,
    },
    entry! {
        name: "stale-embedding-on-upsert",
        rule: "ranking: an upsert, a bulk store or an import over a key re-embeds its new content",
        check: "recall.reindexed_on_upsert",
        also_caught_by: &["recall.self_retrieval", "portability.round_trip"],
        description: "a write over an existing key keeps the embedding of the entry's first content, while get and list show the new one",
        wrap: StaleIndex::new(&[UpsertPath::Store, UpsertPath::StoreMany, UpsertPath::Import]),
        profile: RecallProfile::Semantic,
    },
    entry! {
        name: "zero-query-nan",
        rule: "contract 6: a query without a word is plain text, never an error or a NaN score",
        check: "recall.plain_text_query",
        also_caught_by: &["recall.hostile_queries", "model.differential"],
        description: "a non-blank query without a word scores every hit NaN, as cosine against the zero vector its embedding is",
        wrap: ZeroQueryNan::new(),
        profile: RecallProfile::Semantic,
    },
    entry! {
        name: "js-blank-set",
        rule: "contract 6: an empty or whitespace-only query (Unicode White_Space) gives Ok(empty)",
        check: "recall.plain_text_query",
        also_caught_by: &[],
        description: "blankness is decided by JavaScript's trim(): a query of U+0085 ranks every entry, and one of U+FEFF alone gives nothing",
        wrap: JsBlankSet::new(),
        profile: RecallProfile::Semantic,
    },
];

/// Every mutant: the sentences of the contract in order, then the
/// namespace rules, then the section API rules, then the mutants of
/// metadata, identities, filters and limits, then contract sentence 11
/// and the portability family, then the mutants of a ranking engine
/// (semantic profile). Names are unique; several
/// mutants may name the same check.
#[must_use]
pub fn mutants() -> &'static [Mutant] {
    MUTANTS
}

/// The mutant named `name`, if any.
#[must_use]
pub fn mutant(name: &str) -> Option<&'static Mutant> {
    MUTANTS.iter().find(|m| m.name == name)
}
