//! The standard checks, one module per area.

mod bulk;
mod concurrency;
mod corpus;
mod forget;
mod hostile;
mod isolation;
mod metadata;
mod namespace_rules;
mod namespaces;
pub(crate) mod portability;
mod ranking;
mod recall;
mod reindex;
mod section_faults;
mod sections;
mod store;
mod support;

use crate::Check;

/// Declares a [`Check`] whose body is an `async fn(CheckContext) -> Step`.
macro_rules! check {
    ($id:literal, $family:ident, $desc:literal, $body:path) => {
        check!($id, $family, BOTH, $desc, $body)
    };
    ($id:literal, $family:ident, $profiles:ident, $desc:literal, $body:path) => {
        $crate::Check {
            id: $id,
            family: $crate::Family::$family,
            profiles: $crate::Profiles::$profiles,
            description: $desc,
            run: |ctx| Box::pin(async move { $crate::failure::outcome($body(ctx).await) }),
        }
    };
}

/// Every standard check, contract sentences first in SPEC order.
pub(crate) fn all() -> Vec<Check> {
    vec![
        check!(
            "store.upsert",
            Contract,
            "a second store at (namespace, key) replaces the first; category, session and taint are kept as given",
            store::upsert
        ),
        check!(
            "recall.none_means_global",
            Contract,
            "recall with namespace None searches `global` only, never every namespace",
            recall::none_means_global
        ),
        check!(
            "recall.hit_namespace",
            Contract,
            "every recall hit carries Some(the namespace it lives in)",
            recall::hit_namespace
        ),
        check!(
            "recall.scores_finite_higher_better",
            Contract,
            LEXICAL,
            "scores are finite, higher is better, and hits come best first",
            recall::scores_finite_higher_better
        ),
        check!(
            "recall.limit",
            Contract,
            "recall returns min(limit, entries of the namespace passing the category and session filters) hits when all hold the query word, and limit 0 returns Ok(empty)",
            recall::limit
        ),
        check!(
            "recall.plain_text_query",
            Contract,
            "queries are plain text: operators, quotes and punctuation never error or act as syntax",
            recall::plain_text_query
        ),
        check!(
            "recall.min_score",
            Contract,
            "recall with min_score = s returns exactly the hits of the same recall without it scoring >= s, in the same order; unscored hits are dropped",
            recall::min_score
        ),
        check!(
            "namespaces.exact_counts",
            Contract,
            "namespaces() lists every non-empty namespace once with its exact count",
            namespaces::exact_counts
        ),
        check!(
            "namespace.invalid_refused",
            Contract,
            "an invalid namespace is MemoryError::Invalid naming the rule broken, on every method, and nothing is stored",
            hostile::invalid_refused
        ),
        check!(
            "forget.idempotent",
            Contract,
            "forget returns true then false, and the entry is gone from get, list, namespaces and recall",
            forget::idempotent
        ),
        check!(
            "recall.whole_words",
            Contract,
            LEXICAL,
            "a hit shares a whole word with the query: punctuation separates words, accents and combining marks belong to their words, and a word inside another is no match",
            recall::whole_words
        ),
        check!(
            "recall.ranking_higher_better",
            Contract,
            SEMANTIC,
            "scores are finite and non-increasing down the hits, and the entry whose content is the query ranks first, above the farthest",
            ranking::ranking_higher_better
        ),
        check!(
            "recall.deterministic",
            Contract,
            "the same recall on unchanged data returns identical hits with identical score bits",
            ranking::deterministic
        ),
        check!(
            "recall.self_retrieval",
            Contract,
            "an entry's own content used as the query ranks that entry first in its namespace",
            ranking::self_retrieval
        ),
        check!(
            "recall.reindexed_on_upsert",
            Contract,
            "after store, store_many or import over an existing key, recall ranks the entry by its new content: first on the new text, strictly below an entry holding the old text on that",
            reindex::reindexed_on_upsert
        ),
        check!(
            "recall.namespace_isolation",
            Contract,
            "a recall pinned to a namespace returns the same hits with the same score bits whatever is stored, upserted or forgotten in other namespaces",
            isolation::namespace_isolation
        ),
        check!(
            "store.bulk",
            Contract,
            "store_many stores a batch as the same stores would (a later entry of a key wins, the index included), stamps it with the time of the call, and refuses a batch with an invalid entry naming its rule, storing nothing of it",
            bulk::store_many
        ),
        check!(
            "store.upsert_replaces_metadata",
            Contract,
            "an upsert replaces category, session and taint, a session with none included, and writing the defaults (core, no session, internal) over other values through store or store_many replaces them: metadata is never merged",
            metadata::upsert_replaces_metadata
        ),
        check!(
            "store.timestamps",
            Contract,
            "an entry's timestamp is RFC 3339, within a minute of the store, never goes back on an upsert, and is the same from get, list and recall",
            metadata::timestamps
        ),
        check!(
            "namespaces.last_updated",
            Contract,
            "namespaces() gives each namespace, when it gives last_updated, the newest timestamp of its entries by instant, after upserts and forgets, and after imports of other RFC 3339 spellings",
            metadata::last_updated
        ),
        check!(
            "store.distinct_identities",
            Contract,
            "(learning:a/b, c) and (learning:a, b/c) are two entries: an identity is never namespace and key joined by a separator",
            metadata::distinct_identities
        ),
        check!(
            "list.filters",
            Contract,
            "list keeps exactly the entries of the category and session asked, in one namespace or all",
            metadata::list_filters
        ),
        check!(
            "recall.filters",
            Contract,
            "recall keeps exactly the entries of the category and session asked",
            metadata::recall_filters
        ),
        check!(
            "recall.huge_limit",
            Contract,
            "a limit up to 2^64 - 1 is no error and returns every hit",
            metadata::huge_limit
        ),
        check!(
            "store.hostile_text_round_trip",
            Contract,
            "keys and contents with SQL metacharacters, NUL, emoji, RTL and combining marks round-trip byte for byte",
            hostile::text_round_trip
        ),
        check!(
            "store.big_content_round_trip",
            Contract,
            "a 1 MiB content with NULs and multibyte text round-trips byte for byte and is recalled",
            hostile::big_content_round_trip
        ),
        check!(
            "recall.hostile_queries",
            Contract,
            "every hostile text used as a query is Ok and finds only its own namespace",
            hostile::hostile_queries
        ),
        check!(
            "store.concurrent_writes",
            Contract,
            "stores running at once through one driver (8 writers x 25 keys) are all kept: every key readable, counts exact",
            concurrency::concurrent_writes
        ),
        check!(
            "namespace.case_sensitive",
            Contract,
            "namespaces compare byte for byte: learning:Rust, learning:rust and learning:RUST are three namespaces",
            namespace_rules::case_sensitive
        ),
        check!(
            "namespace.no_wildcards",
            Contract,
            "a namespace argument matches only itself: _ and . in learning:a_b and learning:a.b are plain characters",
            namespace_rules::no_wildcards
        ),
        check!(
            "namespace.reserved_words",
            Contract,
            "names that look reserved (engine names, default, global, public, system, null, true, none, SQL keywords, common table and collection names) are ordinary namespaces, first labels and keys",
            namespace_rules::reserved_words
        ),
        check!(
            "sections.custom_spelling",
            Sections,
            "a known section spelled as Custom is the same section: writes land under its prefix",
            sections::custom_spelling
        ),
        check!(
            "sections.invalid_section_refused",
            Sections,
            "an unusable custom section errors on every call, the enumerating ones included",
            sections::invalid_section_refused
        ),
        check!(
            "sections.across_merge_order",
            Sections,
            "across_section merges by score descending, ties by (namespace, key), min(limit, total) hits",
            sections::across_merge_order
        ),
        check!(
            "sections.cap_and_truncation",
            Sections,
            "the cap visits namespaces by count then name, and truncated means namespaces were skipped",
            sections::cap_and_truncation
        ),
        check!(
            "sections.namespace_filter_conflict",
            Sections,
            "across_section refuses opts.namespace with NAMESPACE_FILTER_CONFLICT",
            sections::namespace_filter_conflict
        ),
        check!(
            "sections.namespaces_listed_once",
            Sections,
            "namespaces() lists a namespace mixing categories and sessions once, so across_section and scopes() see no driver fault",
            section_faults::namespaces_listed_once
        ),
        check!(
            "sections.pinned_hits_only",
            Sections,
            "a recall pinned to learning:rust answers from it alone (not learning:rust-async), so across_section sees no driver fault",
            section_faults::pinned_hits_only
        ),
        check!(
            "sections.view_recall_pinned",
            Sections,
            "a section view's recall(scope, ..) searches <section>:<scope> only, never global",
            metadata::view_recall_pinned
        ),
        check!(
            "corpus.namespace_counts",
            Corpus,
            "after loading the corpus, namespaces() reports exactly the loaded entries per namespace",
            corpus::namespace_counts
        ),
        check!(
            "corpus.recall_own_words",
            Corpus,
            LEXICAL,
            "in every corpus namespace, an entry is recalled by the longest word it contains",
            corpus::recall_own_words
        ),
        check!(
            "corpus.self_retrieval",
            Corpus,
            SEMANTIC,
            "in every corpus namespace, entries (positions 0, 1, 2, 4, 8, ...) recalled by their own full text (when it has a word) rank first, behind only ties, hits holding all its words and hits made only of its words (a shorter text BM25 may rank higher)",
            corpus::self_retrieval
        ),
        check!(
            "portability.pages_partition",
            Portability,
            "export pages of 1, 2, 7, n - 1, n, n + 1 and 1000 records hold every entry of list(None, ..) exactly once, in (namespace, key) order, every field as listed",
            portability::pages_partition
        ),
        check!(
            "portability.end_of_export",
            Portability,
            "an empty store's export ends with no records, and an empty page is never the end while records remain: only next_cursor None ends an export",
            portability::end_of_export
        ),
        check!(
            "portability.page_limits",
            Portability,
            "a limit of 0 returns no records and a cursor that keeps the place (at the start and mid-export); a limit of usize::MAX returns every record",
            portability::page_limits
        ),
        check!(
            "portability.unknown_cursor",
            Portability,
            "a cursor that is not well-formed in the driver's format (garbled, truncated, edited) is MemoryError::Invalid with rule export.cursor_unknown, never a silent restart, and changes nothing",
            portability::unknown_cursor
        ),
        check!(
            "portability.cursor_stable",
            Portability,
            "between pages, forgetting the entry a cursor stands on and storing, upserting or forgetting others: the export resumes after the cursor, and every entry present throughout comes exactly once",
            portability::cursor_stable
        ),
        check!(
            "portability.round_trip",
            Portability,
            "export, then import into a fresh store, gives the same list(None, ..) (every field but id) and namespaces(); imported entries are recalled; a second import changes nothing",
            portability::round_trip
        ),
        check!(
            "portability.taint_kept",
            Portability,
            "import keeps taint (ExternalSync stays ExternalSync, through an export too), category, session and the timestamp byte for byte; importing a key again replaces its taint, and the defaults (core, no session, internal) replace other values",
            portability::taint_kept
        ),
        check!(
            "portability.import_hostile",
            Portability,
            "hostile keys and contents and a 1 MiB content are imported and read back and exported byte for byte",
            portability::import_hostile
        ),
        check!(
            "portability.import_failures",
            Portability,
            "an import reports each invalid record (namespace, key, timestamp) with its index and rule, and writes exactly the valid ones",
            portability::import_failures
        ),
        crate::properties::ACROSS_ORDERING,
        crate::properties::CAP_DETERMINISM,
        crate::properties::CUSTOM_SPELLING,
        crate::properties::NAMESPACE_ROUND_TRIP,
        crate::properties::PINNING_COST,
        crate::properties::TRUNCATION,
        crate::properties::CONCURRENCY,
        crate::properties::EXPORT_PARTITION,
        crate::properties::EXPORT_ROUND_TRIP,
        crate::model::DIFFERENTIAL,
    ]
}
