//! The requests a check makes of its driver, counted by method on the
//! reference driver with the default seed: through an adapter each is a
//! round trip and an engine call (docs/benchmarks.md, "Requests a check
//! needs"), so a check asks no more than its meaning needs.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tinymemory_conformance::{FnFactory, Outcome, Registry, RunConfig, Runner};
use tinymemory_doubles::{CallLog, Recording};
use tinymemory_reference::ReferenceDriver;

/// Runs the check `id` with `cases` cases on recorded reference drivers;
/// returns the stores it opened and its requests by method.
async fn requests(id: &'static str, cases: u32) -> (usize, BTreeMap<String, usize>) {
    let log = CallLog::new();
    let opened = Arc::new(AtomicUsize::new(0));
    let (shared, count) = (log.clone(), Arc::clone(&opened));
    let factory = Arc::new(FnFactory::new("recorded", move || {
        count.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(Recording::new(ReferenceDriver::new(), shared.clone())) as _)
    }));
    let registry = Registry::standard().filter(move |c| c.id == id);
    let summary = Runner::new(registry)
        .with_config(RunConfig {
            cases,
            ..RunConfig::default()
        })
        .run(factory, None, |_| {})
        .await;
    assert_eq!(summary.reports[0].outcome, Outcome::Pass, "{id}");
    let mut by_method = BTreeMap::new();
    for method in log.methods() {
        *by_method.entry(format!("{method:?}")).or_default() += 1;
    }
    (opened.load(Ordering::Relaxed), by_method)
}

fn counts(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|&(m, n)| (m.to_owned(), n)).collect()
}

/// `properties.custom_spelling` reads through two spellings that reach
/// the driver as the same requests: a `get`, `list` or `namespaces()` is
/// asked once per state of the data, every recall twice (a recall that
/// answers otherwise the second time is what the comparison catches).
#[tokio::test]
async fn custom_spelling_asks_each_read_once_per_state_and_every_recall_twice() {
    let (opened, by_method) = requests("properties.custom_spelling", 16).await;
    // The retention probe's store, then one per case.
    assert_eq!(opened, 1 + 16);
    // Before: get 337, list 326, namespaces 208, each read through both
    // spellings.
    assert_eq!(
        by_method,
        counts(&[
            ("Forget", 16),
            ("Get", 143),
            ("List", 96),
            ("Namespaces", 32),
            ("Recall", 326),
            // The retention probe's, then the cases' puts through the views.
            ("Store", 81),
        ])
    );
}
