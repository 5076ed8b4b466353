//! The `tinymemory-conformance` binary as a user runs it.

use crate::support::bin::{command as bin, corpus_dir, ran_ids, run_parts as run};

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or_default()
}

/// The ids of the checks that apply to `profile`, in run order, from
/// `list --profile`, so these tests do not change whenever a check is
/// added.
fn checks_of(profile: &str) -> Vec<String> {
    let (code, out, err) = run(&["list", "--profile", profile]);
    assert_eq!(code, 0, "{err}");
    let ids: Vec<String> = out
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(id, _)| id.to_owned()))
        .filter(|id| id.contains('.'))
        .collect();
    let (_, total, _) = run(&["list"]);
    assert_eq!(
        last_line(&out),
        format!(
            "{} of {} checks apply to the {profile} recall profile",
            ids.len(),
            last_line(&total)
                .strip_suffix(" checks")
                .expect("`N checks` last")
        )
    );
    ids
}

/// How many checks apply to `profile`.
pub(crate) fn check_count(profile: &str) -> usize {
    checks_of(profile).len()
}

/// How many checks of `profile` are in the corpus family (skipped without
/// a corpus).
fn corpus_check_count(profile: &str) -> usize {
    checks_of(profile)
        .iter()
        .filter(|id| id.starts_with("corpus."))
        .count()
}

