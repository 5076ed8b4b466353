//! A report against a baseline.

use tinymemory_conformance::report::OutcomeKind;
use tinymemory_conformance::{Comparison, Report};

mod support {
    pub mod fixed_report;
}

fn set(report: &mut Report, id: &str, outcome: OutcomeKind) {
    let c = report
        .checks
        .iter_mut()
        .find(|c| c.id == id)
        .expect("the check is in the report");
    c.outcome = outcome;
    if outcome == OutcomeKind::Pass {
        c.message = None;
        c.reason = None;
    }
}

fn ids(list: &[tinymemory_conformance::report::Compared]) -> Vec<&str> {
    list.iter().map(|c| c.id.as_str()).collect()
}

#[test]
fn same_report_has_no_new_failures() {
    let r = support::fixed_report::report();
    let cmp = Comparison::between(&r, &r);
    assert!(!cmp.has_new_failures());
    assert_eq!(
        ids(&cmp.still_failing),
        ["recall.limit", "recall.min_score", "sections.merge_order"]
    );
    assert!(cmp.fixed.is_empty() && cmp.not_run.is_empty() && cmp.different_drivers.is_none());
    assert_eq!(
        cmp.summary_line(),
        "baseline: 0 new failures, 3 still failing, 0 fixed"
    );
}

#[test]
fn new_fixed_still_failing_and_not_run_are_told_apart() {
    let baseline = support::fixed_report::report();
    let mut now = baseline.clone();
    set(&mut now, "store.upsert", OutcomeKind::Fail); // new
    set(&mut now, "recall.limit", OutcomeKind::Pass); // fixed
    set(&mut now, "recall.min_score", OutcomeKind::ExpectedFailure); // fixed: as declared
    set(&mut now, "sections.merge_order", OutcomeKind::Skip); // not run
    set(
        &mut now,
        "sections.invalid_section",
        OutcomeKind::UnexpectedlyPassing,
    ); // new
    let cmp = Comparison::between(&baseline, &now);
    assert_eq!(
        ids(&cmp.new_failures),
        ["store.upsert", "sections.invalid_section"]
    );
    assert_eq!(ids(&cmp.fixed), ["recall.limit", "recall.min_score"]);
    assert_eq!(ids(&cmp.not_run), ["sections.merge_order"]);
    assert!(cmp.still_failing.is_empty());
    assert!(cmp.has_new_failures());
    assert_eq!(
        cmp.summary_line(),
        "baseline: 2 new failures, 0 still failing, 2 fixed, 1 not run"
    );
}

#[test]
fn a_check_missing_from_the_baseline_that_fails_is_new_and_a_removed_failure_is_not_run() {
    let mut baseline = support::fixed_report::report();
    let removed = baseline.checks.remove(1); // recall.limit: fails now, absent before
    let mut now = support::fixed_report::report();
    now.checks.retain(|c| c.id != "sections.merge_order");
    now.run.driver_id = "acme-db-2".to_owned();
    let cmp = Comparison::between(&baseline, &now);
    assert_eq!(removed.id, "recall.limit");
    assert_eq!(ids(&cmp.new_failures), ["recall.limit"]);
    assert_eq!(ids(&cmp.not_run), ["sections.merge_order"]);
    assert_eq!(cmp.not_run[0].now, None);
    assert_eq!(
        cmp.different_drivers,
        Some(("acme-db".to_owned(), "acme-db-2".to_owned()))
    );
}

#[test]
fn the_text_lists_each_group_then_the_summary() {
    let baseline = support::fixed_report::report();
    let mut now = baseline.clone();
    set(&mut now, "recall.limit", OutcomeKind::Pass);
    set(&mut now, "store.upsert", OutcomeKind::Fail);
    now.checks[0].message = Some("second store duplicated the entry".to_owned());
    assert_eq!(
        Comparison::between(&baseline, &now).to_text(),
        "new failure    store.upsert: second store duplicated the entry\n\
         still failing  recall.min_score: acme-db#12: min_score ignored\n\
         still failing  sections.merge_order: merged order differs <a & b> | \"q\" 'a'\n\
         fixed          recall.limit\n\
         baseline: 1 new failure, 2 still failing, 1 fixed\n"
    );
}
