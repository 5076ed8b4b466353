//! Failed checks sharing one driver error are grouped in the summary.

use tinymemory_api::RecallProfile;
use tinymemory_conformance::{Family, Registry};

#[test]
fn one_query_parser_error_is_named_once_for_the_checks_it_fails() {
    let out = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            "mutant:query-as-fts5-syntax",
            "--no-corpus",
            "--quiet",
            "--cases",
            "4",
        ])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = stdout.lines().collect();
    // Every lexical check of this build runs but the corpus ones and those
    // that need a framework interface (skipped: a mutant serves none); 7
    // fail.
    let lexical = Registry::standard().for_profile(RecallProfile::Lexical);
    let skipped = lexical.family(Family::Corpus).len()
        + lexical
            .checks()
            .iter()
            .filter(|c| c.family.needs_interface())
            .count();
    let closing = format!(
        "{} passed, 7 failed, {skipped} skipped",
        lexical.len() - 7 - skipped
    );
    assert_eq!(
        lines[lines.len() - 3..],
        [
            "5 checks failed on the same error: backend failure: fts5: syntax error near \"\"\" \
             (recall.plain_text_query, properties.cap_determinism, properties.truncation, \
             properties.concurrent_equals_sequential, model.differential)",
            "conformance: PARTIAL (lexical: sections, portability)",
            closing.as_str(),
        ],
        "{stdout}"
    );
}

#[test]
fn a_passing_run_prints_no_group() {
    let out = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            "reference",
            "--check",
            "recall.*",
            "--quiet",
        ])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    assert!(!stdout.contains("failed on the same error"), "{stdout}");
}

/// The JSON report carries the groups and each failure's driver error as
/// data: a program reads them rather than the console's line.
#[test]
fn the_json_report_carries_the_groups_and_each_driver_error() {
    let out = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            "mutant:query-as-fts5-syntax",
            "--no-corpus",
            "--quiet",
            "--cases",
            "4",
            "--format",
            "json",
        ])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let error = serde_json::json!({
        "kind": "backend",
        "message": "fts5: syntax error near \"\"\"",
    });
    assert_eq!(
        report["shared_errors"],
        serde_json::json!([{
            "error": error,
            "checks": [
                "recall.plain_text_query",
                "properties.cap_determinism",
                "properties.truncation",
                "properties.concurrent_equals_sequential",
                "model.differential",
            ],
        }])
    );
    let plain = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "recall.plain_text_query")
        .unwrap();
    assert_eq!(plain["driver_error"], error);
    assert_eq!(report["conformance"]["level"], "partial");
}
