//! A property case writes its data by one `store_many` per run of entries
//! holding no `(namespace, key)` twice (one for a case without repeated
//! keys), and on a driver that refuses a batch by one `store` per entry on
//! a fresh store, so a batch fault under generated data fails
//! `properties.store_many_matches_store` alone, and an upsert fault behind
//! a batch that collapses repeated keys is still seen.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tinymemory_api::{MemoryCategory, MemoryError, MemoryTaint, NewEntry};
use tinymemory_conformance::{Family, FnFactory, Outcome, Registry, RunConfig, RunSummary, Runner};
use tinymemory_doubles::mutants::{DuplicatesOnStore, RefusesEqualTexts};
use tinymemory_doubles::{Call, CallLog, Recording};
use tinymemory_reference::ReferenceDriver;

/// What the stores of one factory were asked.
#[derive(Default)]
struct Counts {
    opened: AtomicUsize,
    stores: AtomicUsize,
    batches: AtomicUsize,
    batched: AtomicUsize,
}

/// What [`Counting`]'s `store_many` does after counting.
#[derive(Clone, Copy)]
enum Batch {
    /// Forwards it.
    Faithful,
    /// Answers every batch with a backend error, storing nothing.
    Refused,
    /// Stores all but the batch's last entry and answers `Ok`.
    DropsLast,
}

/// The reference driver, counting into the factory's [`Counts`].
struct Counting {
    inner: ReferenceDriver,
    counts: Arc<Counts>,
    batch: Batch,
}

tinymemory_api::delegate_provider! {
    impl MemoryProvider for Counting {
        forward(inner): driver_id, get, forget, list, namespaces, recall, export_page, import,
            interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.counts.stores.fetch_add(1, Ordering::Relaxed);
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            self.counts.batches.fetch_add(1, Ordering::Relaxed);
            self.counts.batched.fetch_add(entries.len(), Ordering::Relaxed);
            match self.batch {
                Batch::Faithful => self.inner.store_many(entries).await,
                Batch::Refused => Err(MemoryError::fault("batches are refused here")),
                Batch::DropsLast => {
                    self.inner.store_many(&entries[..entries.len() - 1]).await
                }
            }
        }
    }
}

/// Runs the checks `ids` with `cases` cases on [`Counting`] drivers
/// doing `batch`; returns the summary and the counts.
async fn counted(ids: &[&str], cases: u32, batch: Batch) -> (RunSummary, Arc<Counts>) {
    let counts = Arc::new(Counts::default());
    let shared = Arc::clone(&counts);
    let factory = Arc::new(FnFactory::new("counting", move || {
        shared.opened.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(Counting {
            inner: ReferenceDriver::new(),
            counts: Arc::clone(&shared),
            batch,
        }) as _)
    }));
    let ids: Vec<String> = ids.iter().map(|&id| id.to_owned()).collect();
    let registry = Registry::standard().filter(move |c| ids.iter().any(|id| id == c.id));
    let summary = Runner::new(registry)
        .with_config(RunConfig {
            cases,
            ..RunConfig::default()
        })
        .run(factory, None, |_| {})
        .await;
    (summary, counts)
}

#[tokio::test]
async fn a_property_case_writes_its_data_by_one_store_many() {
    let (summary, counts) = counted(&["properties.across_ordering"], 16, Batch::Faithful).await;
    assert_eq!(summary.reports[0].outcome, Outcome::Pass);
    // One `store`: the retention probe's, before the cases.
    assert_eq!(counts.stores.load(Ordering::Relaxed), 1);
    // The probe's store, then one fresh store per case.
    assert_eq!(counts.opened.load(Ordering::Relaxed), 1 + 16);
    // A batch per case holding data (a case may hold none).
    let batches = counts.batches.load(Ordering::Relaxed);
    assert!(
        (1..=16).contains(&batches),
        "{batches} batches for 16 cases"
    );
    assert!(counts.batched.load(Ordering::Relaxed) >= batches);
}

#[tokio::test]
async fn a_refused_batch_is_written_one_store_each_on_a_fresh_store() {
    let (summary, counts) = counted(&["properties.across_ordering"], 16, Batch::Refused).await;
    assert_eq!(summary.reports[0].outcome, Outcome::Pass);
    let batches = counts.batches.load(Ordering::Relaxed);
    assert!(
        (1..=16).contains(&batches),
        "{batches} batches for 16 cases"
    );
    // Each refused batch: another fresh store, then every entry of the
    // batch by a `store` of its own (and the probe's one).
    assert_eq!(counts.opened.load(Ordering::Relaxed), 1 + 16 + batches);
    assert_eq!(
        counts.stores.load(Ordering::Relaxed),
        1 + counts.batched.load(Ordering::Relaxed)
    );
}

