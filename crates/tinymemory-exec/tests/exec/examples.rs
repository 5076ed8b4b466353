//! The Python examples through the whole standard registry, over the
//! protocol: the contract, section, property and corpus checks.

use tinymemory_conformance::{Family, Registry};
use tinymemory_exec::ExecConfig;

use crate::support::{example, failures, run_suite, CASES};

fn families_ran(summary: &tinymemory_conformance::RunSummary, family: Family) -> usize {
    summary
        .reports
        .iter()
        .filter(|r| r.family == family)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_in_memory_example_passes_every_check() {
    let summary = run_suite(
        &example("memory_driver.py", &[]),
        ExecConfig::default(),
        true,
    )
    .await;
    assert_eq!(summary.failed(), 0, "{}", failures(&summary));
    assert_eq!(summary.skipped(), 0, "{}", summary.closing_line());
    assert_eq!(summary.passed(), Registry::standard().len());
    assert_eq!(summary.driver_id, "python-memory");
    assert_eq!(summary.config.cases, CASES);
    assert!(
        families_ran(&summary, Family::Property) > 0,
        "no property check ran"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_example_passes_every_check() {
    let summary = run_suite(
        &example("sqlite_driver.py", &[]),
        ExecConfig::default(),
        true,
    )
    .await;
    assert_eq!(summary.failed(), 0, "{}", failures(&summary));
    assert_eq!(summary.skipped(), 0, "{}", summary.closing_line());
    assert_eq!(summary.passed(), Registry::standard().len());
    assert_eq!(summary.driver_id, "python-sqlite");
    assert!(
        families_ran(&summary, Family::Property) > 0,
        "no property check ran"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_broken_example_fails_exactly_the_checks_of_its_three_bugs() {
    let summary = run_suite(
        &example("broken_driver.py", &[]),
        ExecConfig::default(),
        false,
    )
    .await;
    assert_eq!(
        summary.failed_ids(),
        [
            "recall.none_means_global",
            "recall.limit",
            "forget.idempotent",
            // The differential model check runs random call sequences
            // against a model, and meets one of the three bugs.
            "model.differential",
        ],
        "{}",
        failures(&summary)
    );
    let corpus_checks = Registry::standard().family(Family::Corpus).len();
    assert_eq!(
        summary.skipped(),
        corpus_checks,
        "{}",
        summary.closing_line()
    );
    assert_eq!(summary.driver_id, "python-broken");
}
