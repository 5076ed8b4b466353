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

/// The standard checks, in run order: the one list that both the
/// registry ([`all`]) and [`conformance_tests!`](crate::conformance_tests)'s
/// test functions are made from, so a new check is declared once.
///
/// `__tinymemory_standard_checks!([callback] args)` calls
/// `callback! { args; row; row; ... }`, each row either
/// `test_name => "check.id" [Family, PROFILES, "description", body];` (a
/// check whose body is an `async fn(CheckContext) -> Step` of a module
/// below) or `test_name => "check.id" (path::TO_A_CHECK);` (a check
/// declared whole in its own module: the properties and the model). The
/// test name is the id with `.` as `_`; a unit test below holds both that
/// and a declared check's id to the row's.
#[doc(hidden)]
#[macro_export]
macro_rules! __tinymemory_standard_checks {
    ([$($callback:tt)*] $($args:tt)*) => {
        $($callback)*! {
            $($args)*;
            store_upsert => "store.upsert" [
                Contract, BOTH,
                "a second store at (namespace, key) replaces the first; category, session and taint are kept as given",
                store::upsert
            ];
            recall_none_means_global => "recall.none_means_global" [
                Contract, BOTH,
                "recall with namespace None searches `global` only, never every namespace",
                recall::none_means_global
            ];
            recall_hit_namespace => "recall.hit_namespace" [
                Contract, BOTH,
                "every recall hit carries Some(the namespace it lives in)",
                recall::hit_namespace
            ];
            recall_scores_finite_higher_better => "recall.scores_finite_higher_better" [
                Contract, LEXICAL,
                "scores are finite, higher is better, and hits come best first",
                recall::scores_finite_higher_better
            ];
            recall_limit => "recall.limit" [
                Contract, BOTH,
                "recall returns min(limit, entries of the namespace passing the category and session filters) hits when all hold the query word, and limit 0 returns Ok(empty)",
                recall::limit
            ];
            recall_plain_text_query => "recall.plain_text_query" [
                Contract, BOTH,
                "queries are plain text: operators, quotes and punctuation never error or act as syntax",
                recall::plain_text_query
            ];
            recall_min_score => "recall.min_score" [
                Contract, BOTH,
                "recall with min_score = s returns exactly the hits of the same recall without it scoring >= s, in the same order; unscored hits are dropped",
                recall::min_score
            ];
            namespaces_exact_counts => "namespaces.exact_counts" [
                Contract, BOTH,
                "namespaces() lists every non-empty namespace once with its exact count",
                namespaces::exact_counts
            ];
            namespace_invalid_refused => "namespace.invalid_refused" [
                Contract, BOTH,
                "an invalid namespace is MemoryError::Invalid naming the rule broken, on every method, and nothing is stored",
                hostile::invalid_refused
            ];
            forget_idempotent => "forget.idempotent" [
                Contract, BOTH,
                "forget returns true then false, and the entry is gone from get, list, namespaces and recall",
                forget::idempotent
            ];
            recall_whole_words => "recall.whole_words" [
                Contract, LEXICAL,
                "a hit shares a whole word with the query: punctuation separates words, accents and combining marks belong to their words, and a word inside another is no match",
                recall::whole_words
            ];
            recall_ranking_higher_better => "recall.ranking_higher_better" [
                Contract, SEMANTIC,
                "scores are finite and non-increasing down the hits, and the entry whose content is the query ranks first, above the farthest",
                ranking::ranking_higher_better
            ];
            recall_deterministic => "recall.deterministic" [
                Contract, BOTH,
                "the same recall on unchanged data returns identical hits with identical score bits",
                ranking::deterministic
            ];
            recall_self_retrieval => "recall.self_retrieval" [
                Contract, BOTH,
                "an entry's own content used as the query ranks that entry first in its namespace",
                ranking::self_retrieval
            ];
            recall_reindexed_on_upsert => "recall.reindexed_on_upsert" [
                Contract, BOTH,
                "after store, store_many or import over an existing key, recall ranks the entry by its new content: first on the new text, strictly below an entry holding the old text on that",
                reindex::reindexed_on_upsert
            ];
            recall_namespace_isolation => "recall.namespace_isolation" [
                Contract, BOTH,
                "a recall pinned to a namespace returns the same hits with the same score bits whatever is stored, upserted or forgotten in other namespaces",
                isolation::namespace_isolation
            ];
            store_bulk => "store.bulk" [
                Contract, BOTH,
                "store_many stores a batch as the same stores would (a later entry of a key wins, the index included), stamps it with the time of the call, and refuses a batch with an invalid entry naming its rule, storing nothing of it",
                bulk::store_many
            ];
            store_upsert_replaces_metadata => "store.upsert_replaces_metadata" [
                Contract, BOTH,
                "an upsert replaces category, session and taint, a session with none included, and writing the defaults (core, no session, internal) over other values through store or store_many replaces them: metadata is never merged",
                metadata::upsert_replaces_metadata
            ];
            store_timestamps => "store.timestamps" [
                Contract, BOTH,
                "an entry's timestamp is RFC 3339, within a minute of the store, never goes back on an upsert, and is the same from get, list and recall",
                metadata::timestamps
            ];
            namespaces_last_updated => "namespaces.last_updated" [
                Contract, BOTH,
                "namespaces() gives each namespace, when it gives last_updated, the newest timestamp of its entries by instant, after upserts and forgets, and after imports of other RFC 3339 spellings",
                metadata::last_updated
            ];
            store_distinct_identities => "store.distinct_identities" [
                Contract, BOTH,
                "(learning:a/b, c) and (learning:a, b/c) are two entries: an identity is never namespace and key joined by a separator",
                metadata::distinct_identities
            ];
            list_filters => "list.filters" [
                Contract, BOTH,
                "list keeps exactly the entries of the category and session asked, in one namespace or all",
                metadata::list_filters
            ];
            recall_filters => "recall.filters" [
                Contract, BOTH,
                "recall keeps exactly the entries of the category and session asked",
                metadata::recall_filters
            ];
            recall_huge_limit => "recall.huge_limit" [
                Contract, BOTH,
                "a limit up to 2^64 - 1 is no error and returns every hit",
                metadata::huge_limit
            ];
            store_hostile_text_round_trip => "store.hostile_text_round_trip" [
                Contract, BOTH,
                "keys and contents with SQL metacharacters, NUL, emoji, RTL and combining marks round-trip byte for byte",
                hostile::text_round_trip
            ];
            store_big_content_round_trip => "store.big_content_round_trip" [
                Contract, BOTH,
                "a 1 MiB content with NULs and multibyte text round-trips byte for byte and is recalled",
                hostile::big_content_round_trip
            ];
            recall_hostile_queries => "recall.hostile_queries" [
                Contract, BOTH,
                "every hostile text used as a query is Ok and finds only its own namespace",
                hostile::hostile_queries
            ];
            store_concurrent_writes => "store.concurrent_writes" [
                Contract, BOTH,
                "stores running at once through one driver (8 writers x 25 keys) are all kept: every key readable, counts exact",
                concurrency::concurrent_writes
            ];
            namespace_case_sensitive => "namespace.case_sensitive" [
                Contract, BOTH,
                "namespaces compare byte for byte: learning:Rust, learning:rust and learning:RUST are three namespaces",
                namespace_rules::case_sensitive
            ];
            namespace_no_wildcards => "namespace.no_wildcards" [
                Contract, BOTH,
                "a namespace argument matches only itself: _ and . in learning:a_b and learning:a.b are plain characters",
                namespace_rules::no_wildcards
            ];
            namespace_reserved_words => "namespace.reserved_words" [
                Contract, BOTH,
                "names that look reserved (engine names, default, global, public, system, null, true, none, SQL keywords, common table and collection names) are ordinary namespaces, first labels and keys",
                namespace_rules::reserved_words
            ];
            sections_custom_spelling => "sections.custom_spelling" [
                Sections, BOTH,
                "a known section spelled as Custom is the same section: writes land under its prefix",
                sections::custom_spelling
            ];
            sections_invalid_section_refused => "sections.invalid_section_refused" [
                Sections, BOTH,
                "an unusable custom section errors on every call, the enumerating ones included",
                sections::invalid_section_refused
            ];
            sections_across_merge_order => "sections.across_merge_order" [
                Sections, BOTH,
                "across_section merges by score descending, ties by (namespace, key), min(limit, total) hits",
                sections::across_merge_order
            ];
            sections_cap_and_truncation => "sections.cap_and_truncation" [
                Sections, BOTH,
                "the cap visits namespaces by count then name, and truncated means namespaces were skipped",
                sections::cap_and_truncation
            ];
            sections_namespace_filter_conflict => "sections.namespace_filter_conflict" [
                Sections, BOTH,
                "across_section refuses opts.namespace with NAMESPACE_FILTER_CONFLICT",
                sections::namespace_filter_conflict
            ];
            sections_namespaces_listed_once => "sections.namespaces_listed_once" [
                Sections, BOTH,
                "namespaces() lists a namespace mixing categories and sessions once, so across_section and scopes() see no driver fault",
                section_faults::namespaces_listed_once
            ];
            sections_pinned_hits_only => "sections.pinned_hits_only" [
                Sections, BOTH,
                "a recall pinned to learning:rust answers from it alone (not learning:rust-async), so across_section sees no driver fault",
                section_faults::pinned_hits_only
            ];
            sections_view_recall_pinned => "sections.view_recall_pinned" [
                Sections, BOTH,
                "a section view's recall(scope, ..) searches <section>:<scope> only, never global",
                metadata::view_recall_pinned
            ];
            corpus_namespace_counts => "corpus.namespace_counts" [
                Corpus, BOTH,
                "after loading the corpus, namespaces() reports exactly the loaded entries per namespace",
                corpus::namespace_counts
            ];
            corpus_recall_own_words => "corpus.recall_own_words" [
                Corpus, LEXICAL,
                "in every corpus namespace, an entry is recalled by the longest word it contains",
                corpus::recall_own_words
            ];
            corpus_self_retrieval => "corpus.self_retrieval" [
                Corpus, SEMANTIC,
                "in every corpus namespace, entries (positions 0, 1, 2, 4, 8, ...) recalled by their own full text (when it has a word) rank first, behind only ties, hits holding all its words and hits made only of its words (a shorter text BM25 may rank higher)",
                corpus::self_retrieval
            ];
            portability_pages_partition => "portability.pages_partition" [
                Portability, BOTH,
                "export pages of 1, 2, 7, n - 1, n, n + 1 and 1000 records hold every entry of list(None, ..) exactly once, in (namespace, key) order, every field as listed",
                portability::pages_partition
            ];
            portability_end_of_export => "portability.end_of_export" [
                Portability, BOTH,
                "an empty store's export ends with no records, and an empty page is never the end while records remain: only next_cursor None ends an export",
                portability::end_of_export
            ];
            portability_page_limits => "portability.page_limits" [
                Portability, BOTH,
                "a limit of 0 returns no records and a cursor that keeps the place (at the start and mid-export); a limit of usize::MAX returns every record",
                portability::page_limits
            ];
            portability_unknown_cursor => "portability.unknown_cursor" [
                Portability, BOTH,
                "a cursor that is not well-formed in the driver's format (garbled, truncated, edited) is MemoryError::Invalid with rule export.cursor_unknown, never a silent restart, and changes nothing",
                portability::unknown_cursor
            ];
            portability_cursor_stable => "portability.cursor_stable" [
                Portability, BOTH,
                "between pages, forgetting the entry a cursor stands on and storing, upserting or forgetting others: the export resumes after the cursor, and every entry present throughout comes exactly once",
                portability::cursor_stable
            ];
            portability_round_trip => "portability.round_trip" [
                Portability, BOTH,
                "export, then import into a fresh store, gives the same list(None, ..) (every field but id) and namespaces(); imported entries are recalled; a second import changes nothing",
                portability::round_trip
            ];
            portability_taint_kept => "portability.taint_kept" [
                Portability, BOTH,
                "import keeps taint (ExternalSync stays ExternalSync, through an export too), category, session and the timestamp byte for byte; importing a key again replaces its taint, and the defaults (core, no session, internal) replace other values",
                portability::taint_kept
            ];
            portability_import_hostile => "portability.import_hostile" [
                Portability, BOTH,
                "hostile keys and contents and a 1 MiB content are imported and read back and exported byte for byte",
                portability::import_hostile
            ];
            portability_import_failures => "portability.import_failures" [
                Portability, BOTH,
                "an import reports each invalid record (namespace, key, timestamp) with its index and rule, and writes exactly the valid ones",
                portability::import_failures
            ];
            properties_across_ordering => "properties.across_ordering" ($crate::properties::ACROSS_ORDERING);
            properties_cap_determinism => "properties.cap_determinism" ($crate::properties::CAP_DETERMINISM);
            properties_custom_spelling => "properties.custom_spelling" ($crate::properties::CUSTOM_SPELLING);
            properties_namespace_round_trip => "properties.namespace_round_trip" ($crate::properties::NAMESPACE_ROUND_TRIP);
            properties_pinning_cost => "properties.pinning_cost" ($crate::properties::PINNING_COST);
            properties_truncation => "properties.truncation" ($crate::properties::TRUNCATION);
            properties_concurrent_equals_sequential => "properties.concurrent_equals_sequential" ($crate::properties::CONCURRENCY);
            properties_export_partition => "properties.export_partition" ($crate::properties::EXPORT_PARTITION);
            properties_export_round_trip => "properties.export_round_trip" ($crate::properties::EXPORT_ROUND_TRIP);
            model_differential => "model.differential" ($crate::model::DIFFERENTIAL);
        }
    };
}