/// LangGraph's `InMemoryStore.batch` fault: a batch holding one text twice
/// is refused. Every property passes on the single-entry path but the one
/// whose job the batch is.
#[tokio::test]
async fn only_store_many_matches_store_names_a_batch_refusing_equal_texts() {
    let factory = Arc::new(FnFactory::new("equal-texts", || {
        Ok(Box::new(RefusesEqualTexts::new(ReferenceDriver::new())) as _)
    }));
    let summary = Runner::new(Registry::standard().family(Family::Property))
        .with_config(RunConfig::default())
        .run(factory, None, |_| {})
        .await;
    let mut failed = Vec::new();
    for r in &summary.reports {
        match &r.outcome {
            Outcome::Pass => {}
            Outcome::Fail(f) => failed.push((r.id, f.clone())),
            other => panic!("{}: {other:?}", r.id),
        }
    }
    let ids: Vec<&str> = failed.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, ["properties.store_many_matches_store"]);
    let failure = &failed[0].1;
    assert!(
        failure.message.starts_with(
            "store_many of the case's 2 entries failed: backend failure: 1 distinct texts for 2 \
             entries; the same entries, one store each in the batch's order, were accepted: a \
             batch must store what those stores would [case "
        ),
        "{}",
        failure.message
    );
    assert_eq!(
        failure.driver_error.as_ref().map(|e| e.kind.as_ref()),
        Some("backend")
    );
    assert!(failure.counterexample.is_some());
}

/// A batch answering `Ok` that stores other data: the batch's check names
/// it, and a property that fails on it too says its data went in by one
/// `store_many`.
#[tokio::test]
async fn a_batch_storing_other_data_is_named_by_the_failing_property() {
    let ids = [
        "properties.truncation",
        "properties.store_many_matches_store",
    ];
    let (summary, _) = counted(&ids, 64, Batch::DropsLast).await;
    let messages: Vec<(&str, String)> = summary
        .reports
        .iter()
        .map(|r| match &r.outcome {
            Outcome::Fail(f) => (r.id, f.message.clone()),
            other => panic!("{}: {other:?}", r.id),
        })
        .collect();
    assert_eq!(messages[0].0, "properties.truncation");
    assert!(
        messages[0].1.contains(
            " (the case's data was written by one store_many; if \
             properties.store_many_matches_store fails too, look at the batch path first) [case "
        ),
        "{}",
        messages[0].1
    );
    assert_eq!(messages[1].0, "properties.store_many_matches_store");
    assert!(
        messages[1].1.starts_with(
            "after store_many of the case's 1 entries, list(None, ..) differs from the same \
             entries stored one store each (timestamps aside; a repeated key keeps its last \
             entry): "
        ),
        "{}",
        messages[1].1
    );
}

/// Every store a factory opened, each with its own call log, in the order
/// opened.
type Logs = Arc<Mutex<Vec<CallLog>>>;

/// Runs the checks `ids` with `cases` cases on reference drivers each
/// recording into a log of its own; returns the summary and the logs.
async fn recorded(ids: &[&str], cases: u32) -> (RunSummary, Vec<CallLog>) {
    let logs = Logs::default();
    let shared = Arc::clone(&logs);
    let factory = Arc::new(FnFactory::new("recorded", move || {
        let log = CallLog::new();
        shared.lock().unwrap().push(log.clone());
        Ok(Box::new(Recording::new(ReferenceDriver::new(), log)) as _)
    }));
    let ids: Vec<String> = ids.iter().map(|&id| id.to_owned()).collect();
    let registry = Registry::standard().filter(move |c| ids.iter().any(|id| id == c.id));
    let summary = Runner::new(registry)
        .with_config(RunConfig {
            cases,
            ..RunConfig::default()
        })
        .run(factory, None, |_| {})
        .await;
    let logs = logs.lock().unwrap().clone();
    (summary, logs)
}

/// The `store_many` batches a store received, in order.
fn batches(log: &CallLog) -> Vec<Vec<NewEntry>> {
    log.calls()
        .into_iter()
        .filter_map(|c| match c {
            Call::StoreMany { entries } => Some(entries),
            _ => None,
        })
        .collect()
}

