//! The shared hostile-input table (`tinymemory_conformance::hostile`) on
//! both kinds of SQLite database, through the same conformance checks every
//! driver runs: one table and one set of assertions, not a copy.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tinymemory_api::MemoryProvider;
use tinymemory_conformance::{FnFactory, Outcome, Registry, Runner};
use tinymemory_sqlite::SqliteDriver;

/// The checks that run the hostile-input table, and the ones that match
/// namespaces exactly (`_` is never a wildcard, case is kept).
const HOSTILE_CHECKS: [&str; 8] = [
    "namespace.invalid_refused",
    "key.invalid_refused",
    "key.limit_accepted",
    "store.hostile_text_round_trip",
    "store.big_content_round_trip",
    "recall.hostile_queries",
    "namespace.case_sensitive",
    "namespace.no_wildcards",
];

async fn run(
    factory: Arc<
        FnFactory<
            impl Fn() -> Result<Box<dyn MemoryProvider>, tinymemory_api::MemoryError>
                + Send
                + Sync
                + 'static,
        >,
    >,
) -> Vec<(&'static str, Outcome)> {
    let registry = Registry::standard().filter(|c| HOSTILE_CHECKS.contains(&c.id));
    assert_eq!(
        registry.len(),
        HOSTILE_CHECKS.len(),
        "a hostile check was renamed"
    );
    let summary = Runner::new(registry).run(factory, None, |_| {}).await;
    summary
        .reports
        .into_iter()
        .map(|r| (r.id, r.outcome))
        .collect()
}

fn all_pass() -> Vec<(&'static str, Outcome)> {
    HOSTILE_CHECKS
        .iter()
        .map(|id| (*id, Outcome::Pass))
        .collect()
}

#[tokio::test]
async fn the_hostile_table_passes_in_memory() {
    let factory = Arc::new(FnFactory::new("sqlite-memory", || {
        Ok(Box::new(SqliteDriver::open_in_memory()?) as Box<dyn MemoryProvider>)
    }));
    assert_eq!(run(factory).await, all_pass());
}

#[tokio::test]
async fn the_hostile_table_passes_on_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_owned();
    let next = AtomicU64::new(0);
    let factory = Arc::new(FnFactory::new("sqlite-file", move || {
        let n = next.fetch_add(1, Ordering::Relaxed);
        Ok(
            Box::new(SqliteDriver::open(path.join(format!("hostile-{n}.db")))?)
                as Box<dyn MemoryProvider>,
        )
    }));
    assert_eq!(run(factory).await, all_pass());
}
