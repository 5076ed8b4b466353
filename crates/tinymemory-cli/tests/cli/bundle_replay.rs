//! `run --bundle` and `replay`: a failure becomes a file that reproduces
//! it.

use crate::support;

use support::bin::{repo, run, scratch};

/// The bundle committed from a run against `mutant:limit-plus-one`.
const COMMITTED: &str = "fixtures/regressions/mutant_limit-plus-one--recall.limit.json";

#[test]
fn a_bundle_written_from_a_mutant_failure_replays_to_the_same_failure() {
    let dir = scratch();
    let ran = run(&[
        "run".as_ref(),
        "--driver".as_ref(),
        "mutant:limit-plus-one".as_ref(),
        "--no-corpus".as_ref(),
        "--quiet".as_ref(),
        "--seed".as_ref(),
        "9".as_ref(),
        "--bundle".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let bundle = dir.path().join("mutant_limit-plus-one--recall.limit.json");
    assert!(
        ran.stdout
            .contains(&format!("bundle: {}\n", bundle.display())),
        "{}",
        ran.dump()
    );
    // One bundle per failing check (property checks may notice the mutant
    // too), each announced.
    let files = std::fs::read_dir(dir.path()).expect("listable").count();
    let failing = ran
        .stdout
        .lines()
        .filter(|l| l.starts_with("FAIL  "))
        .count();
    let announced = ran
        .stdout
        .lines()
        .filter(|l| l.starts_with("bundle: "))
        .count();
    assert_eq!((files, announced), (failing, failing), "{}", ran.dump());

    let replayed = run(&["replay".as_ref(), bundle.as_os_str()]);
    assert_eq!(replayed.code, 1, "{}", replayed.dump());
    assert!(
        replayed.stdout.starts_with(&format!(
            "replaying recall.limit (contract) against mutant:limit-plus-one, seed 9, {} cases; \
             recorded against mutant:limit-plus-one by tinymemory-conformance ",
            tinymemory_conformance::RunConfig::DEFAULT_CASES
        )),
        "{}",
        replayed.dump()
    );
    assert_eq!(
        replayed.last_line(),
        "reproduced: the check fails as recorded"
    );

    let on_reference = run(&[
        "replay".as_ref(),
        bundle.as_os_str(),
        "--driver".as_ref(),
        "reference".as_ref(),
    ]);
    assert_eq!(on_reference.code, 0, "{}", on_reference.dump());
    assert!(
        on_reference.stdout.contains("\nnow:      pass\n"),
        "{}",
        on_reference.dump()
    );
    assert_eq!(on_reference.last_line(), "fixed: the check passes now");
}

#[test]
fn the_committed_bundle_replays() {
    let path = repo(COMMITTED);
    let on_mutant = run(&["replay".as_ref(), path.as_os_str()]);
    assert_eq!(on_mutant.code, 1, "{}", on_mutant.dump());
    assert!(
        on_mutant
            .stdout
            .contains("\nrecorded: hits with limit 3 of 5 matches: expected 3, got 4\n"),
        "{}",
        on_mutant.dump()
    );
    let on_reference = run(&[
        "replay".as_ref(),
        path.as_os_str(),
        "--driver".as_ref(),
        "reference".as_ref(),
    ]);
    assert_eq!(on_reference.code, 0, "{}", on_reference.dump());
    assert_eq!(on_reference.last_line(), "fixed: the check passes now");
}

#[test]
fn a_bad_bundle_is_a_usage_error() {
    let dir = scratch();
    let path = dir.path().join("bundle.json");
    std::fs::write(&path, "{\"schema_version\": 5}").expect("written");
    let ran = run(&["replay".as_ref(), path.as_os_str()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(&format!(
            "error: {}: failed to read the bundle: it has schema_version 5",
            path.display()
        )),
        "{}",
        ran.dump()
    );
}

#[test]
fn a_bundle_without_a_driver_needs_one_given() {
    let dir = scratch();
    let path = dir.path().join("bundle.json");
    let text = std::fs::read_to_string(repo(COMMITTED)).expect("readable");
    let stripped = text.replacen(
        "\"driver_spec\": \"mutant:limit-plus-one\"",
        "\"driver_spec\": null",
        1,
    );
    assert_ne!(stripped, text);
    std::fs::write(&path, stripped).expect("written");
    let ran = run(&["replay".as_ref(), path.as_os_str()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {}: the bundle records no driver spec; pass --driver\n",
            path.display()
        )
    );
    let given = run(&[
        "replay".as_ref(),
        path.as_os_str(),
        "--driver".as_ref(),
        "mutant:limit-plus-one".as_ref(),
    ]);
    assert_eq!(given.code, 1, "{}", given.dump());
}

/// The committed bundle with `edit` applied to its JSON, written to `dir`.
fn edited(dir: &std::path::Path, edit: impl FnOnce(&mut serde_json::Value)) -> std::path::PathBuf {
    let text = std::fs::read_to_string(repo(COMMITTED)).expect("readable");
    let mut bundle: serde_json::Value = serde_json::from_str(&text).expect("json");
    edit(&mut bundle);
    let path = dir.join("bundle.json");
    std::fs::write(&path, bundle.to_string()).expect("written");
    path
}

#[test]
fn replay_shows_the_bundles_text_escaped() {
    let dir = scratch();
    let path = edited(dir.path(), |b| {
        b["driver_spec"] = serde_json::Value::Null;
        for field in ["driver_id", "tool", "tool_version", "recorded_at"] {
            b[field] = format!("{field}\u{1b}[2J").into();
        }
    });
    let ran = run(&[
        "replay".as_ref(),
        path.as_os_str(),
        "--driver".as_ref(),
        "reference".as_ref(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert!(!ran.stdout.contains('\u{1b}'), "{}", ran.dump());
    assert_eq!(
        ran.stdout.lines().next(),
        Some(
            "replaying recall.limit (contract) against reference, seed 8388357248759721216, \
             32 cases; recorded against driver_id\\u{1b}[2J by tool\\u{1b}[2J \
             tool_version\\u{1b}[2J at recorded_at\\u{1b}[2J"
        ),
        "{}",
        ran.dump()
    );
}

#[test]
fn a_corpus_check_with_another_family_is_refused() {
    let dir = scratch();
    let path = edited(dir.path(), |b| {
        b["check"] = "corpus.namespace_counts".into();
        b["family"] = "contract".into();
    });
    let ran = run(&[
        "replay".as_ref(),
        path.as_os_str(),
        "--driver".as_ref(),
        "reference".as_ref(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(ran.stdout, "", "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {}: the bundle's family \"contract\" is not the family of its check \
             corpus.namespace_counts in this build (\"corpus\"); the bundle was edited or \
             written by another build, so it is not replayed\n",
            path.display()
        )
    );
}

#[test]
fn a_contract_check_recorded_as_corpus_is_refused() {
    let dir = scratch();
    let path = edited(dir.path(), |b| b["family"] = "corpus\u{1b}[2J".into());
    let ran = run(&["replay".as_ref(), path.as_os_str()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(ran.stdout, "", "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {}: the bundle's family \"corpus\\u{{1b}}[2J\" is not the family of its \
             check recall.limit in this build (\"contract\"); the bundle was edited or \
             written by another build, so it is not replayed\n",
            path.display()
        )
    );
}

#[test]
fn a_bundle_of_an_unknown_check_is_refused_before_the_driver_opens() {
    let dir = scratch();
    let path = edited(dir.path(), |b| b["check"] = "recall.limit\u{1b}[2J".into());
    let ran = run(&["replay".as_ref(), path.as_os_str()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(ran.stdout, "", "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {}: the bundle's check \"recall.limit\\u{{1b}}[2J\" is not a check of \
             this build (`list` shows them), so it is not replayed\n",
            path.display()
        )
    );
}

#[test]
fn a_corpus_check_bundle_loads_the_corpus() {
    let dir = scratch();
    let path = edited(dir.path(), |b| {
        b["check"] = "corpus.namespace_counts".into();
        b["family"] = "corpus".into();
    });
    let ran = run(&[
        "replay".as_ref(),
        path.as_os_str(),
        "--driver".as_ref(),
        "reference".as_ref(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert!(ran.stdout.contains("\nloaded "), "{}", ran.dump());
    assert_eq!(ran.last_line(), "fixed: the check passes now");
}

#[test]
fn a_replay_store_inside_the_corpus_is_refused() {
    let dir = scratch();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).expect("made");
    std::fs::write(corpus.join("a.yml"), "conversations: []\n").expect("written");
    let store = corpus.join("x.db");
    let spec = format!("sqlite:{}", store.display());
    for (check, family) in [
        ("corpus.namespace_counts", "corpus"),
        ("recall.limit", "contract"),
    ] {
        let path = edited(dir.path(), |b| {
            b["check"] = check.into();
            b["family"] = family.into();
        });
        let ran = run(&[
            "replay".as_ref(),
            path.as_os_str(),
            "--driver".as_ref(),
            spec.as_ref(),
            "--corpus".as_ref(),
            corpus.as_os_str(),
        ]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(ran.stdout, "", "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: the store of --driver {spec} names the same file as the corpus {}: \
                 replay never writes a file it reads, so nothing was opened; name another \
                 store\n",
                corpus.display()
            ),
            "{check}"
        );
        assert!(!store.exists(), "{check}: {}", ran.dump());
    }
}

#[test]
fn a_replay_store_that_is_the_bundle_or_its_companion_is_refused() {
    let dir = scratch();
    let path = edited(dir.path(), |_| {});
    for (name, other) in [
        ("bundle.json", format!("the bundle {}", path.display())),
        (
            "bundle.json-wal",
            format!(
                "the -wal companion ({0}-wal) of the bundle {0}",
                path.display()
            ),
        ),
    ] {
        let store = dir.path().join(name);
        let spec = format!("sqlite:{}", store.display());
        let before = std::fs::read_to_string(&path).expect("readable");
        let ran = run(&[
            "replay".as_ref(),
            path.as_os_str(),
            "--driver".as_ref(),
            spec.as_ref(),
        ]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: the store of --driver {spec} names the same file as {other}: \
                 replay never writes a file it reads, so nothing was opened; name another \
                 store\n"
            )
        );
        assert_eq!(
            std::fs::read_to_string(&path).expect("readable"),
            before,
            "{name}"
        );
        let files: Vec<_> = std::fs::read_dir(dir.path())
            .expect("listable")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(files, ["bundle.json"], "{name}: {}", ran.dump());
    }
}

/// A bundle records the limits its check ran under (`--timeout`,
/// `--call-timeout`), and replay runs it under them unless told others:
/// a failure from a call unanswered within `--call-timeout 2` replays
/// as reproduced (under the default 30 s it waited longer and failed
/// another way), and `replay --call-timeout 3` overrides it.
#[test]
fn a_bundle_records_its_limits_and_replay_keeps_them() {
    let dir = scratch();
    let driver = format!(
        "exec:python3 {} hang needle",
        repo("crates/tinymemory-exec/tests/drivers/misbehave.py").display()
    );
    // Every driver process must answer hello within the call timeout too;
    // on a loaded machine a Python start-up may not (the driver cannot be
    // opened, exit 3): tried again.
    let until_opened = |args: &[&str]| {
        let mut ran = run(args);
        for _ in 0..5 {
            if ran.code != 3 {
                break;
            }
            ran = run(args);
        }
        ran
    };
    let ran = until_opened(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "recall.limit",
        "--no-rerun",
        "--call-timeout",
        "2",
        "--timeout",
        "40",
        "--quiet",
        "--bundle",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let bundle = std::fs::read_dir(dir.path())
        .unwrap()
        .next()
        .expect("a bundle")
        .unwrap()
        .path();
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap()).unwrap();
    assert_eq!(recorded["timeout_secs"], 40, "{recorded}");
    assert_eq!(recorded["call_timeout_secs"], 2, "{recorded}");
    let b = bundle.to_str().unwrap();
    let replayed = until_opened(&["replay", b, "--driver", &driver]);
    assert_eq!(replayed.code, 1, "{}", replayed.dump());
    assert!(
        replayed
            .stdout
            .contains("reproduced: the check fails as recorded"),
        "{}",
        replayed.dump()
    );
    let overridden = until_opened(&["replay", b, "--driver", &driver, "--call-timeout", "3"]);
    assert_eq!(overridden.code, 1, "{}", overridden.dump());
    assert!(
        overridden
            .stdout
            .contains("no answer within 3s (the request timeout, --call-timeout SECS)"),
        "{}",
        overridden.dump()
    );
    assert!(
        overridden
            .stdout
            .contains("still failing, with a different message"),
        "{}",
        overridden.dump()
    );
    // A bundle whose recorded limit this build cannot run under is
    // refused, naming the field.
    let zero = edited(dir.path(), |b| b["call_timeout_secs"] = 0.into());
    let refused = run(&["replay", zero.to_str().unwrap()]);
    assert_eq!(refused.code, 2, "{}", refused.dump());
    assert_eq!(
        refused.stderr,
        format!(
            "error: {}: the bundle's call_timeout_secs 0 is not a limit this build runs under \
             (1 to 31536000 seconds); pass the option it records to override it\n",
            zero.display()
        )
    );
    let given = run(&["replay", zero.to_str().unwrap(), "--call-timeout", "5"]);
    assert_eq!(given.code, 1, "{}", given.dump());
}

/// A limit above a year is refused where it is given, by every command
/// that takes one, as a bundle recording it is by `replay`: `run
/// --timeout 40000000 --bundle DIR` wrote bundles its own `replay` then
/// refused (exit 2), and `replay --call-timeout` took what its bundle may
/// not record.
#[test]
fn a_limit_no_bundle_may_record_is_refused_where_it_is_given() {
    let dir = scratch();
    let bundle = repo("fixtures/regressions")
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .expect("a committed bundle");
    for args in [
        vec![
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--timeout",
            "31536001",
        ],
        vec![
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--call-timeout",
            "31536001",
        ],
        vec!["replay", bundle.to_str().unwrap(), "--timeout", "31536001"],
        vec![
            "replay",
            bundle.to_str().unwrap(),
            "--call-timeout",
            "31536001",
        ],
        vec![
            "hello",
            "--driver",
            "exec:true",
            "--call-timeout",
            "31536001",
        ],
    ] {
        let mut args = args;
        if args[0] == "run" {
            args.extend(["--bundle", dir.path().to_str().unwrap()]);
        }
        let ran = run(&args);
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.dump());
        assert!(
            ran.stderr
                .starts_with("error: invalid value '31536001' for '--")
                && ran.stderr.contains("31536001 is not in 1..=31536000"),
            "{args:?}: {}",
            ran.dump()
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A corpus check's verdict holds for its own corpus only: its bundle
/// records the corpus it failed over, and a replay that loads another
/// (the bundled one, when `--corpus` is left out) is refused, exit 2,
/// naming both, rather than reporting the fault fixed. Over the recorded
/// corpus it reproduces.
#[test]
fn a_corpus_check_bundle_replayed_over_another_corpus_is_refused() {
    let dir = scratch();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(corpus.join("chatterbot/english")).unwrap();
    std::fs::write(
        corpus.join("chatterbot/english/words.yml"),
        "conversations:\n- - hello there friend\n  - zzqxlongestword ok\n",
    )
    .unwrap();
    let driver =
        support::bin::python_driver("crates/tinymemory-cli/tests/drivers/word_blind_driver.py");
    let bundles = dir.path().join("bundles");
    let ran = run(&[
        "run".as_ref(),
        "--driver".as_ref(),
        driver.as_ref(),
        "--corpus".as_ref(),
        corpus.as_os_str(),
        "--check".as_ref(),
        "corpus.recall_own_words".as_ref(),
        "--no-rerun".as_ref(),
        "--bundle".as_ref(),
        bundles.as_os_str(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let bundle = bundles.join(tinymemory_conformance::Bundle::file_name_for(
        &driver,
        "corpus.recall_own_words",
    ));
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap()).unwrap();
    assert_eq!(recorded["corpus"]["path"], corpus.display().to_string());
    assert_eq!(recorded["corpus"]["entries"], 3);

    let elsewhere = run(&[
        "replay".as_ref(),
        bundle.as_os_str(),
        "--driver".as_ref(),
        driver.as_ref(),
    ]);
    assert_eq!(elsewhere.code, 2, "{}", elsewhere.dump());
    let prefix = format!(
        "error: {}: the bundle's check corpus.recall_own_words failed over the corpus {} (3 entries in 2 namespaces, sha256:",
        bundle.display(),
        corpus.display()
    );
    assert!(
        elsewhere.stderr.starts_with(&prefix),
        "{}",
        elsewhere.dump()
    );
    assert!(
        elsewhere.stderr.ends_with(
            "; a corpus check's verdict holds for its own corpus only: pass --corpus with the recorded corpus\n"
        ),
        "{}",
        elsewhere.dump()
    );
    assert!(!elsewhere.stdout.contains("fixed"), "{}", elsewhere.dump());

    let same = run(&[
        "replay".as_ref(),
        bundle.as_os_str(),
        "--driver".as_ref(),
        driver.as_ref(),
        "--corpus".as_ref(),
        corpus.as_os_str(),
    ]);
    assert_eq!(same.code, 1, "{}", same.dump());
    assert_eq!(same.last_line(), "reproduced: the check fails as recorded");
}

#[test]
fn a_bundle_of_zero_cases_is_refused_as_run_refuses_them() {
    let dir = scratch();
    let path = edited(dir.path(), |b| b["cases"] = 0.into());
    let ran = run(&[
        "replay".as_ref(),
        path.as_os_str(),
        "--driver".as_ref(),
        "reference".as_ref(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(ran.stdout, "", "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {}: the bundle's cases is 0, and a run has at least 1 case per property \
             check (`run --cases` takes 1 or more); the bundle was edited or written by another \
             tool, so it is not replayed\n",
            path.display()
        )
    );
}

#[test]
fn a_bundle_of_another_version_says_its_verdict_may_differ() {
    let dir = scratch();
    let path = edited(dir.path(), |b| b["tool_version"] = "0.0.9".into());
    let ran = run(&[
        "replay".as_ref(),
        path.as_os_str(),
        "--driver".as_ref(),
        "reference".as_ref(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert_eq!(
        ran.stdout.lines().nth(1),
        Some(
            format!(
                "note: the bundle was recorded by tinymemory-conformance 0.0.9 and this is {}: \
                 a check's meaning and its cases may change between versions, so a pass here \
                 may not mean the recorded fault is fixed",
                env!("CARGO_PKG_VERSION")
            )
            .as_str()
        ),
        "{}",
        ran.dump()
    );
    // The same version says nothing more.
    let same = edited(dir.path(), |_| {});
    let ran = run(&[
        "replay".as_ref(),
        same.as_os_str(),
        "--driver".as_ref(),
        "reference".as_ref(),
    ]);
    assert!(!ran.stdout.contains("note: "), "{}", ran.dump());
}
