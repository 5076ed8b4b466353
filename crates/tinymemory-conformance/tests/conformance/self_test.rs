//! The self-test: the standard registry catches every mutant of the
//! catalogue with exactly the checks the mutant names, the reference and
//! SQLite drivers pass every check, and no check disappears quietly.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use futures::StreamExt;
use tinymemory_api::MemoryProvider;
use tinymemory_conformance::self_test::{run_mutants, MutantVerdict};
use tinymemory_conformance::{
    DriverFactory, FnFactory, Outcome, Registry, RunConfig, RunSummary, Runner,
};
use tinymemory_doubles::mutants::{mutants, Mutant};
use tinymemory_reference::ReferenceDriver;
use tinymemory_sqlite::SqliteDriver;

const NO_CORPUS: &str = "no corpus was loaded for this run (use --corpus DIR)";

async fn run_standard(factory: Arc<dyn DriverFactory>) -> RunSummary {
    Runner::new(Registry::standard())
        .run(factory, None, |_| {})
        .await
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

fn skipped_corpus_checks() -> Vec<(&'static str, Outcome)> {
    let mut skips = interface_skips();
    skips.push(("corpus.namespace_counts", Outcome::Skip(NO_CORPUS.into())));
    skips.push(("corpus.recall_own_words", Outcome::Skip(NO_CORPUS.into())));
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

#[test]
fn every_check_a_mutant_names_is_in_the_registry_in_order() {
    let ids: Vec<&str> = Registry::standard().checks().iter().map(|c| c.id).collect();
    let position = |m: &Mutant, id: &str| {
        ids.iter().position(|c| *c == id).unwrap_or_else(|| {
            panic!(
                "mutant {} names check {id}, which the registry lacks",
                m.name
            )
        })
    };
    for m in mutants() {
        position(m, m.check);
        let also: Vec<usize> = m.also_caught_by.iter().map(|id| position(m, id)).collect();
        assert!(
            also.windows(2).all(|w| w[0] < w[1]),
            "mutant {}: also_caught_by is in registry order, without repeats",
            m.name
        );
    }
}

/// Every mutant, wrapped around the reference driver, against the whole
/// registry (no corpus): the failing checks are exactly its
/// `expected_failures()`, and none timed out. A mismatch names the mutant,
/// its verdict and both sets, so the fix (a check that stopped catching
/// it, or an overlap to record in `also_caught_by`) is plain.
// Two workers, two mutants at a time (`run_mutants` bounds them so no
// check waits behind the others past its budget).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_mutant_is_caught_by_exactly_the_checks_it_names() {
    let mismatches: Vec<String> = run_mutants(Registry::standard(), mutants(), 2)
        .filter_map(|run| async move {
            (run.verdict() != MutantVerdict::Caught).then(|| {
                format!(
                    "mutant {}: {:?}: its entry expects {:?} to fail, the registry failed {:?}, timed out {:?}{}",
                    run.mutant.name,
                    run.verdict(),
                    run.mutant.expected_failures(),
                    run.failed,
                    run.timed_out,
                    run.error.map(|e| format!(", error {e}")).unwrap_or_default()
                )
            })
        })
        .collect()
        .await;
    assert_eq!(mismatches, Vec::<String>::new());
}

#[tokio::test]
async fn the_reference_driver_passes_every_check() {
    let factory = Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }));
    let summary = run_standard(factory).await;
    assert_eq!(not_passed(&summary), skipped_corpus_checks());
}

/// Every check, the property checks with 8 cases instead of the default
/// 32: each case opens a fresh SQLite file (`synchronous = FULL`), which
/// makes the default ~30 s of a debug test run, and the CLI tests already
/// run SQLite with the default cases over the corpus. Every check still
/// runs, so a failing or missing one shows here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_driver_passes_every_check() {
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
    let config = RunConfig {
        cases: 8,
        ..RunConfig::default()
    };
    let summary = Runner::new(Registry::standard())
        .with_config(config)
        .run(factory, None, |_| {})
        .await;
    assert_eq!(not_passed(&summary), skipped_corpus_checks());
}

/// A correct engine whose sums follow an entry's row (numpy through
/// OpenBLAS scores one document `0.7329325225725953` or `...51` by its
/// row): the reference drivers with every odd row's score one ulp up,
/// re-ranked. It passes every check, and the run reports the difference
/// `properties.cap_determinism` saw between the same data stored in two
/// orders as its score noise; the same wrapper moving scores by 10^-3 is
/// the mutant `row-dependent-scores`, which that check catches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scores_one_ulp_apart_by_row_pass_every_check_and_are_reported_as_noise() {
    use tinymemory_conformance::report::NoiseFigure;
    use tinymemory_doubles::mutants::{RowDependentScores, RowStep};
    use tinymemory_reference::SemanticReferenceDriver;

    let lexical = Arc::new(FnFactory::new("row-noise", || {
        Ok(Box::new(RowDependentScores::new(
            RowStep::Ulps(1),
            ReferenceDriver::new(),
        )) as Box<dyn MemoryProvider>)
    }));
    let summary = run_standard(lexical).await;
    assert_eq!(not_passed(&summary), skipped_corpus_checks());
    let report =
        tinymemory_conformance::Report::from_summary(&summary, std::time::SystemTime::now());
    let noise = report
        .conformance
        .score_noise
        .clone()
        .expect("a noise figure");
    // The lexical reference scores the fraction of the query's words an
    // entry holds, at most 1.0, whose ulp is 2^-52.
    assert_eq!(
        (noise.difference, noise.check.as_str()),
        (f64::EPSILON, "properties.cap_determinism")
    );
    assert!(noise.at.starts_with("across_section("), "{}", noise.at);
    assert!(
        report
            .conformance
            .to_string()
            .ends_with("score noise 2.2e-16 in properties.cap_determinism"),
        "{}",
        report.conformance
    );
    let checks_with_noise: Vec<&str> = report
        .checks
        .iter()
        .filter(|c| c.score_noise.is_some())
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(checks_with_noise, ["properties.cap_determinism"]);

    let semantic = Arc::new(
        FnFactory::new("row-noise", || {
            Ok(Box::new(RowDependentScores::new(
                RowStep::Ulps(1),
                SemanticReferenceDriver::new(),
            )) as Box<dyn MemoryProvider>)
        })
        .with_profile(tinymemory_api::RecallProfile::Semantic),
    );
    let summary = run_standard(semantic).await;
    let mut skipped = interface_skips();
    skipped.extend(
        ["corpus.namespace_counts", "corpus.self_retrieval"]
            .into_iter()
            .map(|id| (id, Outcome::Skip(NO_CORPUS.into()))),
    );
    assert_eq!(not_passed(&summary), skipped);
    let report =
        tinymemory_conformance::Report::from_summary(&summary, std::time::SystemTime::now());
    let Some(NoiseFigure {
        difference, check, ..
    }) = report.conformance.score_noise
    else {
        panic!("no noise figure: {:?}", report.conformance);
    };
    assert!(
        difference > 0.0 && difference <= f64::EPSILON,
        "{difference:e}"
    );
    assert_eq!(check, "properties.cap_determinism");
}
