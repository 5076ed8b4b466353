//! Every hint speaks the run's profile: no failure message under the
//! semantic profile names a lexical engine's mechanism (BM25 statistics,
//! tokenizers, stop words), and none under the lexical profile names a
//! ranking engine's (embeddings, cosine, vectors). Every mutant runs
//! under both profiles, so each check's message is met on drivers of
//! either kind.

use std::sync::Arc;
use std::time::SystemTime;

use futures::future::join_all;
use tinymemory_api::RecallProfile;
use tinymemory_conformance::{DriverFactory, FnFactory, Registry, Report, RunConfig, Runner};
use tinymemory_doubles::mutants::{mutants, Mutant};

/// Words a message may use only under the other profile.
fn foreign_words(profile: RecallProfile) -> &'static [&'static str] {
    match profile {
        RecallProfile::Lexical => &["cosine", "embedding", "vector"],
        RecallProfile::Semantic => &["bm25", "document frequenc", "idf", "tokeniz", "stop-word"],
    }
}

fn factory(m: &'static Mutant, profile: RecallProfile) -> Arc<dyn DriverFactory> {
    Arc::new(
        FnFactory::new(format!("mutant:{}", m.name), move || Ok(m.open())).with_profile(profile),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_failure_message_speaks_the_runs_profile() {
    let runs = mutants().iter().flat_map(|m| {
        [RecallProfile::Lexical, RecallProfile::Semantic].map(|profile| async move {
            let summary = Runner::new(Registry::standard().for_profile(profile))
                .with_profile(profile)
                .with_config(RunConfig {
                    cases: 4,
                    ..RunConfig::default()
                })
                .run(factory(m, profile), None, |_| {})
                .await;
            let report = Report::from_summary(&summary, SystemTime::now());
            report
                .checks
                .iter()
                .filter_map(|c| {
                    let message = c.message.as_deref()?.to_lowercase();
                    let word = foreign_words(profile)
                        .iter()
                        .find(|w| message.contains(*w))?;
                    Some(format!(
                        "mutant {} under {profile}: {} says {word:?}: {}",
                        m.name,
                        c.id,
                        c.message.as_deref().unwrap_or_default()
                    ))
                })
                .collect::<Vec<String>>()
        })
    });
    let foreign: Vec<String> = join_all(runs).await.into_iter().flatten().collect();
    assert!(foreign.is_empty(), "{}", foreign.join("\n\n"));
}
