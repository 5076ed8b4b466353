//! Snapshots of every renderer over a fixed report holding every outcome
//! kind (durations, seed and start time are fixed, so nothing needs
//! redacting), and the report model's own rules.

use crate::support;

use support::fixed_report::report;
use tinymemory_conformance::report::{Counts, FamilyStatus, Level, OutcomeKind};

#[test]
fn text_render() {
    insta::assert_snapshot!("text", report().to_text(false));
}

#[test]
fn text_render_in_colour() {
    insta::assert_snapshot!("text_colour", report().to_text(true));
}

#[test]
fn json_render() {
    insta::assert_snapshot!("json", report().to_json());
}

#[test]
fn junit_render() {
    insta::assert_snapshot!("junit", report().to_junit());
}

#[test]
fn markdown_render() {
    insta::assert_snapshot!("markdown", report().to_markdown());
}

#[test]
fn the_fixed_report_holds_every_outcome_kind_once_or_more() {
    let r = report();
    assert_eq!(
        r.counts,
        Counts {
            total: 8,
            pass: 2,
            fail: 2,
            skip: 1,
            expected_failure: 1,
            unexpectedly_passing: 1,
            timeout: 1,
        }
    );
    assert_eq!(r.counts.failed(), 4);
    assert_eq!(
        r.closing_line(),
        "3 passed, 3 failed, 1 timed out, 1 skipped"
    );
    let failing: Vec<&str> = r.failures().map(|c| c.id.as_str()).collect();
    assert_eq!(
        failing,
        [
            "recall.limit",
            "recall.min_score",
            "sections.merge_order",
            "portability.round_trip"
        ]
    );
    assert_eq!(
        r.conformance.to_string(),
        "PARTIAL (lexical: corpus; timed out: portability.round_trip)"
    );
    assert_eq!(r.checks[2].outcome, OutcomeKind::UnexpectedlyPassing);
}

#[test]
fn the_level_names_the_families_that_pass() {
    let r = report();
    assert_eq!(r.conformance.level, Level::Partial);
    let statuses: Vec<(&str, FamilyStatus)> = r
        .conformance
        .families
        .iter()
        .map(|f| (f.family.as_str(), f.status))
        .collect();
    assert_eq!(
        statuses,
        [
            ("contract", FamilyStatus::Fail),
            ("sections", FamilyStatus::Fail),
            ("portability", FamilyStatus::Incomplete),
            ("corpus", FamilyStatus::Pass),
        ]
    );
    assert_eq!(r.conformance.timed_out, ["portability.round_trip"]);
}

/// A failure's driver error is data of the JSON report only: every other
/// format (text, JUnit, Markdown, bundles, comparisons) renders a report
/// holding driver errors byte for byte as the same report without them,
/// and JSON reads them back, with the groups they make.
#[test]
fn driver_errors_are_in_the_json_report_only() {
    use tinymemory_api::MemoryError;
    use tinymemory_conformance::report::SharedError;
    use tinymemory_conformance::{Bundle, Comparison, DriverError, Report};

    let plain = report();
    let mut with = plain.clone();
    for (i, c) in with.checks.iter_mut().enumerate() {
        let e = MemoryError::invalid("namespace.charset", format!("<bad> \u{1b}[31m {}", i % 2));
        c.driver_error = Some(DriverError::from(&e));
    }
    with.shared_errors = SharedError::of(&with.checks);
    assert!(!with.shared_errors.is_empty());
    assert_ne!(with, plain);
    let renders = |r: &Report| {
        let bundles: Vec<String> = Bundle::all_from(r).iter().map(Bundle::to_json).collect();
        (
            [
                r.to_text(false),
                r.to_text(true),
                r.to_junit(),
                r.to_markdown(),
                Comparison::between(r, &plain).to_text(),
                Comparison::between(&plain, r).to_text(),
            ],
            bundles,
        )
    };
    assert_eq!(renders(&with), renders(&plain));
    assert!(!Bundle::all_from(&plain).is_empty());
    assert_ne!(with.to_json(), plain.to_json());
    let back = Report::from_json(&with.to_json()).expect("reads back");
    assert_eq!(back, with);
}

