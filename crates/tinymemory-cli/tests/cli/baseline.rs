//! `run --baseline` and `diff`: the CI gate.

use crate::support;

use std::ffi::OsStr;
use std::path::Path;

use support::bin::{run, scratch, Ran};
use tinymemory_conformance::Report;

/// Runs against `driver` without a corpus, writing the JSON report to
/// `json`, with `extra` arguments.
fn run_to(driver: &str, json: &Path, extra: &[&OsStr]) -> Ran {
    let mut args: Vec<&OsStr> = vec![
        "run".as_ref(),
        "--driver".as_ref(),
        driver.as_ref(),
        "--no-corpus".as_ref(),
        "--quiet".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--output".as_ref(),
        json.as_os_str(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// The ids of the checks that failed in the JSON report at `path`.
fn failing(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("the report was written");
    let report = Report::from_json(&text).expect("a report");
    report.failures().map(|c| c.id.clone()).collect()
}

/// `still failing  ID: ...` (or `new failure    ID: ...`) for each id.
fn lines(label: &str, ids: &[String]) -> Vec<String> {
    ids.iter().map(|id| format!("{label}  {id}: ")).collect()
}

#[test]
fn a_baseline_with_known_failures_exits_0_and_1_when_another_check_fails() {
    let dir = scratch();
    let baseline = dir.path().join("baseline.json");
    let first = run_to("mutant:limit-plus-one", &baseline, &[]);
    assert_eq!(first.code, 1, "{}", first.dump());
    // The mutant's own check fails; other checks that notice the same
    // fault (the property checks may) are known failures too.
    let known = failing(&baseline);
    assert!(known.iter().any(|id| id == "recall.limit"), "{known:?}");

    // The same failures again: known, so the gate passes.
    let again_json = dir.path().join("again.json");
    let again = run_to(
        "mutant:limit-plus-one",
        &again_json,
        &["--baseline".as_ref(), baseline.as_os_str()],
    );
    assert_eq!(again.code, 0, "{}", again.dump());
    assert_eq!(failing(&again_json), known);
    for line in lines("still failing", &known) {
        assert!(again.stdout.contains(&line), "{line}\n{}", again.dump());
    }
    let summary = format!(
        "baseline: 0 new failures, {} still failing, 0 fixed\n",
        known.len()
    );
    assert!(again.stdout.contains(&summary), "{}", again.dump());
    // The closing line still counts the failures, and stays last.
    let failed = format!(" passed, {} failed", known.len());
    assert!(again.last_line().contains(&failed), "{}", again.dump());

    // Another check starts failing: the gate fails, naming it.
    let worse_json = dir.path().join("worse.json");
    let worse = run_to(
        "mutant:limit-plus-one+like-wildcards",
        &worse_json,
        &["--baseline".as_ref(), baseline.as_os_str()],
    );
    assert_eq!(worse.code, 1, "{}", worse.dump());
    let new: Vec<String> = failing(&worse_json)
        .into_iter()
        .filter(|id| !known.contains(id))
        .collect();
    assert!(
        new.iter().any(|id| id == "namespace.no_wildcards"),
        "{new:?}"
    );
    for line in lines("new failure  ", &new) {
        assert!(worse.stdout.contains(&line), "{line}\n{}", worse.dump());
    }
    let summary = format!(
        "baseline: {} new failure{}, {} still failing, 0 fixed\n",
        new.len(),
        if new.len() == 1 { "" } else { "s" },
        known.len()
    );
    assert!(worse.stdout.contains(&summary), "{}", worse.dump());

    // The fix shows as fixed, and passes.
    let fixed = run_to(
        "reference",
        &dir.path().join("fixed.json"),
        &["--baseline".as_ref(), baseline.as_os_str()],
    );
    assert_eq!(fixed.code, 0, "{}", fixed.dump());
    assert!(
        fixed.stdout.contains("fixed          recall.limit\n"),
        "{}",
        fixed.dump()
    );
    assert!(
        fixed.stdout.contains(
            "note: the baseline is a report on driver \"mutant:limit-plus-one\", this one on \"reference\"\n"
        ),
        "{}",
        fixed.dump()
    );

    // diff A B prints the same and exits the same way.
    let diff = run(&[
        "diff".as_ref(),
        baseline.as_os_str(),
        worse_json.as_os_str(),
    ]);
    assert_eq!(diff.code, 1, "{}", diff.dump());
    assert!(
        diff.stdout
            .starts_with("note: the baseline is a report on driver "),
        "{}",
        diff.dump()
    );
    for line in lines("new failure  ", &new) {
        assert!(diff.stdout.contains(&line), "{line}\n{}", diff.dump());
    }
    assert_eq!(format!("{}\n", diff.last_line()), summary);
    let same = run(&["diff".as_ref(), baseline.as_os_str(), baseline.as_os_str()]);
    assert_eq!(same.code, 0, "{}", same.dump());
}

fn bad_baseline(content: &str) -> (Ran, String) {
    let dir = scratch();
    let path = dir.path().join("baseline.json");
    std::fs::write(&path, content).expect("written");
    let ran = run(&[
        "run".as_ref(),
        "--driver".as_ref(),
        "reference".as_ref(),
        "--no-corpus".as_ref(),
        "--baseline".as_ref(),
        path.as_os_str(),
    ]);
    (ran, path.display().to_string())
}

#[test]
fn a_malformed_baseline_is_a_usage_error_naming_the_file() {
    let (ran, path) = bad_baseline("{\"schema_version\": 1, \"run\": ");
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(&format!(
            "error: {path}: failed to read the report: not JSON: "
        )),
        "{}",
        ran.dump()
    );
    // Refused before anything ran.
    assert_eq!(ran.stdout, "");
    assert!(!ran.stderr.contains("panicked"), "{}", ran.dump());
}

#[test]
fn a_future_version_baseline_is_a_usage_error_saying_so() {
    let (ran, path) = bad_baseline("{\"schema_version\": 2, \"checks\": {}}");
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {path}: failed to read the report: it has schema_version 2, and this build \
             reads version 1 at most; use a tinymemory-conformance at least as new as the one \
             that wrote it\n"
        )
    );
    assert_eq!(ran.stdout, "");
}

