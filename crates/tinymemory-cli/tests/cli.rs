//! The `tinymemory-conformance` binary as a user runs it.

use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tinymemory-conformance"))
}

fn corpus_dir() -> String {
    format!("{}/../../fixtures/corpora", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = bin().args(args).output().expect("the binary runs");
    (
        status.code().expect("exited with a code"),
        String::from_utf8(stdout).expect("utf-8 stdout"),
        String::from_utf8(stderr).expect("utf-8 stderr"),
    )
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or_default()
}

/// How many checks the registry has, from `list`'s last line (`N checks`),
/// so these tests do not change whenever a check is added.
fn check_count() -> usize {
    let (code, out, _) = run(&["list"]);
    assert_eq!(code, 0);
    let n = last_line(&out)
        .strip_suffix(" checks")
        .expect("`N checks` last");
    n.parse().expect("a count")
}

/// How many checks are in the corpus family (skipped without a corpus).
fn corpus_check_count() -> usize {
    let (_, out, _) = run(&["list"]);
    out.lines().filter(|l| l.starts_with("corpus.")).count()
}

#[test]
fn reference_over_the_corpus_passes_every_check() {
    let (code, out, err) = run(&["run", "--driver", "reference", "--corpus", &corpus_dir()]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let n = check_count();
    assert_eq!(last_line(&out), format!("{n} passed, 0 failed"));
    assert_eq!(out.lines().filter(|l| l.starts_with("PASS  ")).count(), n);
    assert!(out.lines().any(|l| l == "conformance: FULL"), "{out}");
    assert!(
        out.contains("example: across_section(learning, \"computer\", limit 3)"),
        "{out}"
    );
}

#[test]
fn sqlite_over_the_corpus_passes_every_check() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "sqlite",
        "--corpus",
        &corpus_dir(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        last_line(&out),
        format!("{} passed, 0 failed", check_count())
    );
}

#[test]
fn without_a_corpus_the_corpus_checks_are_skipped() {
    let (code, out, _) = run(&["run", "--driver", "reference", "--no-corpus"]);
    assert_eq!(code, 0);
    let (n, skipped) = (check_count(), corpus_check_count());
    assert_eq!(skipped, 2);
    assert_eq!(
        last_line(&out),
        format!("{} passed, 0 failed, {skipped} skipped", n - skipped)
    );
    assert!(
        out.contains("SKIP  corpus.namespace_counts (corpus,"),
        "{out}"
    );
}

#[test]
fn an_unknown_driver_is_a_usage_error() {
    let (code, _, err) = run(&["run", "--driver", "mongo"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "unknown driver \"mongo\"; expected reference, null, sqlite, sqlite:PATH, postgres:URL, exec:COMMAND or mutant:NAME"
        ),
        "{err}"
    );
}

#[test]
fn a_missing_corpus_is_a_setup_error_naming_the_directory() {
    let (code, _, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--corpus",
        "/nonexistent/corpus",
    ]);
    assert_eq!(code, 3);
    assert!(err.contains("/nonexistent/corpus"), "{err}");
}

#[test]
fn an_unopenable_sqlite_path_is_a_setup_error() {
    let (code, _, err) = run(&[
        "run",
        "--driver",
        "sqlite:/nonexistent/dir/x.db",
        "--no-corpus",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.starts_with("error: failed to open the driver: "),
        "{err}"
    );
}

#[test]
fn list_names_every_check() {
    let (code, out, _) = run(&["list"]);
    assert_eq!(code, 0);
    let listed = out.lines().filter(|l| l.contains('.')).count();
    assert_eq!(last_line(&out), format!("{listed} checks"));
    assert!(
        out.lines()
            .any(|l| l.starts_with("recall.none_means_global ")),
        "{out}"
    );
}

#[test]
fn an_unreachable_server_is_a_setup_error_not_failed_checks() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "postgres:postgres://nobody@127.0.0.1:1/none",
        "--no-corpus",
        "--quiet",
    ]);
    assert_eq!(code, 3, "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        err.starts_with("error: failed to open the driver: unavailable: "),
        "{err}"
    );
    assert!(!out.contains("FAIL"), "{out}");
}

#[test]
fn a_zero_timeout_is_a_usage_error() {
    let (code, _, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--timeout",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid value '0' for '--timeout <SECS>'"),
        "{err}"
    );
}

#[test]
fn a_full_disk_behind_stdout_is_an_error_not_a_panic() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let status = bin()
        .args(["list"])
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("the binary runs");
    assert_eq!(status.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&status.stderr),
        "error: failed to write to standard output: No space left on device (os error 28)\n"
    );
}

#[test]
fn the_null_driver_fails_and_its_properties_say_why_they_skip() {
    let (code, out, _) = run(&["run", "--driver", "null", "--no-corpus"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("conformance: NONE"), "{out}");
    assert!(out.contains("FAIL  store.upsert (contract,"), "{out}");
    assert!(
        out.lines().any(
            |l| l.starts_with("SKIP  properties.across_ordering (property,")
                && l.contains("driver retains nothing")
        ),
        "{out}"
    );
}