/// The notes a run adds to a failure follow its message in the text,
/// JUnit and Markdown reports; a bundle keeps the message as the check
/// wrote it; JSON reads them back.
#[test]
fn failure_notes_follow_the_message_and_no_bundle_holds_them() {
    use tinymemory_conformance::report::{FailureNote, NoteKind, OutcomeKind};
    use tinymemory_conformance::{Bundle, Report};

    let plain = report();
    let mut with = plain.clone();
    let failed = with
        .checks
        .iter_mut()
        .find(|c| c.outcome == OutcomeKind::Fail)
        .expect("a failure");
    let own = failed.message.clone().expect("a message");
    failed.notes = vec![FailureNote::rerun(
        "fails-alone",
        "fails alone too; reproduce: tinymemory-conformance run --check x",
        Some("tinymemory-conformance run --check x".to_owned()),
    )];
    failed
        .notes
        .push(FailureNote::new(NoteKind::NotRerun, "(not rerun)"));
    let shown = format!(
        "{own}\n  fails alone too; reproduce: tinymemory-conformance run --check x\n  (not rerun)"
    );
    assert_eq!(failed.message_with_notes().as_deref(), Some(shown.as_str()));
    for (format, text) in [
        ("text", with.to_text(false)),
        ("junit", with.to_junit()),
        ("markdown", with.to_markdown()),
    ] {
        assert!(
            text.contains("fails alone too; reproduce:"),
            "{format}: {text}"
        );
        assert!(text.contains("(not rerun)"), "{format}: {text}");
    }
    let bundles =
        |r: &Report| -> Vec<String> { Bundle::all_from(r).iter().map(Bundle::to_json).collect() };
    assert_eq!(bundles(&with), bundles(&plain));
    assert_eq!(
        Report::from_json(&with.to_json()).expect("reads back"),
        with
    );
}

#[test]
fn json_round_trips_exactly() {
    let r = report();
    let text = r.to_json();
    assert_eq!(
        tinymemory_conformance::Report::from_json(&text).expect("reads back"),
        r
    );
    // The seed is a string: 18446744073709551557 does not survive a double.
    assert!(
        text.contains("\"seed\": \"18446744073709551557\""),
        "{text}"
    );
}

#[test]
fn redacting_zeroes_every_duration_and_the_start_time() {
    let r = report().redacted();
    assert_eq!(r.run.started_at, "1970-01-01T00:00:00Z");
    assert_eq!(r.run.duration_ms, 0.0);
    assert!(r.checks.iter().all(|c| c.duration_ms == 0.0));
    assert_eq!(r.checks, {
        let mut checks = report().checks;
        for c in &mut checks {
            c.duration_ms = 0.0;
        }
        checks
    });
}

#[test]
fn durations_are_milliseconds_to_the_microsecond() {
    let r = report();
    assert_eq!(r.run.duration_ms, 2345.0);
    assert_eq!(r.checks[0].duration_ms, 1.234);
    assert_eq!(r.run.started_at, "2025-01-31T12:00:00Z");
}

#[test]
fn a_report_without_a_profile_reads_as_lexical_and_every_format_states_it() {
    let mut r = report();
    r.run.recall_profile = tinymemory_api::RecallProfile::Semantic;
    r.conformance.profile = tinymemory_api::RecallProfile::Semantic;
    assert_eq!(
        r.conformance.to_string(),
        "PARTIAL (semantic: corpus; timed out: portability.round_trip)"
    );
    assert!(r
        .to_text(false)
        .contains("(acme-db 2.3.1), semantic recall profile: seed"));
    assert!(r.to_text(false).contains(
        "\nconformance: PARTIAL (semantic: corpus; timed out: portability.round_trip)\n"
    ));
    assert!(r
        .to_junit()
        .contains("<property name=\"recall_profile\" value=\"semantic\"/>"));
    assert!(r.to_markdown().contains("| recall profile | semantic |"));
    let json = r.to_json();
    assert!(json.contains("\"recall_profile\": \"semantic\""), "{json}");
    // A report written before profiles existed.
    let old = report()
        .to_json()
        .replace("\"recall_profile\": \"lexical\",", "")
        .replace("\"profile\": \"lexical\",", "");
    assert!(!old.contains("lexical"), "{old}");
    let read = tinymemory_conformance::Report::from_json(&old).expect("reads back");
    assert_eq!(read, report());
}

