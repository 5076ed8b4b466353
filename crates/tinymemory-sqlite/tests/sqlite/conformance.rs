//! Every check of the conformance suite that needs no corpus passes on the
//! file-backed SQLite driver, `recall.namespace_isolation` and the
//! `portability.*` checks included. (The corpus checks run through
//! `tinymemory-cli run --driver sqlite --corpus fixtures/corpora`.)

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tinymemory_api::MemoryProvider;
use tinymemory_conformance::{Family, FnFactory, Outcome, Registry, RunConfig, Runner};
use tinymemory_sqlite::SqliteDriver;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_named_check_without_a_corpus_passes() {
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
    let registry = Registry::standard().filter(|c| c.family != Family::Corpus);
    let summary = Runner::new(registry)
        .with_config(RunConfig {
            cases: 8,
            ..RunConfig::default()
        })
        .run(factory, None, |_| {})
        .await;
    let ids: Vec<&str> = summary.reports.iter().map(|r| r.id).collect();
    assert!(ids.contains(&"recall.namespace_isolation"), "{ids:?}");
    assert!(
        ids.iter().any(|id| id.starts_with("portability.")),
        "{ids:?}"
    );
    let not_passed: Vec<(&str, String)> = summary
        .reports
        .iter()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| (r.id, r.outcome.message().unwrap_or_default().to_owned()))
        .collect();
    assert_eq!(not_passed, []);
}