/// Whether `entries` holds a `(namespace, key)` twice.
fn repeats(entries: &[NewEntry]) -> bool {
    let mut seen = HashSet::new();
    !entries.iter().all(|e| seen.insert((&e.namespace, &e.key)))
}

#[tokio::test]
async fn a_case_without_repeated_keys_writes_one_store_many() {
    // A dataset is deduplicated on `(namespace, key)`: no case of
    // `properties.truncation` repeats a key.
    let (summary, logs) = recorded(&["properties.truncation"], 16).await;
    assert_eq!(summary.reports[0].outcome, Outcome::Pass);
    let mut written = 0;
    for log in &logs {
        let batches = batches(log);
        assert!(batches.len() <= 1, "{} batches to one store", batches.len());
        if let Some(batch) = batches.first() {
            assert!(!repeats(batch));
            written += 1;
        }
    }
    assert!(written > 0, "no case wrote data");
}

#[tokio::test]
async fn a_case_repeating_keys_writes_the_fewest_batches_without_a_repeat() {
    let (summary, logs) = recorded(&["properties.export_round_trip"], 64).await;
    assert_eq!(summary.reports[0].outcome, Outcome::Pass);
    let mut split = 0;
    for log in &logs {
        let batches = batches(log);
        assert!(batches.iter().all(|b| !b.is_empty() && !repeats(b)));
        // Fewest: each batch after the first starts at an entry whose
        // `(namespace, key)` the batch before it holds.
        for pair in batches.windows(2) {
            let first = &pair[1][0];
            assert!(
                pair[0]
                    .iter()
                    .any(|e| (&e.namespace, &e.key) == (&first.namespace, &first.key)),
                "a batch started at {}/{} without a repeat",
                first.namespace,
                first.key
            );
        }
        if batches.len() > 1 {
            split += 1;
        }
    }
    assert!(split > 0, "no case repeated a key");
}

/// FAISS through the LangChain adapter: the adapter's `store_many` sends
/// a key given twice once, with its last entry (in the place of its
/// first), while the store's upsert over a stored entry keeps the old one
/// beside it.
struct CollapsesRepeats {
    inner: DuplicatesOnStore<ReferenceDriver>,
}

tinymemory_api::delegate_provider! {
    impl MemoryProvider for CollapsesRepeats {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, export_page,
            import, interface;

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            let mut order = Vec::new();
            let mut last = BTreeMap::new();
            for e in entries {
                let at = (e.namespace.clone(), e.key.clone());
                if last.insert(at.clone(), e.clone()).is_none() {
                    order.push(at);
                }
            }
            let collapsed: Vec<NewEntry> = order.iter().map(|at| last[at].clone()).collect();
            self.inner.store_many(&collapsed).await
        }
    }
}

/// The properties whose cases repeat a key judge each later entry as an
/// upsert over a stored one, so a batch that collapses repeats does not
/// hide an upsert that duplicates.
#[tokio::test]
async fn an_upsert_fault_behind_a_collapsing_batch_fails_the_properties_repeating_keys() {
    let factory = Arc::new(FnFactory::new("collapses-repeats", || {
        Ok(Box::new(CollapsesRepeats {
            inner: DuplicatesOnStore::new(ReferenceDriver::new()),
        }) as _)
    }));
    let summary = Runner::new(Registry::standard().family(Family::Property))
        .with_config(RunConfig::default())
        .run(factory, None, |_| {})
        .await;
    let mut failed = Vec::new();
    for r in &summary.reports {
        match &r.outcome {
            Outcome::Pass => {}
            Outcome::Fail(f) => failed.push((r.id, f.message.clone())),
            other => panic!("{}: {other:?}", r.id),
        }
    }
    let ids: Vec<&str> = failed.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        ids,
        [
            "properties.export_partition",
            "properties.export_round_trip",
            "properties.store_many_matches_store",
            // Its upsert fault is the model's through `store`.
            "model.differential",
        ]
    );
    // Each failing case repeats a key (the fault needs one), so its data
    // went in by more than one store_many, and the message says how many.
    for (id, message) in &failed[..2] {
        let (_, after) = message
            .split_once(" (the case's data was written by ")
            .unwrap_or_else(|| panic!("{id}: {message}"));
        let (count, rest) = after.split_once(' ').unwrap();
        assert!(
            count.parse::<usize>().is_ok_and(|n| n > 1),
            "{id}: {message}"
        );
        assert!(
            rest.starts_with(
                "store_many calls, a new one at each repeated key; if \
                 properties.store_many_matches_store fails too, look at the batch path first) [case "
            ),
            "{id}: {message}"
        );
    }
}
