//! [`conformance_tests!`](crate::conformance_tests): one `#[test]` per
//! check.
//!
//! A registry is built at run time, but test functions must exist at compile
//! time, so the check ids are listed here, in registry order, by
//! `__tinymemory_check_ids!`. A unit test of this crate compares that list
//! with [`Registry::standard`](crate::Registry::standard), so a new check
//! cannot be left out of the macro.

/// Expands one driver factory into a module holding one `#[test]` per
/// standard check, so that `cargo test` (and nextest) list and report the
/// checks one by one: `my_driver::recall_limit`, `my_driver::model_differential`.
///
/// ```
/// # use tinymemory_reference::ReferenceDriver as MyDriver;
/// use tinymemory_conformance::RunConfig;
///
/// tinymemory_conformance::conformance_tests!(
///     my_driver,
///     || Ok(Box::new(MyDriver::new()) as _),
///     // Optional, in this order:
///     profile = tinymemory_api::RecallProfile::Lexical,
///     config = RunConfig { cases: 64, ..RunConfig::default() },
///     corpus = tinymemory_corpus::Corpus::default_root(),
///     expected_failures = {
///         "recall.min_score" => "the engine reports no scores; tracked in issue 12",
///     },
/// );
/// # fn main() {}
/// ```
///
/// - The first argument names the generated module; the factory (a closure
///   returning `Result<Box<dyn MemoryProvider>, MemoryError>`) must return a
///   fresh, empty driver on every call. Inside the module `use super::*` is
///   in force, so the factory may name the caller's items.
/// - `profile` holds the driver to a recall profile
///   ([`tinymemory_api::RecallProfile`]; default lexical); the tests of
///   checks of another profile pass at once, printing `skipped` and why.
/// - `config` defaults to [`RunConfig::default`](crate::RunConfig); either
///   way the environment overrides it
///   ([`RunConfig::with_env_overrides`](crate::RunConfig::with_env_overrides):
///   `TINYMEMORY_CASES`, `PROPTEST_CASES`, `TINYMEMORY_SEED`).
/// - `corpus` is a directory the corpus checks load into a fresh driver;
///   without it they are skipped.
/// - `expected_failures` maps check ids to the reason the driver fails them.
///   Such a check passes the test while it fails, and fails the test once it
///   starts passing, so the declaration is removed. A blank reason or an
///   unknown id fails every test of the module, and the generated test
///   `expected_failures_are_valid` names the problem.
///
/// Each test runs its check on a new current-thread Tokio runtime
/// ([`Harness::test`](crate::Harness::test)). A skipped check passes its
/// test and prints the reason to stderr (`cargo test -- --nocapture`).
#[macro_export]
macro_rules! conformance_tests {
    (
        $name:ident,
        $factory:expr
        $(, profile = $profile:expr)?
        $(, config = $config:expr)?
        $(, corpus = $corpus:expr)?
        $(, expected_failures = { $($id:literal => $reason:literal),* $(,)? })?
        $(,)?
    ) => {
        $crate::__tinymemory_check_ids! {
            [$crate::__tinymemory_conformance_module]
            [$name] [$factory] [$($profile)?] [$($config)?] [$($corpus)?] [$($($id => $reason),*)?]
        }
    };
}

/// Not public API: the module [`conformance_tests!`] generates.
#[doc(hidden)]
#[macro_export]
macro_rules! __tinymemory_conformance_module {
    (
        [$name:ident] [$factory:expr] [$($profile:expr)?] [$($config:expr)?] [$($corpus:expr)?]
        [$($id:literal => $reason:literal),*];
        $($test:ident => $check:literal),* $(,)?
    ) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            fn harness() -> $crate::Harness {
                #[allow(unused_mut)]
                let mut config = $crate::RunConfig::default();
                $( config = $config; )?
                let config = config
                    .with_env_overrides()
                    .unwrap_or_else(|e| panic!("{e}"));
                #[allow(unused_mut)]
                let mut harness = $crate::Harness::from_fn(stringify!($name), $factory).with_config(config);
                $( harness = harness.with_profile($profile); )?
                $( harness = harness.with_corpus($corpus); )?
                harness $( .expect_failure($id, $reason) )*
            }

            #[test]
            fn expected_failures_are_valid() {
                if let Err(e) = harness().validate() {
                    panic!("{e}");
                }
            }

            $(
                #[test]
                fn $test() {
                    harness().test($check);
                }
            )*
        }
    };
}

