//! Recall profiles: which checks apply to which profile, and the known-good
//! drivers of each profile pass every check that applies, over the real
//! corpus too. A lexical driver declaring `semantic` passes as well:
//! lexical ranking is a valid ranking.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryProvider, RecallProfile};
use tinymemory_conformance::{
    DriverFactory, Family, FnFactory, LoadedCorpus, Outcome, Profiles, Registry, RunConfig,
    RunSummary, Runner,
};
use tinymemory_corpus::Corpus;
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};
use tinymemory_sqlite::SqliteDriver;

/// `(check id, profiles)` of the whole standard registry, in run order.
const APPLICABILITY: &[(&str, &str)] = &[
    ("store.upsert", "lexical, semantic"),
    ("recall.none_means_global", "lexical, semantic"),
    ("recall.hit_namespace", "lexical, semantic"),
    ("recall.scores_finite_higher_better", "lexical"),
    ("recall.limit", "lexical, semantic"),
    ("recall.plain_text_query", "lexical, semantic"),
    ("recall.min_score", "lexical, semantic"),
    ("namespaces.exact_counts", "lexical, semantic"),
    ("namespace.invalid_refused", "lexical, semantic"),
    ("forget.idempotent", "lexical, semantic"),
    ("recall.whole_words", "lexical"),
    ("recall.ranking_higher_better", "semantic"),
    ("recall.deterministic", "lexical, semantic"),
    ("recall.self_retrieval", "lexical, semantic"),
    ("recall.reindexed_on_upsert", "lexical, semantic"),
    ("recall.namespace_isolation", "lexical, semantic"),
    ("store.bulk", "lexical, semantic"),
    ("store.upsert_replaces_metadata", "lexical, semantic"),
    ("store.timestamps", "lexical, semantic"),
    ("namespaces.last_updated", "lexical, semantic"),
    ("store.distinct_identities", "lexical, semantic"),
    ("list.filters", "lexical, semantic"),
    ("recall.filters", "lexical, semantic"),
    ("recall.huge_limit", "lexical, semantic"),
    ("store.hostile_text_round_trip", "lexical, semantic"),
    ("store.big_content_round_trip", "lexical, semantic"),
    ("recall.hostile_queries", "lexical, semantic"),
    ("store.concurrent_writes", "lexical, semantic"),
    ("namespace.case_sensitive", "lexical, semantic"),
    ("namespace.no_wildcards", "lexical, semantic"),
    ("namespace.reserved_words", "lexical, semantic"),
    ("sections.custom_spelling", "lexical, semantic"),
    ("sections.invalid_section_refused", "lexical, semantic"),
    ("sections.across_merge_order", "lexical, semantic"),
    ("sections.cap_and_truncation", "lexical, semantic"),
    ("sections.namespace_filter_conflict", "lexical, semantic"),
    ("sections.namespaces_listed_once", "lexical, semantic"),
    ("sections.pinned_hits_only", "lexical, semantic"),
    ("sections.view_recall_pinned", "lexical, semantic"),
    ("corpus.namespace_counts", "lexical, semantic"),
    ("corpus.recall_own_words", "lexical"),
    ("corpus.self_retrieval", "semantic"),
    ("portability.pages_partition", "lexical, semantic"),
    ("portability.end_of_export", "lexical, semantic"),
    ("portability.page_limits", "lexical, semantic"),
    ("portability.unknown_cursor", "lexical, semantic"),
    ("portability.cursor_stable", "lexical, semantic"),
    ("portability.round_trip", "lexical, semantic"),
    ("portability.taint_kept", "lexical, semantic"),
    ("portability.import_hostile", "lexical, semantic"),
    ("portability.import_failures", "lexical, semantic"),
    ("properties.across_ordering", "lexical, semantic"),
    ("properties.cap_determinism", "lexical, semantic"),
    ("properties.custom_spelling", "lexical, semantic"),
    ("properties.namespace_round_trip", "lexical, semantic"),
    ("properties.pinning_cost", "lexical, semantic"),
    ("properties.truncation", "lexical, semantic"),
    (
        "properties.concurrent_equals_sequential",
        "lexical, semantic",
    ),
    ("properties.export_partition", "lexical, semantic"),
    ("properties.export_round_trip", "lexical, semantic"),
    ("model.differential", "lexical, semantic"),
];

