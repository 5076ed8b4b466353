//! The whole standard registry — contract, sections, corpus, properties,
//! model — against the server, the corpus loaded through the section API.

use std::sync::Arc;

use tinymemory_conformance::{LoadedCorpus, Registry, RunConfig, Runner};
use tinymemory_corpus::Corpus;

use crate::common::factory_or_skip;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_standard_check_passes() {
    let factory = Arc::new(factory_or_skip!("conformance::every_standard_check_passes"));
    let corpus = Corpus::load(&Corpus::default_root()).expect("the bundled corpus loads");
    let loaded = LoadedCorpus::load(Box::new(factory.scratch()), &corpus)
        .await
        .expect("the corpus stores");
    let config = RunConfig::default()
        .with_env_overrides()
        .unwrap_or_else(|e| panic!("{e}"));
    let summary = Runner::new(Registry::standard())
        .with_config(config)
        .run(factory.clone(), Some(Arc::new(loaded)), |r| {
            eprintln!("{r}")
        })
        .await;
    let not_passed: Vec<String> = summary
        .reports
        .iter()
        .filter(|r| r.outcome.label() != "pass")
        .map(ToString::to_string)
        .collect();
    assert!(
        not_passed.is_empty(),
        "{}\n{}",
        summary.closing_line(),
        not_passed.join("\n")
    );
    assert_eq!(
        summary.reports.len(),
        Registry::standard()
            .for_profile(tinymemory_api::RecallProfile::Lexical)
            .len()
    );
    factory.cleanup().await.unwrap();
}