/// A driver id or message holding bidi overrides, isolates, zero-width or
/// separator characters reaches no format raw: each shows as the escape a
/// control character gets, so it cannot reorder the rest of a line (a
/// `FAIL` shown as a `PASS`).
#[test]
fn bidi_and_format_characters_are_escaped_in_every_format() {
    let mut r = report();
    r.run.driver_id = "acme\u{202e}SSAP".to_owned();
    let failing = r
        .checks
        .iter_mut()
        .find(|c| c.id == "recall.limit")
        .expect("the fixed report fails recall.limit");
    failing.message = Some("got \u{2066}3\u{2069} hits\u{200b}\u{2028}PASS\u{feff}".to_owned());
    let hidden = |c: char| {
        matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'..='\u{200f}')
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
    };
    for (format, text) in [
        ("text", r.to_text(false)),
        ("text in colour", r.to_text(true)),
        ("junit", r.to_junit()),
        ("markdown", r.to_markdown()),
    ] {
        assert!(!text.contains(hidden), "{format}: {text}");
        // Markdown doubles the backslash of an escape in its cells.
        let text = text.replace("\\\\", "\\");
        assert!(text.contains("acme\\u{202e}SSAP"), "{format}: {text}");
        assert!(
            text.contains("got \\u{2066}3\\u{2069} hits\\u{200b}\\u{2028}PASS\\u{feff}"),
            "{format}: {text}"
        );
    }
}

#[test]
fn every_format_names_the_corpus_the_run_measured() {
    use tinymemory_conformance::report::{CorpusFacts, RunCorpus, SCHEMA_VERSION};
    let loaded = report().with_corpus(RunCorpus::Loaded(CorpusFacts {
        path: "fixtures/corpora".to_owned(),
        digest: "sha256:3c1d".to_owned(),
        entries: 22_688,
        namespaces: 272,
    }));
    assert_eq!(
        loaded.to_text(false).lines().nth(1),
        Some("corpus: fixtures/corpora (22688 entries in 272 namespaces, sha256:3c1d)")
    );
    assert!(
        loaded.to_markdown().contains(
            "| corpus | fixtures/corpora (22688 entries in 272 namespaces, sha256:3c1d) |\n"
        ),
        "{}",
        loaded.to_markdown()
    );
    let junit = loaded.to_junit();
    for property in [
        "<property name=\"corpus\" value=\"fixtures/corpora\"/>",
        "<property name=\"corpus_digest\" value=\"sha256:3c1d\"/>",
        "<property name=\"corpus_entries\" value=\"22688\"/>",
        "<property name=\"corpus_namespaces\" value=\"272\"/>",
    ] {
        assert!(junit.contains(property), "{property} in {junit}");
    }
    let json: serde_json::Value = serde_json::from_str(&loaded.to_json()).unwrap();
    assert_eq!(json["schema_version"], SCHEMA_VERSION);
    assert_eq!(
        json["run"]["corpus"],
        serde_json::json!({"path": "fixtures/corpora", "digest": "sha256:3c1d",
                           "entries": 22_688, "namespaces": 272})
    );
    assert_eq!(
        tinymemory_conformance::Report::from_json(&loaded.to_json()).unwrap(),
        loaded
    );
    let none = report().with_corpus(RunCorpus::None);
    assert_eq!(
        none.to_text(false).lines().nth(1),
        Some("corpus: none (--no-corpus)")
    );
    assert!(none
        .to_junit()
        .contains("<property name=\"corpus\" value=\"none\"/>"));
    // A report that does not say (no corpus check ran) is as before.
    assert_eq!(report().corpus_line(), None);
}
