//! The property checks fail, with a shrunk counterexample and its seed, on
//! drivers that break what they check.

use std::sync::Arc;

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};
use tinymemory_conformance::{FnFactory, Outcome, Registry, RunConfig, Runner};
use tinymemory_doubles::mutants::mutant;
use tinymemory_reference::ReferenceDriver;

/// Breaks ties between equal scores by insertion order instead of by key,
/// so which of several equally good hits survives a limit depends on the
/// order the data was stored in.
pub struct TiesByInsertion(pub ReferenceDriver);

fn insertion(e: &MemoryEntry) -> u64 {
    e.id.trim_start_matches("ref-").parse().unwrap_or(u64::MAX)
}

tinymemory_api::delegate_provider! {
    impl MemoryProvider for TiesByInsertion {
        forward(0): store, get, forget, list, namespaces, store_many, export_page, import, interface;

        fn driver_id(&self) -> &str {
            "ties-by-insertion"
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let mut hits = self.0.recall(query, usize::MAX, opts).await?;
            hits.sort_by(|a, b| {
                b.score
                    .partial_cmp(&a.score)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then_with(|| insertion(a).cmp(&insertion(b)))
            });
            hits.truncate(limit);
            Ok(hits)
        }
    }
}

async fn outcome(
    id: &str,
    open: impl Fn() -> Box<dyn MemoryProvider> + Send + Sync + 'static,
) -> Outcome {
    let check = *Registry::standard().get(id).unwrap();
    let factory = Arc::new(FnFactory::new("faulty", move || Ok(open())));
    let summary = Runner::new(Registry::from_checks(vec![check]))
        .with_config(RunConfig::default())
        .run(factory, None, |_| {})
        .await;
    summary.reports[0].outcome.clone()
}

#[tokio::test]
async fn cap_determinism_catches_ties_broken_by_insertion_order() {
    let got = outcome("properties.cap_determinism", || {
        Box::new(TiesByInsertion(ReferenceDriver::new()))
    })
    .await;
    let Outcome::Fail(failure) = got else {
        panic!("expected a failure, got {got:?}");
    };
    assert!(
        failure
            .message
            .contains("on the same data stored in reverse order"),
        "{}",
        failure.message
    );
    // The cause, named: a cut through a tie, by insertion order.
    assert!(
        failure.message.contains(
            ": the limit cut entries tied at one score by the order they were stored in, where \
             which of them it keeps must follow from the data (equal scores ordered by namespace \
             and key, say, as the reference driver does)"
        ),
        "{}",
        failure.message
    );
    let counterexample = failure.counterexample.expect("a shrunk counterexample");
    assert_eq!(counterexample.seed, RunConfig::DEFAULT_SEED);
    assert!(
        failure
            .message
            .contains(&format!("rerun with --seed {}", RunConfig::DEFAULT_SEED)),
        "{}",
        failure.message
    );
}

#[tokio::test]
async fn ordering_catches_a_recall_that_answers_from_other_namespaces() {
    let wrap = mutant("prefix-pinned-recall").unwrap().wrap;
    let got = outcome("properties.across_ordering", move || {
        wrap(Box::new(ReferenceDriver::new()))
    })
    .await;
    let Outcome::Fail(failure) = got else {
        panic!("expected a failure, got {got:?}");
    };
    assert!(
        failure.message.contains("answered a recall pinned to"),
        "{}",
        failure.message
    );
    assert!(failure.counterexample.is_some());
}

#[tokio::test]
async fn the_same_seed_gives_the_same_counterexample() {
    let first = outcome("properties.cap_determinism", || {
        Box::new(TiesByInsertion(ReferenceDriver::new()))
    })
    .await;
    let again = outcome("properties.cap_determinism", || {
        Box::new(TiesByInsertion(ReferenceDriver::new()))
    })
    .await;
    assert!(first.is_fail());
    assert_eq!(first, again);
}

/// Too many hits are named, with where they come from, rather than
/// explained as filters applied after the limit (which gives too few).
#[tokio::test]
async fn limit_names_the_hits_a_namespace_matched_as_a_prefix_let_in() {
    let wrap = mutant("prefix-pinned-recall").unwrap().wrap;
    let got = outcome("recall.limit", move || {
        wrap(Box::new(ReferenceDriver::new()))
    })
    .await;
    let Outcome::Fail(failure) = got else {
        panic!("expected a failure, got {got:?}");
    };
    assert_eq!(
        failure.message,
        "hits for \"needle\" in learning:limit with limit 10 and no other filter (5 entries pass): \
         expected 5, got 10; learning:limit-elsewhere/e0, learning:limit-elsewhere/e1, \
         learning:limit-elsewhere/e2, learning:limit-elsewhere/e3, learning:limit-elsewhere/e4 do not \
         pass the filters (another namespace, category or session): a recall returns only entries \
         that pass every filter, its namespace compared whole"
    );
}