#[test]
fn every_check_states_the_profiles_it_applies_to() {
    let got: Vec<(&str, String)> = Registry::standard()
        .checks()
        .iter()
        .map(|c| (c.id, c.profiles.to_string()))
        .collect();
    let want: Vec<(&str, String)> = APPLICABILITY
        .iter()
        .map(|(id, p)| (*id, (*p).to_owned()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        Registry::standard()
            .for_profile(RecallProfile::Lexical)
            .len(),
        59
    );
    assert_eq!(
        Registry::standard()
            .for_profile(RecallProfile::Semantic)
            .len(),
        58
    );
    assert_eq!(Profiles::BOTH.to_string(), "lexical, semantic");
}

fn semantic_reference() -> Arc<dyn DriverFactory> {
    Arc::new(
        FnFactory::new("semantic-reference", || {
            Ok(Box::new(SemanticReferenceDriver::new()) as Box<dyn MemoryProvider>)
        })
        .with_profile(RecallProfile::Semantic),
    )
}

fn reference() -> Arc<dyn DriverFactory> {
    Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }))
}

/// `(check id, outcome)` of every check that did not pass.
fn not_passed(summary: &RunSummary) -> Vec<(&'static str, Outcome)> {
    summary
        .reports
        .iter()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| (r.id, r.outcome.clone()))
        .collect()
}

const NO_CORPUS: &str = "no corpus was loaded for this run (use --corpus DIR)";

fn corpus_skips(profile: RecallProfile) -> Vec<(&'static str, Outcome)> {
    let own = match profile {
        RecallProfile::Lexical => "corpus.recall_own_words",
        RecallProfile::Semantic => "corpus.self_retrieval",
    };
    vec![
        ("corpus.namespace_counts", Outcome::Skip(NO_CORPUS.into())),
        (own, Outcome::Skip(NO_CORPUS.into())),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_semantic_reference_passes_every_semantic_check() {
    let summary = Runner::new(Registry::standard())
        .run(semantic_reference(), None, |_| {})
        .await;
    assert_eq!(summary.profile, RecallProfile::Semantic);
    assert_eq!(summary.reports.len(), 58);
    assert_eq!(not_passed(&summary), corpus_skips(RecallProfile::Semantic));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lexical_reference_passes_as_semantic_too() {
    let summary = Runner::new(Registry::standard())
        .with_profile(RecallProfile::Semantic)
        .run(reference(), None, |_| {})
        .await;
    assert_eq!(summary.profile, RecallProfile::Semantic);
    assert_eq!(not_passed(&summary), corpus_skips(RecallProfile::Semantic));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_passes_as_semantic_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_owned();
    let next = AtomicU64::new(0);
    let factory = Arc::new(FnFactory::new("sqlite", move || {
        let n = next.fetch_add(1, Ordering::Relaxed);
        Ok(
            Box::new(SqliteDriver::open(path.join(format!("check-{n}.db")))?)
                as Box<dyn MemoryProvider>,
        )
    }));
    let summary = Runner::new(Registry::standard())
        .with_profile(RecallProfile::Semantic)
        .with_config(RunConfig {
            cases: 8,
            ..RunConfig::default()
        })
        .run(factory, None, |_| {})
        .await;
    assert_eq!(not_passed(&summary), corpus_skips(RecallProfile::Semantic));
}

async fn corpus_outcomes(
    store: Box<dyn MemoryProvider>,
    factory: Arc<dyn DriverFactory>,
    profile: RecallProfile,
) -> Vec<(&'static str, Outcome)> {
    let corpus = Corpus::load(&Corpus::default_root()).unwrap();
    let loaded = LoadedCorpus::load(store, &corpus).await.unwrap();
    Runner::new(Registry::standard().family(Family::Corpus))
        .with_profile(profile)
        .run(factory, Some(Arc::new(loaded)), |_| {})
        .await
        .reports
        .iter()
        .map(|r| (r.id, r.outcome.clone()))
        .collect()
}

#[tokio::test]
async fn the_semantic_reference_retrieves_every_sampled_corpus_entry_first() {
    let got = corpus_outcomes(
        Box::new(SemanticReferenceDriver::new()),
        semantic_reference(),
        RecallProfile::Semantic,
    )
    .await;
    assert_eq!(
        got,
        [
            ("corpus.namespace_counts", Outcome::Pass),
            ("corpus.self_retrieval", Outcome::Pass)
        ]
    );
}

#[tokio::test]
async fn the_lexical_reference_retrieves_every_sampled_corpus_entry_first_too() {
    let got = corpus_outcomes(
        Box::new(ReferenceDriver::new()),
        reference(),
        RecallProfile::Semantic,
    )
    .await;
    assert_eq!(
        got,
        [
            ("corpus.namespace_counts", Outcome::Pass),
            ("corpus.self_retrieval", Outcome::Pass)
        ]
    );
}