/// Not public API: `__tinymemory_check_ids!([callback] args)` calls
/// `callback! { args; test_name => "check.id", ... }`
/// with every standard check, in registry order.
#[doc(hidden)]
#[macro_export]
macro_rules! __tinymemory_check_ids {
    ([$($callback:tt)*] $($args:tt)*) => {
        $($callback)*! {
            $($args)*;
            // BEGIN CHECK IDS (registry order; the test below compares)
            store_upsert => "store.upsert",
            recall_none_means_global => "recall.none_means_global",
            recall_hit_namespace => "recall.hit_namespace",
            recall_scores_finite_higher_better => "recall.scores_finite_higher_better",
            recall_limit => "recall.limit",
            recall_plain_text_query => "recall.plain_text_query",
            recall_min_score => "recall.min_score",
            namespaces_exact_counts => "namespaces.exact_counts",
            namespace_invalid_refused => "namespace.invalid_refused",
            forget_idempotent => "forget.idempotent",
            recall_whole_words => "recall.whole_words",
            recall_ranking_higher_better => "recall.ranking_higher_better",
            recall_deterministic => "recall.deterministic",
            recall_self_retrieval => "recall.self_retrieval",
            recall_reindexed_on_upsert => "recall.reindexed_on_upsert",
            recall_namespace_isolation => "recall.namespace_isolation",
            store_bulk => "store.bulk",
            store_upsert_replaces_metadata => "store.upsert_replaces_metadata",
            store_timestamps => "store.timestamps",
            namespaces_last_updated => "namespaces.last_updated",
            store_distinct_identities => "store.distinct_identities",
            list_filters => "list.filters",
            recall_filters => "recall.filters",
            recall_huge_limit => "recall.huge_limit",
            store_hostile_text_round_trip => "store.hostile_text_round_trip",
            store_big_content_round_trip => "store.big_content_round_trip",
            recall_hostile_queries => "recall.hostile_queries",
            store_concurrent_writes => "store.concurrent_writes",
            namespace_case_sensitive => "namespace.case_sensitive",
            namespace_no_wildcards => "namespace.no_wildcards",
            namespace_reserved_words => "namespace.reserved_words",
            sections_custom_spelling => "sections.custom_spelling",
            sections_invalid_section_refused => "sections.invalid_section_refused",
            sections_across_merge_order => "sections.across_merge_order",
            sections_cap_and_truncation => "sections.cap_and_truncation",
            sections_namespace_filter_conflict => "sections.namespace_filter_conflict",
            sections_namespaces_listed_once => "sections.namespaces_listed_once",
            sections_pinned_hits_only => "sections.pinned_hits_only",
            sections_view_recall_pinned => "sections.view_recall_pinned",
            corpus_namespace_counts => "corpus.namespace_counts",
            corpus_recall_own_words => "corpus.recall_own_words",
            corpus_self_retrieval => "corpus.self_retrieval",
            portability_pages_partition => "portability.pages_partition",
            portability_end_of_export => "portability.end_of_export",
            portability_page_limits => "portability.page_limits",
            portability_unknown_cursor => "portability.unknown_cursor",
            portability_cursor_stable => "portability.cursor_stable",
            portability_round_trip => "portability.round_trip",
            portability_taint_kept => "portability.taint_kept",
            portability_import_hostile => "portability.import_hostile",
            portability_import_failures => "portability.import_failures",
            properties_across_ordering => "properties.across_ordering",
            properties_cap_determinism => "properties.cap_determinism",
            properties_custom_spelling => "properties.custom_spelling",
            properties_namespace_round_trip => "properties.namespace_round_trip",
            properties_pinning_cost => "properties.pinning_cost",
            properties_truncation => "properties.truncation",
            properties_concurrent_equals_sequential => "properties.concurrent_equals_sequential",
            properties_export_partition => "properties.export_partition",
            properties_export_round_trip => "properties.export_round_trip",
            model_differential => "model.differential",
            // END CHECK IDS
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::Registry;

    /// Collects the macro's list as `(test name, check id)` pairs.
    macro_rules! listed {
        (; $($test:ident => $check:literal),* $(,)?) => {
            vec![$((stringify!($test), $check)),*]
        };
    }

    #[test]
    fn the_macro_lists_every_standard_check_in_registry_order() {
        let listed: Vec<(&str, &str)> = crate::__tinymemory_check_ids!([listed]);
        let ids: Vec<&str> = listed.iter().map(|(_, id)| *id).collect();
        let registry: Vec<&str> = Registry::standard().checks().iter().map(|c| c.id).collect();
        assert_eq!(
            ids, registry,
            "add every new check to __tinymemory_check_ids! in src/harness/macros.rs, in registry order"
        );
        for (test, id) in listed {
            assert_eq!(test, id.replace('.', "_"), "test name of {id}");
        }
    }
}
