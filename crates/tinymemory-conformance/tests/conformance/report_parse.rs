//! Reading a report back: every bad input is a clear error, never a panic.

use crate::support;

use tinymemory_conformance::report::OutcomeKind;
use tinymemory_conformance::{Report, ReportError};

fn with_version(v: &str) -> String {
    support::fixed_report::report().to_json().replacen(
        "\"schema_version\": 1",
        &format!("\"schema_version\": {v}"),
        1,
    )
}

#[test]
fn a_future_version_is_refused_before_anything_else_is_read() {
    // Version 2 might rename every field: the error must be about the
    // version, not about a missing field.
    let text = "{\"schema_version\": 2, \"something\": \"new\"}";
    match Report::from_json(text) {
        Err(ReportError::UnsupportedVersion {
            what: "report",
            found: 2,
            supported: 1,
        }) => {}
        other => panic!("expected UnsupportedVersion, got {other:?}"),
    }
    assert!(matches!(
        Report::from_json(&with_version("99")),
        Err(ReportError::UnsupportedVersion { found: 99, .. })
    ));
}

#[test]
fn malformed_reports_are_malformed_errors() {
    let cases = [
        "",
        "not json",
        "[1, 2]",
        "{}",
        "{\"schema_version\": \"1\"}",
        "{\"schema_version\": -1}",
        "{\"schema_version\": 1.5}",
        "{\"schema_version\": 1}",
    ];
    for text in cases {
        assert!(
            matches!(
                Report::from_json(text),
                Err(ReportError::Malformed { what: "report", .. })
            ),
            "{text:?}"
        );
    }
    assert!(matches!(
        Report::from_json(&with_version("0")),
        Err(ReportError::Malformed { .. })
    ));
}

#[test]
fn a_bad_seed_is_malformed_and_an_unknown_outcome_fails() {
    let good = support::fixed_report::report().to_json();
    let bad_seed = good.replacen("\"seed\": \"18446744073709551557\"", "\"seed\": \"-3\"", 1);
    assert_ne!(bad_seed, good);
    assert!(matches!(
        Report::from_json(&bad_seed),
        Err(ReportError::Malformed { .. })
    ));
    // docs/reports.md, "Versioning": an outcome the reader does not know
    // fails the run, and is written back as read.
    let unknown = good.replacen("\"outcome\": \"pass\"", "\"outcome\": \"passed\"", 1);
    assert_ne!(unknown, good);
    let read = Report::from_json(&unknown).expect("an unknown outcome is read");
    let entry = read
        .checks
        .iter()
        .find(|c| c.outcome == OutcomeKind::Unknown("passed".to_owned()))
        .expect("the edited check");
    assert!(entry.outcome.is_fail());
    assert_eq!(read.to_json(), unknown);
    // An outcome that is not a string is still malformed.
    let not_text = good.replacen("\"outcome\": \"pass\"", "\"outcome\": 3", 1);
    assert!(matches!(
        Report::from_json(&not_text),
        Err(ReportError::Malformed { .. })
    ));
}

#[test]
fn unknown_fields_of_the_same_version_are_ignored() {
    // Adding an optional field keeps the schema version, so an older
    // reader must accept a report that has one.
    let text =
        support::fixed_report::report()
            .to_json()
            .replacen('{', "{\n  \"added_later\": true,", 1);
    assert_eq!(
        Report::from_json(&text).expect("reads"),
        support::fixed_report::report()
    );
}

#[test]
fn a_seed_may_also_be_a_small_json_integer() {
    let text = support::fixed_report::report().to_json().replacen(
        "\"seed\": \"18446744073709551557\"",
        "\"seed\": 7",
        1,
    );
    assert_eq!(Report::from_json(&text).expect("reads").run.seed, 7);
}

#[test]
fn error_messages_read_as_failed_to() {
    let e = Report::from_json(&with_version("3")).expect_err("refused");
    assert_eq!(
        e.to_string(),
        "failed to read the report: it has schema_version 3, and this build reads version 1 at \
         most; use a tinymemory-conformance at least as new as the one that wrote it"
    );
}