#[test]
fn a_missing_baseline_is_a_usage_error() {
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--baseline",
        "/nonexistent/base.json",
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .starts_with("error: failed to read /nonexistent/base.json: "),
        "{}",
        ran.dump()
    );
}

#[test]
fn diff_of_a_bad_file_is_a_usage_error() {
    let dir = scratch();
    let good = dir.path().join("good.json");
    let made = run_to("reference", &good, &[]);
    assert_eq!(made.code, 0, "{}", made.dump());
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "[]").expect("written");
    let ran = run(&["diff".as_ref(), good.as_os_str(), bad.as_os_str()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {}: failed to read the report: expected a JSON object\n",
            bad.display()
        )
    );
}

#[test]
fn a_baseline_of_another_recall_profile_is_a_usage_error_and_diff_notes_it() {
    let dir = scratch();
    let semantic = dir.path().join("semantic.json");
    let made = run_to("semantic", &semantic, &[]);
    assert_eq!(made.code, 0, "{}", made.dump());
    let lexical = dir.path().join("lexical.json");
    let ran = run_to(
        "reference",
        &lexical,
        &["--baseline".as_ref(), semantic.as_os_str()],
    );
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: the baseline {} was run under the semantic recall profile and this run is lexical: \
             their checks differ, so the gate would not compare like with like; \
             record a baseline under lexical, or run with --profile semantic\n",
            semantic.display()
        )
    );
    let same = run_to(
        "reference",
        &lexical,
        &[
            "--profile".as_ref(),
            "semantic".as_ref(),
            "--baseline".as_ref(),
            semantic.as_os_str(),
        ],
    );
    assert_eq!(same.code, 0, "{}", same.dump());
    let plain = run_to("reference", &lexical, &[]);
    assert_eq!(plain.code, 0, "{}", plain.dump());
    let diff = run(&["diff".as_ref(), lexical.as_os_str(), semantic.as_os_str()]);
    assert_eq!(diff.code, 0, "{}", diff.dump());
    assert!(
        diff.stdout.contains(
            "note: the baseline ran under the lexical recall profile, this one under semantic: \
             they apply different checks\n"
        ),
        "{}",
        diff.dump()
    );
}

#[test]
fn diff_reads_an_unknown_outcome_as_a_failure() {
    let dir = scratch();
    let base = dir.path().join("base.json");
    let ran = run_to(
        "reference",
        &base,
        &["--check".as_ref(), "store.upsert".as_ref()],
    );
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let text = std::fs::read_to_string(&base).unwrap();
    let current = dir.path().join("current.json");
    let edited = text.replacen("\"outcome\": \"pass\"", "\"outcome\": \"weird\"", 1);
    assert_ne!(edited, text);
    std::fs::write(&current, edited).unwrap();
    let ran = run(&["diff".as_ref(), base.as_os_str(), current.as_os_str()]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert_eq!(
        ran.stdout,
        "new failure    store.upsert: outcome \"weird\", which this build does not know, read as \
         failing\nbaseline: 1 new failure, 0 still failing, 0 fixed\n"
    );
    // And the other way round, the unknown outcome is a failure that is
    // fixed now.
    let ran = run(&["diff".as_ref(), current.as_os_str(), base.as_os_str()]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert_eq!(
        ran.stdout,
        "fixed          store.upsert\nbaseline: 0 new failures, 0 still failing, 1 fixed\n"
    );
}

/// A report, baseline or bundle larger than any this build writes (a
/// device that never ends, a sparse file of gigabytes) is refused once
/// its first 256 MiB are read, naming the bound, instead of read whole
/// into memory (`diff /dev/zero r.json` grew past 9 GB in 20 s).
#[test]
fn a_report_or_bundle_past_the_size_bound_is_refused_without_reading_it_whole() {
    let dir = scratch();
    let good = dir.path().join("good.json");
    let made = run_to(
        "reference",
        &good,
        &["--check".as_ref(), "store.*".as_ref()],
    );
    assert_eq!(made.code, 0, "{}", made.dump());
    // A sparse file: one byte over the bound, no disk used.
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge)
        .and_then(|f| f.set_len(256 * 1024 * 1024 + 1))
        .expect("a sparse file");
    let refused = |path: &Path| {
        format!(
            "error: failed to read {}: it holds more than 268435456 bytes (256 MiB), more than \
             any report or bundle this build writes\n",
            path.display()
        )
    };
    let ran = run(&["diff".as_ref(), huge.as_os_str(), good.as_os_str()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(ran.stderr, refused(&huge));
    assert_eq!(ran.stdout, "");
    let ran = run(&["replay".as_ref(), huge.as_os_str()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(ran.stderr, refused(&huge));
    let ran = run(&["merge".as_ref(), good.as_os_str(), huge.as_os_str()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(ran.stderr, refused(&huge));
    // A device that never ends is read up to the bound, then refused.
    let zero = Path::new("/dev/zero");
    let ran = run(&[
        "run".as_ref(),
        "--driver".as_ref(),
        "reference".as_ref(),
        "--no-corpus".as_ref(),
        "--baseline".as_ref(),
        zero.as_os_str(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(ran.stderr, refused(zero));
    assert_eq!(ran.stdout, "");
}