/// How many checks of `profile` run only for a driver that declares a
/// framework interface (`needs_interface` in `list --format json`):
/// skipped for every driver here, which serves none.
fn interface_check_count(profile: &str) -> usize {
    let (code, out, err) = run(&["list", "--profile", profile, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let listing: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    listing["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter(|c| c["needs_interface"] == true)
        .count()
}

/// The header line of a run with `--seed 5 --cases 2`.
fn header(driver: &str, profile: &str) -> String {
    format!(
        "tinymemory-conformance {} against {driver}, {profile}; seed 5, 2 cases per property",
        env!("CARGO_PKG_VERSION")
    )
}

#[test]
fn reference_over_the_corpus_passes_every_check() {
    let (code, out, err) = run(&["run", "--driver", "reference", "--corpus", &corpus_dir()]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    // The interface family is skipped: the reference driver serves no
    // framework interface.
    let (n, skipped) = (check_count("lexical"), interface_check_count("lexical"));
    assert_eq!(
        last_line(&out),
        format!("{} passed, 0 failed, {skipped} skipped", n - skipped)
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("PASS  ")).count(),
        n - skipped
    );
    assert_eq!(ran_ids(&out), checks_of("lexical"));
    assert!(
        out.lines().any(|l| l == "conformance: FULL (lexical)"),
        "{out}"
    );
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
    let (n, skipped) = (check_count("lexical"), interface_check_count("lexical"));
    assert_eq!(
        last_line(&out),
        format!("{} passed, 0 failed, {skipped} skipped", n - skipped)
    );
}

#[test]
fn without_a_corpus_the_corpus_checks_are_skipped() {
    let (code, out, _) = run(&["run", "--driver", "reference", "--no-corpus"]);
    assert_eq!(code, 0);
    let (n, skipped) = (check_count("lexical"), corpus_check_count("lexical"));
    assert_eq!(skipped, 2);
    let skipped = skipped + interface_check_count("lexical");
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
    // The list of kinds, and its order, are the registrations' (the unit
    // tests of src/driver.rs compare them); this is the message as a user
    // sees it, wherever a new kind is registered.
    assert!(err.contains("unknown driver \"mongo\"; expected "), "{err}");
    for form in ["reference", "sqlite:PATH", "postgres:URL", "exec:COMMAND"] {
        assert!(err.contains(form), "{form}: {err}");
    }
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

/// The store of `sqlite:PATH` is opened when the corpus is loaded into
/// it (a run without the corpus never opens it).
#[test]
fn an_unopenable_sqlite_path_is_a_setup_error() {
    let (code, _, err) = run(&[
        "run",
        "--driver",
        "sqlite:/nonexistent/dir/x.db",
        "--corpus",
        &corpus_dir(),
        "--check",
        "corpus.namespace_counts",
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

/// The largest `--timeout` and `--call-timeout` clap accepts (a year, the
/// longest limit a bundle may record; above it is refused, as
/// bundle_replay's tests show) are a budget, not a panic.
#[test]
fn the_largest_timeouts_are_accepted_not_a_panic() {
    for flag in ["--timeout", "--call-timeout"] {
        let (code, out, err) = run(&[
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--check",
            "store.upsert",
            "--check",
            "properties.truncation",
            "--cases",
            "2",
            flag,
            "31536000",
        ]);
        assert_eq!(code, 0, "{flag}\nstdout:\n{out}\nstderr:\n{err}");
        assert!(!err.contains("panicked"), "{flag}: {err}");
    }
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

/// `run --format json | head -c 10`: a report cut by a reader that closed
/// the pipe is a report not written whole, exit 2 as on a full disk, not
/// the run's verdict. The reader is closed before the run starts, so the
/// report's first write meets the closed pipe however small it is.
#[test]
fn a_report_cut_by_a_closed_pipe_is_an_error() {
    for format in ["json", "junit", "markdown"] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let status = bin()
            .args([
                "run",
                "--driver",
                "reference",
                "--no-corpus",
                "--check",
                "store.upsert",
                "--format",
                format,
            ])
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&status.stderr);
        assert_eq!(status.status.code(), Some(2), "{format}: {stderr}");
        assert!(
            stderr.ends_with(
                "error: failed to write the report to standard output: its reader closed the \
                 pipe before the report was written whole (Broken pipe (os error 32))\n"
            ),
            "{format}: {stderr}"
        );
    }
}

/// `| head -c 10` itself: the reader takes the report's first 10 bytes
/// and closes the pipe. The report (some 20 KB) fits in the pipe's
/// buffer, so every write succeeds; the bytes left unread when the reader
/// closed are what say the report was cut.
#[cfg(target_os = "linux")]
#[test]
fn a_report_whose_reader_stops_after_ten_bytes_is_an_error() {
    let cut = crate::support::bin::cut_after_ten_bytes(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--format",
        "json",
    ]);
    let stderr = &cut.stderr;
    assert_eq!(&cut.first, b"{\n  \"schem", "{stderr}");
    assert_eq!(cut.code, Some(2), "{stderr}");
    assert!(
        stderr.ends_with(
            "error: failed to write the report to standard output: its reader closed the pipe \
             before the report was written whole (Broken pipe (os error 32))\n"
        ),
        "{stderr}"
    );
}

#[test]
fn the_null_driver_fails_and_its_properties_say_why_they_skip() {
    let (code, out, _) = run(&["run", "--driver", "null", "--no-corpus"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.lines().any(|l| l == "conformance: NONE (lexical)"),
        "{out}"
    );
    assert!(out.contains("FAIL  store.upsert (contract,"), "{out}");
    assert!(
        out.lines().any(
            |l| l.starts_with("SKIP  properties.across_ordering (property,")
                && l.contains("driver retains nothing")
        ),
        "{out}"
    );
}

#[test]
fn the_semantic_driver_runs_the_semantic_checks_and_says_so() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "semantic",
        "--no-corpus",
        "--seed",
        "5",
        "--cases",
        "2",
    ]);
    assert!(code == 0 || code == 1, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        out.lines().next(),
        Some(
            header(
                "semantic-reference (in memory, cosine of hashed embeddings)",
                "semantic recall profile"
            )
            .as_str()
        ),
        "{out}"
    );
    let ids = checks_of("semantic");
    assert_eq!(ran_ids(&out), ids);
    // Whether the semantic driver passes every semantic check is the
    // conformance crate's to test; here: the level names the profile, and
    // the closing line counts exactly the semantic checks.
    let level = out
        .lines()
        .find_map(|l| l.strip_prefix("conformance: "))
        .expect("a conformance line");
    assert!(
        level == "FULL (semantic)"
            || level == "NONE (semantic)"
            || level.starts_with("PARTIAL (semantic: "),
        "{out}"
    );
    let failed = out.lines().filter(|l| l.starts_with("FAIL  ")).count();
    let skipped = corpus_check_count("semantic") + interface_check_count("semantic");
    assert_eq!(
        last_line(&out),
        format!(
            "{} passed, {failed} failed, {skipped} skipped",
            ids.len() - failed - skipped
        )
    );
    assert_eq!(code, if failed == 0 { 0 } else { 1 }, "{out}");
}

#[test]
fn profile_overrides_what_the_driver_declares() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--profile",
        "semantic",
        "--no-corpus",
        "--seed",
        "5",
        "--cases",
        "2",
    ]);
    // Lexical ranking is a valid semantic ranking: the reference driver
    // passes every semantic check.
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        out.lines().next(),
        Some(
            header(
                "reference (in memory)",
                "semantic recall profile (--profile; the driver declares lexical)"
            )
            .as_str()
        ),
        "{out}"
    );
    let ids = checks_of("semantic");
    assert_eq!(ran_ids(&out), ids);
    let skipped = corpus_check_count("semantic") + interface_check_count("semantic");
    assert_eq!(
        last_line(&out),
        format!(
            "{} passed, 0 failed, {skipped} skipped",
            ids.len() - skipped
        )
    );
    assert!(
        out.lines()
            .any(|l| l
                == "conformance: PARTIAL (semantic: contract, sections, portability, property)"),
        "{out}"
    );
}

