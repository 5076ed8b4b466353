//! The named checks alone (every check but `model.differential`, whose
//! oracle is a model of the contract rather than a rule with a name, and
//! the interface family, which only a framework adapter serves) pass on
//! both reference drivers, over the real corpus.
//!
//! This is the test command of the mutation runs (`.cargo/mutants.toml`,
//! docs/mutation.md): a mutant of `tinymemory-reference` or
//! `tinymemory-sections` that it does not catch survives, however the
//! model check fares.

use std::sync::Arc;

use tinymemory_api::{MemoryProvider, RecallProfile};
use tinymemory_conformance::{DriverFactory, FnFactory, LoadedCorpus, Outcome, Registry, Runner};
use tinymemory_corpus::Corpus;
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};

fn factory(profile: RecallProfile) -> Arc<dyn DriverFactory> {
    Arc::new(
        FnFactory::new(profile.as_str(), move || {
            Ok(match profile {
                RecallProfile::Lexical => {
                    Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>
                }
                RecallProfile::Semantic => Box::new(SemanticReferenceDriver::new()),
            })
        })
        .with_profile(profile),
    )
}

async fn not_passed(profile: RecallProfile) -> Vec<(&'static str, String)> {
    let corpus = Corpus::load(&Corpus::default_root()).expect("the bundled corpus loads");
    let store = factory(profile).open().await.expect("a fresh driver");
    let loaded = LoadedCorpus::load(store, &corpus)
        .await
        .expect("the corpus stores");
    let registry = Registry::standard()
        .filter(|c| c.id != "model.differential" && !c.family.needs_interface());
    Runner::new(registry)
        .run(factory(profile), Some(Arc::new(loaded)), |_| {})
        .await
        .reports
        .into_iter()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| (r.id, r.outcome.message().unwrap_or_default().to_owned()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_driver_passes_every_named_check() {
    assert_eq!(not_passed(RecallProfile::Lexical).await, []);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_semantic_reference_driver_passes_every_named_check() {
    assert_eq!(not_passed(RecallProfile::Semantic).await, []);
}
