//! A report against a baseline.

use crate::support;

use tinymemory_conformance::report::OutcomeKind;
use tinymemory_conformance::{Comparison, Report};

fn set(report: &mut Report, id: &str, outcome: OutcomeKind) {
    let c = report
        .checks
        .iter_mut()
        .find(|c| c.id == id)
        .expect("the check is in the report");
    if outcome == OutcomeKind::Pass {
        c.message = None;
        c.reason = None;
    }
    c.outcome = outcome;
}

fn ids(list: &[tinymemory_conformance::report::Compared]) -> Vec<&str> {
    list.iter().map(|c| c.id.as_str()).collect()
}

/// The fixed report with its one timeout (`portability.round_trip`)
/// passing instead.
fn finished() -> Report {
    let mut r = support::fixed_report::report();
    set(&mut r, "portability.round_trip", OutcomeKind::Pass);
    r
}

#[test]
fn same_report_has_no_new_failures() {
    let r = finished();
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
    let mut now = finished(); // the baseline's timeout passes: not "fixed"
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
    let mut now = finished();
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

/// A timeout broke no rule: a baseline's timeout excuses no failure, and
/// a timeout now fails the gate whatever the baseline says, listed apart.
#[test]
fn a_timeout_is_never_a_known_failure() {
    let baseline = support::fixed_report::report();
    let same = Comparison::between(&baseline, &baseline);
    assert_eq!(ids(&same.timed_out), ["portability.round_trip"]);
    assert_eq!(same.timed_out[0].now, Some(OutcomeKind::Timeout));
    assert!(same.has_new_failures());
    assert_eq!(
        same.summary_line(),
        "baseline: 0 new failures, 3 still failing, 0 fixed, 1 timed out"
    );
    assert!(
        same.to_text().starts_with(
            "timed out      portability.round_trip: portability.round_trip ran past its budget \
             of 69s (60s, plus 1s for each of 9 requests): its driver"
        ),
        "{}",
        same.to_text()
    );

    let mut now = baseline.clone();
    set(&mut now, "portability.round_trip", OutcomeKind::Fail);
    let cmp = Comparison::between(&baseline, &now);
    assert_eq!(ids(&cmp.new_failures), ["portability.round_trip"]);
    assert!(cmp.timed_out.is_empty());

    let mut before = finished();
    set(&mut before, "recall.limit", OutcomeKind::Fail);
    let mut now = before.clone();
    set(&mut now, "recall.limit", OutcomeKind::Timeout);
    let cmp = Comparison::between(&before, &now);
    assert_eq!(ids(&cmp.timed_out), ["recall.limit"]);
    assert_eq!(
        ids(&cmp.still_failing),
        ["recall.min_score", "sections.merge_order"]
    );
}

#[test]
fn driver_text_in_a_comparison_is_cut_and_escaped() {
    let baseline = finished();
    let mut now = finished();
    set(&mut now, "store.upsert", OutcomeKind::Fail);
    let long = format!("\u{1b}[2J{}", "m".repeat(5_000));
    now.checks
        .iter_mut()
        .find(|c| c.id == "store.upsert")
        .unwrap()
        .message = Some(long);
    now.run.driver_id = "d".repeat(3_000);
    let text = Comparison::between(&baseline, &now).to_text();
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(
        text.lines().all(|l| l.chars().count() < 1_100),
        "a line past the cut"
    );
    assert!(
        text.contains(&format!(
            ": \\u{{1b}}[2J{}… (4004 bytes cut)",
            "m".repeat(996)
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}… (2000 bytes cut)", "d".repeat(1_000))),
        "{text}"
    );
}
