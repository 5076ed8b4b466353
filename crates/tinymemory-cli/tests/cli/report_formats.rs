//! `run --format`, `--output`, `--seed`, `--cases`: what lands where.

use crate::support;

use support::bin::{repo, run, scratch};
use tinymemory_conformance::report::{Level, OutcomeKind};
use tinymemory_conformance::Report;

#[test]
fn junit_of_a_mutant_run_validates_against_the_xsd() {
    let dir = scratch();
    let xml = dir.path().join("junit.xml");
    let ran = run(&[
        "run".as_ref(),
        "--driver".as_ref(),
        "mutant:limit-plus-one".as_ref(),
        "--no-corpus".as_ref(),
        "--format".as_ref(),
        "junit".as_ref(),
        "--output".as_ref(),
        xml.as_os_str(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let text = std::fs::read_to_string(&xml).expect("the report was written");
    assert!(
        text.contains(
            "<testcase name=\"recall.limit\" classname=\"mutant:limit-plus-one.contract\""
        ),
        "{text}"
    );
    // recall.limit fails (property checks may notice the mutant too), and
    // the totals agree with the testcases.
    let after = text
        .split("<testcase name=\"recall.limit\"")
        .nth(1)
        .expect("the testcase");
    assert!(
        after
            .trim_start()
            .split("</testcase>")
            .next()
            .is_some_and(|t| t.contains("<failure type=\"fail\" message=\"hits with limit ")),
        "{text}"
    );
    let failures = text.matches("<failure ").count();
    assert!(
        text.contains(&format!(
            "tests=\"{}\" failures=\"{failures}\" errors=\"0\"",
            text.matches("<testcase ").count()
        )),
        "{text}"
    );
    assert!(text.matches("<skipped ").count() >= 2, "{text}");
    if let Err(e) = support::xsd::validate(&xml, &repo("fixtures/junit/junit.xsd")) {
        panic!("the JUnit report is not valid:\n{e}\n{text}");
    }
}

#[test]
fn the_xsd_rejects_what_ci_reporters_would_misread() {
    // The schema must be able to fail: a testcase without a classname and
    // a negative time are refused.
    let dir = scratch();
    let xml = dir.path().join("bad.xml");
    std::fs::write(
        &xml,
        "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\">\
         <testcase name=\"t\" time=\"-1\"/></testsuite></testsuites>",
    )
    .expect("written");
    if std::process::Command::new("xmllint")
        .arg("--version")
        .output()
        .is_ok()
    {
        assert!(support::xsd::validate(&xml, &repo("fixtures/junit/junit.xsd")).is_err());
    }
}

#[test]
fn json_on_stdout_is_the_whole_report_and_progress_goes_to_stderr() {
    let ran = run(&[
        "run",
        "--driver",
        "mutant:limit-plus-one",
        "--no-corpus",
        "--format",
        "json",
        "--seed",
        "42",
        "--cases",
        "3",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let report = Report::from_json(&ran.stdout).expect("stdout is exactly the JSON report");
    assert_eq!((report.run.seed, report.run.cases), (42, 3));
    assert_eq!(report.run.driver_id, "mutant:limit-plus-one");
    assert_eq!(
        report.run.driver_spec.as_deref(),
        Some("mutant:limit-plus-one")
    );
    let failing: Vec<&str> = report.failures().map(|c| c.id.as_str()).collect();
    assert!(failing.contains(&"recall.limit"), "{failing:?}");
    assert_eq!(report.conformance.level, Level::Partial);
    assert!(report
        .checks
        .iter()
        .filter(|c| c.family == "corpus")
        .all(|c| c.outcome == OutcomeKind::Skip));
    let last_err = ran.stderr.lines().last().unwrap_or_default();
    assert_eq!(last_err, report.closing_line(), "{}", ran.dump());
    assert_eq!(report.counts.failed(), failing.len());
    assert!(
        ran.stderr.contains("FAIL  recall.limit (contract, "),
        "{}",
        ran.dump()
    );
}

#[test]
fn output_gets_the_report_while_progress_stays_on_stdout() {
    let dir = scratch();
    let md = dir.path().join("report.md");
    let ran = run(&[
        "run".as_ref(),
        "--driver".as_ref(),
        "reference".as_ref(),
        "--no-corpus".as_ref(),
        "--format".as_ref(),
        "markdown".as_ref(),
        "--output".as_ref(),
        md.as_os_str(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let text = std::fs::read_to_string(&md).expect("written");
    assert!(
        text.starts_with(
            "## tinymemory conformance: `reference` — PARTIAL (lexical: contract, sections"
        ),
        "{text}"
    );
    assert!(
        ran.stdout.contains(&format!("report: {}\n", md.display())),
        "{}",
        ran.dump()
    );
    assert!(
        ran.stdout.contains("PASS  store.upsert (contract, "),
        "{}",
        ran.dump()
    );
    assert!(ran.last_line().ends_with(" skipped"), "{}", ran.dump());
    assert_eq!(ran.stderr, "");
}

#[test]
fn text_output_file_holds_the_same_lines_without_colour() {
    let dir = scratch();
    let txt = dir.path().join("report.txt");
    let ran = run(&[
        "run".as_ref(),
        "--driver".as_ref(),
        "mutant:limit-plus-one".as_ref(),
        "--no-corpus".as_ref(),
        "--quiet".as_ref(),
        "--output".as_ref(),
        txt.as_os_str(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let text = std::fs::read_to_string(&txt).expect("written");
    assert!(!text.contains('\x1b'), "{text}");
    assert_eq!(text.lines().last(), Some(ran.last_line()));
    assert!(
        text.lines()
            .any(|l| l.starts_with("FAIL  recall.limit (contract, ")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("PASS  store.upsert (contract, ")),
        "{text}"
    );
    // Quiet: stdout shows the failure, not the passes.
    assert!(!ran.stdout.contains("PASS  "), "{}", ran.dump());
}

#[test]
fn zero_cases_is_a_usage_error() {
    let ran = run(&["run", "--driver", "reference", "--cases", "0"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(ran.stderr.contains("--cases"), "{}", ran.dump());
}

#[test]
fn an_unwritable_output_is_a_usage_error_before_the_run() {
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--format",
        "json",
        "--output",
        "/nonexistent/dir/report.json",
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .starts_with("error: failed to write /nonexistent/dir/report.json: "),
        "{}",
        ran.dump()
    );
    assert_eq!(ran.stdout, "");
}