/// Builds one [`Check`] of a row of [`__tinymemory_standard_checks!`].
macro_rules! row {
    ($id:literal, [$family:ident, $profiles:ident, $desc:literal, $body:path]) => {
        $crate::Check {
            id: $id,
            family: $crate::Family::$family,
            profiles: $crate::Profiles::$profiles,
            description: $desc,
            run: |ctx| Box::pin(async move { $crate::failure::outcome($body(ctx).await) }),
        }
    };
    ($id:literal, ($check:path)) => {
        $check
    };
}

/// The registry's checks of the rows.
macro_rules! checks_of {
    (; $($test:ident => $id:literal $def:tt;)*) => {
        vec![$(row!($id, $def)),*]
    };
}

/// Every standard check, contract sentences first in SPEC order.
pub(crate) fn all() -> Vec<Check> {
    crate::__tinymemory_standard_checks!([checks_of])
}

#[cfg(test)]
mod tests {
    use crate::Registry;

    /// Collects the table's rows as `(test name, check id)` pairs.
    macro_rules! listed {
        (; $($test:ident => $id:literal $def:tt;)*) => {
            vec![$((stringify!($test), $id)),*]
        };
    }

    #[test]
    fn the_table_rows_name_the_checks_they_build() {
        let listed: Vec<(&str, &str)> = crate::__tinymemory_standard_checks!([listed]);
        let ids: Vec<&str> = listed.iter().map(|(_, id)| *id).collect();
        let registry: Vec<&str> = Registry::standard().checks().iter().map(|c| c.id).collect();
        // Differs only where a row names a check declared in its own
        // module under another id.
        assert_eq!(
            ids, registry,
            "the row ids of __tinymemory_standard_checks!"
        );
        for (test, id) in listed {
            assert_eq!(test, id.replace('.', "_"), "the test name of {id}");
        }
    }
}
