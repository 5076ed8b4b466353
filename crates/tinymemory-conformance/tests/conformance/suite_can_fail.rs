//! The registry passes the reference driver and catches a driver that reads
//! `namespace: None` as "all namespaces".

use std::sync::Arc;

use tinymemory_api::MemoryProvider;
use tinymemory_conformance::{Family, FnFactory, Outcome, Registry, Runner};
// Reads a recall with `namespace: None` as every namespace: the divergence
// two real drivers once had.
use tinymemory_doubles::NoneMeansAll;
use tinymemory_reference::ReferenceDriver;

#[tokio::test]
async fn reference_driver_passes_every_check_without_a_corpus() {
    let factory = Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }));
    let registry = Registry::standard();
    let summary = Runner::new(registry.clone())
        .run(factory, None, |_| {})
        .await;
    let not_passed: Vec<_> = summary
        .reports
        .iter()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| (r.id, r.outcome.clone()))
        .collect();
    let mut expected: Vec<(&str, Outcome)> = registry
        .checks()
        .iter()
        .filter(|c| c.family.needs_interface())
        .map(|c| (c.id, Outcome::NotServed))
        .collect();
    expected.extend([
        (
            "corpus.namespace_counts",
            Outcome::Skip("no corpus was loaded for this run (use --corpus DIR)".into()),
        ),
        (
            "corpus.recall_own_words",
            Outcome::Skip("no corpus was loaded for this run (use --corpus DIR)".into()),
        ),
    ]);
    let skipped = expected.len();
    assert_eq!(not_passed, expected);
    assert_eq!(
        summary.closing_line(),
        format!(
            "{} passed, 0 failed, {skipped} skipped",
            registry
                .for_profile(tinymemory_api::RecallProfile::Lexical)
                .len()
                - skipped
        )
    );
}

#[tokio::test]
async fn none_means_all_fails_exactly_the_global_and_isolation_checks() {
    let factory = Arc::new(FnFactory::new("none-means-all", || {
        Ok(Box::new(NoneMeansAll::new(ReferenceDriver::new())) as Box<dyn MemoryProvider>)
    }));
    // The example-based checks only: the differential model check compares
    // every answer with the reference, so it catches this divergence too
    // (the mutant self-test records that).
    let registry = Registry::standard().filter(|c| c.family != Family::Property);
    let summary = Runner::new(registry).run(factory, None, |_| {}).await;
    // A recall with no namespace that searches every namespace is shaped
    // by what the others hold, so contract sentence 11 fails as well.
    assert_eq!(
        summary.failed_ids(),
        ["recall.none_means_global", "recall.namespace_isolation"]
    );
    let report = summary
        .reports
        .iter()
        .find(|r| r.id == "recall.none_means_global")
        .unwrap();
    assert_eq!(
        report.outcome,
        Outcome::fail("recall(namespace: None) hits: expected [\"g\"], got [\"c\", \"g\", \"l\"]")
    );
}

#[tokio::test]
async fn a_panicking_or_hanging_check_fails_and_the_run_goes_on() {
    use std::time::Duration;
    use tinymemory_conformance::Check;

    let registry = Registry::standard();
    let mut checks: Vec<Check> = vec![
        Check {
            id: "test.panics",
            family: Family::Contract,
            profiles: tinymemory_conformance::Profiles::BOTH,
            description: "panics",
            run: |_| Box::pin(async { panic!("driver exploded") }),
        },
        Check {
            id: "test.hangs",
            family: Family::Contract,
            profiles: tinymemory_conformance::Profiles::BOTH,
            description: "never finishes",
            run: |_| Box::pin(std::future::pending()),
        },
    ];
    checks.push(*registry.get("store.upsert").unwrap());
    // Long enough that a panic hook printing a backtrace on a loaded
    // machine still reports the panic before the timeout fires.
    let runner = Runner::new(Registry::from_checks(checks)).with_timeout(Duration::from_secs(3));
    let factory = Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }));
    let summary = runner.run(factory, None, |_| {}).await;
    let got: Vec<_> = summary
        .reports
        .iter()
        .map(|r| (r.id, r.outcome.clone()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "test.panics",
                Outcome::fail("check panicked: driver exploded")
            ),
            (
                "test.hangs",
                Outcome::Timeout(
                    "test.hangs ran past its budget of 3s (3s, plus 1s for each of 0 requests): \
                     the check made no request of its driver, so it is the check itself that ran \
                     this long; --timeout SECS raises the budget"
                        .to_owned()
                )
            ),
            ("store.upsert", Outcome::Pass),
        ]
    );
}