#[test]
fn the_declared_profile_given_again_changes_nothing() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--profile",
        "lexical",
        "--no-corpus",
        "--quiet",
        "--seed",
        "5",
        "--cases",
        "2",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        out.lines().next(),
        Some(header("reference (in memory)", "lexical recall profile").as_str()),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l
                == "conformance: PARTIAL (lexical: contract, sections, portability, property)"),
        "{out}"
    );
}

#[test]
fn an_unknown_profile_is_a_usage_error_naming_it() {
    for args in [
        &["run", "--driver", "reference", "--profile", "bogus"][..],
        &["list", "--profile", "bogus"][..],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(out, "");
        assert_eq!(
            err.lines().next(),
            Some(
                "error: invalid value 'bogus' for '--profile <PROFILE>': \
                 unknown recall profile \"bogus\": expected \"lexical\" or \"semantic\""
            ),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn list_shows_the_profiles_of_each_check() {
    let (code, out, _) = run(&["list"]);
    assert_eq!(code, 0);
    for line in [
        "store.upsert                             contract     lexical, semantic  \
         a second store at (namespace, key) replaces the first; category, session and taint are kept as given",
        "namespace.case_sensitive                 contract     lexical, semantic  \
         namespaces compare byte for byte: learning:Rust, learning:rust and learning:RUST are three namespaces",
        "sections.namespace_filter_conflict       sections     lexical, semantic  \
         across_section refuses opts.namespace with NAMESPACE_FILTER_CONFLICT",
        "corpus.namespace_counts                  corpus       lexical, semantic  \
         after loading the corpus, namespaces() reports exactly the loaded entries per namespace",
        "properties.truncation                    property     lexical, semantic  \
         truncated is set exactly when namespaces of the section were skipped by the cap, never because hits were cut by the limit",
    ] {
        assert!(out.lines().any(|l| l == line), "{line}\nnot in\n{out}");
    }
    // Every check's line names one or both profiles in the third column
    // (bytes 54 to 71, after the 39-byte id and 11-byte family columns).
    let lines: Vec<&str> = out.lines().filter(|l| l.contains('.')).collect();
    assert_eq!(
        lines.len(),
        check_count("lexical") + check_count("semantic") - both(&out)
    );
    for l in lines {
        assert!(
            matches!(
                &l[54..73],
                "lexical, semantic  " | "lexical            " | "semantic           "
            ),
            "{l}"
        );
    }
}

/// How many checks of a `list` output apply to both profiles.
fn both(list: &str) -> usize {
    list.lines()
        .filter(|l| l.contains('.') && &l[54..71] == "lexical, semantic")
        .count()
}

#[test]
fn list_profile_lists_only_the_checks_of_that_profile() {
    let (_, all, _) = run(&["list"]);
    for profile in ["lexical", "semantic"] {
        let (code, out, _) = run(&["list", "--profile", profile]);
        assert_eq!(code, 0);
        // The same lines as the full listing, those naming the profile.
        let want: Vec<&str> = all
            .lines()
            .filter(|l| l.contains('.') && l[54..71].contains(profile))
            .collect();
        let got: Vec<&str> = out.lines().filter(|l| l.contains('.')).collect();
        assert_eq!(got, want, "{profile}");
        assert!(got.iter().any(|l| l.starts_with("store.upsert ")), "{out}");
        assert_eq!(got.len(), check_count(profile));
    }
}

#[test]
fn a_ranking_engine_held_to_the_lexical_rules_fails() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "semantic",
        "--profile",
        "lexical",
        "--no-corpus",
        "--quiet",
        "--seed",
        "5",
        "--cases",
        "2",
    ]);
    assert_eq!(code, 1, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        out.lines().next(),
        Some(
            header(
                "semantic-reference (in memory, cosine of hashed embeddings)",
                "lexical recall profile (--profile; the driver declares semantic)"
            )
            .as_str()
        ),
        "{out}"
    );
    // The hits that share no word with the query break the lexical rules.
    assert!(
        out.lines()
            .any(|l| l.starts_with("FAIL  recall.min_score (contract, ")),
        "{out}"
    );
}

