//! Recall profiles: which checks apply to which profile, and the known-good
//! drivers of each profile pass every check that applies, over the real
//! corpus too. A lexical driver declaring `semantic` passes as well:
//! lexical ranking is a valid ranking.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryProvider, RecallProfile};
use tinymemory_conformance::{
    DriverFactory, Family, FnFactory, LoadedCorpus, Outcome, Registry, RunConfig, RunSummary,
    Runner,
};
use tinymemory_corpus::Corpus;
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};
use tinymemory_sqlite::SqliteDriver;

// Which check applies to which profile is the registry's table
// (src/checks.rs), and docs/profiles.md's generated applicability table
// pins it: a change shows there (src/checks/docs.rs).

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
    let mut skips = interface_skips();
    skips.push(("corpus.namespace_counts", Outcome::Skip(NO_CORPUS.into())));
    skips.push((own, Outcome::Skip(NO_CORPUS.into())));
    skips
}

/// The checks that run only for a driver declaring a framework interface
/// (`Family::needs_interface`), each skipped: the drivers of these tests
/// serve none.
fn interface_skips() -> Vec<(&'static str, Outcome)> {
    tinymemory_conformance::Registry::standard()
        .checks()
        .iter()
        .filter(|c| c.family.needs_interface())
        .map(|c| (c.id, Outcome::NotServed))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_semantic_reference_passes_every_semantic_check() {
    let summary = Runner::new(Registry::standard())
        .run(semantic_reference(), None, |_| {})
        .await;
    assert_eq!(summary.profile, RecallProfile::Semantic);
    assert_eq!(
        summary.reports.len(),
        Registry::standard()
            .for_profile(RecallProfile::Semantic)
            .len()
    );
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
