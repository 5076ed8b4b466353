//! The requests a check makes of its driver, counted by method on the
//! reference driver with the default seed: through an adapter each is a
//! round trip and an engine call (docs/benchmarks.md, "Requests a check
//! needs"), so a check asks no more than its meaning needs.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryError, NewEntry};
use tinymemory_conformance::{FnFactory, Outcome, Registry, RunConfig, Runner};
use tinymemory_doubles::{CallLog, Recording};
use tinymemory_reference::ReferenceDriver;

/// The reference driver refusing every `store_many` with a backend error.
struct RefusesBatches(ReferenceDriver);

tinymemory_api::delegate_provider! {
    impl MemoryProvider for RefusesBatches {
        forward(0): driver_id, store, get, forget, list, namespaces, recall, export_page, import,
            interface;

        async fn store_many(&self, _entries: &[NewEntry]) -> Result<(), MemoryError> {
            Err(MemoryError::fault("batches are refused here"))
        }
    }
}

/// Runs the check `id` with `cases` cases on recorded reference drivers
/// (refusing every batch when `refuse`); returns its outcome, the stores
/// it opened and its requests by method.
async fn run_recorded(
    id: &'static str,
    cases: u32,
    refuse: bool,
) -> (Outcome, usize, BTreeMap<String, usize>) {
    let log = CallLog::new();
    let opened = Arc::new(AtomicUsize::new(0));
    let (shared, count) = (log.clone(), Arc::clone(&opened));
    let factory = Arc::new(FnFactory::new("recorded", move || {
        count.fetch_add(1, Ordering::Relaxed);
        Ok(if refuse {
            Box::new(Recording::new(
                RefusesBatches(ReferenceDriver::new()),
                shared.clone(),
            )) as _
        } else {
            Box::new(Recording::new(ReferenceDriver::new(), shared.clone())) as _
        })
    }));
    let registry = Registry::standard().filter(move |c| c.id == id);
    let summary = Runner::new(registry)
        .with_config(RunConfig {
            cases,
            ..RunConfig::default()
        })
        .run(factory, None, |_| {})
        .await;
    let mut by_method = BTreeMap::new();
    for method in log.methods() {
        *by_method.entry(format!("{method:?}")).or_default() += 1;
    }
    (
        summary.reports[0].outcome.clone(),
        opened.load(Ordering::Relaxed),
        by_method,
    )
}

/// [`run_recorded`] of a check that passes, without the outcome.
async fn requests(id: &'static str, cases: u32) -> (usize, BTreeMap<String, usize>) {
    let (outcome, opened, by_method) = run_recorded(id, cases, false).await;
    assert_eq!(outcome, Outcome::Pass, "{id}");
    (opened, by_method)
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

/// `recall.namespace_isolation` writes its tenants and each round of
/// entries elsewhere by one `store_many` (it compares only after a whole
/// round); the upserts elsewhere stay one `store` each.
#[tokio::test]
async fn namespace_isolation_writes_its_set_up_by_one_batch_per_round() {
    let (opened, by_method) = requests("recall.namespace_isolation", 1).await;
    assert_eq!(opened, 1);
    // Before: store 146 (20 tenants, 84 elsewhere in three rounds, 42
    // upserts) and the bulk's one store_many.
    assert_eq!(
        by_method,
        counts(&[
            ("Forget", 84),
            ("Recall", 98),
            ("Store", 42),
            ("StoreMany", 1 + 3 + 1),
        ])
    );
}

/// A refused set-up batch is written one `store` each: the check goes on
/// to its bulk round (a batch it needs, which it fails on), having stored
/// every tenant and every round's entry, and says nothing of a batch path
/// it did not use.
#[tokio::test]
async fn namespace_isolation_writes_a_refused_set_up_one_store_each() {
    let (outcome, _, by_method) = run_recorded("recall.namespace_isolation", 1, true).await;
    let Outcome::Fail(failure) = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(
        failure.message,
        "unexpected driver error: backend failure: batches are refused here"
    );
    assert_eq!(by_method.get("Store"), Some(&(20 + 84)));
    assert_eq!(by_method.get("StoreMany"), Some(&(1 + 3 + 1)));
}

/// `properties.cap_determinism` asks each store's `namespaces()` once (the
/// data does not change after the writes; each repetition still sees
/// another shuffle of it) and each limit once; every recall is sent.
#[tokio::test]
async fn cap_determinism_asks_namespaces_once_per_store() {
    let (opened, by_method) = requests("properties.cap_determinism", 16).await;
    // The retention probe's store, then two per case.
    assert_eq!(opened, 1 + 2 * 16);
    // Before: namespaces 126 (one per section recall) and recall 270 (a
    // generated limit of 2 was asked twice).
    assert_eq!(
        by_method,
        counts(&[
            // The retention probe's.
            ("Get", 1),
            ("Namespaces", 32),
            ("Recall", 216),
            ("Store", 1),
            ("StoreMany", 32),
        ])
    );
}

/// `properties.truncation` lists the namespaces, then makes two section
/// recalls on the same data: `namespaces()` is asked once per case.
#[tokio::test]
async fn truncation_asks_namespaces_once_per_case() {
    let (opened, by_method) = requests("properties.truncation", 16).await;
    assert_eq!(opened, 1 + 16);
    // Before: namespaces 48, three per case.
    assert_eq!(
        by_method,
        counts(&[
            ("Get", 1),
            ("Namespaces", 16),
            ("Recall", 57),
            ("Store", 1),
            ("StoreMany", 16),
        ])
    );
}