/// A run that loads no corpus has no corpus store, so its header names
/// none: `sqlite:PATH` names PATH only when the corpus goes there.
#[test]
fn the_header_names_a_corpus_store_only_when_the_corpus_is_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("corpus.db");
    let spec = format!("sqlite:{}", store.display());
    let args = [
        "run", "--driver", &spec, "--quiet", "--seed", "5", "--cases", "2",
    ];
    let (code, out, err) = run(&[&args[..], &["--no-corpus", "--family", "contract"]].concat());
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        out.lines().next(),
        Some(
            header(
                "sqlite (a fresh in-memory database per check)",
                "lexical recall profile"
            )
            .as_str()
        ),
    );
    let (code, out, err) = run(&[
        &args[..],
        &["--corpus", &corpus_dir(), "--family", "corpus"],
    ]
    .concat());
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        out.lines().next(),
        Some(
            header(
                &format!("sqlite (corpus store {})", store.display()),
                "lexical recall profile"
            )
            .as_str()
        ),
    );
}

#[test]
fn an_exec_program_that_cannot_start_is_named_with_the_rule() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let plain = dir.path().join("plain.sh");
    std::fs::write(&plain, "#!/bin/sh\n").expect("written");
    let orphan = dir.path().join("orphan.sh");
    std::fs::write(&orphan, "#!/nonexistent/interpreter\n").expect("written");
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&orphan, std::fs::Permissions::from_mode(0o755))
            .expect("executable");
    }
    let (plain, orphan) = (plain.display(), orphan.display());
    let rule = "the command's first word is run as a program, without a shell";
    for (command, expected) in [
        (
            "/nonexistent/x.sh --db a".to_owned(),
            format!(
                "no such file /nonexistent/x.sh ({rule}; a path is taken from the working \
                 directory): No such file or directory (os error 2)"
            ),
        ),
        (
            "tinymemory-no-such-program".to_owned(),
            format!(
                "program tinymemory-no-such-program not found on PATH ({rule}): \
                 No such file or directory (os error 2)"
            ),
        ),
        (
            orphan.to_string(),
            format!(
                "{orphan} exists, but not the interpreter its #! line names ({rule}): \
                 No such file or directory (os error 2)"
            ),
        ),
        (
            plain.to_string(),
            format!(
                "{plain} is not executable ({rule}; chmod +x it, or name its interpreter \
                 first: exec:'sh SCRIPT'): Permission denied (os error 13)"
            ),
        ),
    ] {
        let (code, _, err) = run(&["run", "--driver", &format!("exec:{command}"), "--no-corpus"]);
        assert_eq!(code, 3, "{err}");
        assert_eq!(
            err,
            format!(
                "error: failed to open the driver: backend failure: failed to start \
                 `{command}`: {expected}\n"
            )
        );
    }
}

/// A rerun budget past what an instant can hold was accepted and panicked
/// once a check failed (exit 101, no report): it is a usage error naming
/// the range.
#[test]
fn a_rerun_budget_past_a_year_is_a_usage_error() {
    let (code, _, stderr) = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--rerun-budget",
        "18446744073709551615",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("18446744073709551615 is not in 1..=31536000"),
        "{stderr}"
    );
}
