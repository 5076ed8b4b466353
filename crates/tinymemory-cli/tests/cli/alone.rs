//! A failing check of an exec driver is rerun alone on a fresh driver
//! process; when it passes there, the earlier check that makes it fail is
//! named, with a command that reproduces the failure (docs/cli.md,
//! "Order-dependent failures").

use std::process::Command;

use serde_json::Value;

use crate::support::bin::{repo, run, scratch};

/// What the printed command starts with: the run's working directory and
/// `PYTHONPATH` (the tests' own), then the binary.
fn prefix() -> String {
    let cwd = std::env::current_dir().unwrap();
    let python_path = match std::env::var("PYTHONPATH") {
        Ok(p) if !p.is_empty() => format!("PYTHONPATH={} ", shlex::try_quote(&p).unwrap()),
        _ => String::new(),
    };
    format!(
        "cd {} && {python_path}{}",
        shlex::try_quote(cwd.to_str().unwrap()).unwrap(),
        env!("CARGO_BIN_EXE_tinymemory-conformance")
    )
}

fn message_of(report: &Value, id: &str) -> String {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .and_then(|c| c["message"].as_str())
        .unwrap_or_else(|| panic!("no message for {id}: {report}"))
        .to_owned()
}

#[test]
fn a_failure_that_passes_alone_names_the_check_before_it_and_reproduces() {
    let dir = scratch();
    let out = dir.path().join("report.json");
    let driver = format!(
        "exec:python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/plan_drift_driver.py").display()
    );
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--cases",
        "4",
        "--jobs",
        "1",
        "--check",
        "store.concurrent_writes",
        "--check",
        "sections.across_merge_order",
        "--format",
        "json",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let message = message_of(&report, "sections.across_merge_order");
    let (_, said) = message
        .split_once("\n  passes alone, on a fresh driver process, and fails after ")
        .unwrap_or_else(|| panic!("{message}"));
    assert!(
        said.starts_with("store.concurrent_writes on the same process"),
        "{said}"
    );
    let command = said.split_once("; reproduce: ").unwrap().1;
    assert_eq!(
        command,
        format!(
            "{} run --driver '{driver}' --no-corpus --jobs 1 --seed 8388357248759721216 --cases \
             4 --check store.concurrent_writes --check sections.across_merge_order",
            prefix()
        )
    );
    // The command exactly as printed, from elsewhere, with nothing on PATH
    // but the shell's own.
    let again = Command::new("sh")
        .args(["-c", &format!("{command} --no-rerun --format json")])
        .current_dir(dir.path())
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(report["checks"][0]["outcome"], "pass");
    assert_eq!(report["checks"][1]["id"], "sections.across_merge_order");
    assert_eq!(report["checks"][1]["outcome"], "fail");
}

#[test]
fn a_failure_of_its_own_fails_alone_too_and_no_rerun_leaves_it_as_it_was() {
    let driver = format!(
        "exec:python3 {}",
        repo("examples/python/broken_driver.py").display()
    );
    let args = [
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "recall.limit",
        "--format",
        "json",
    ];
    let ran = run(&args);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    let message = message_of(&report, "recall.limit");
    assert_eq!(
        message,
        format!(
            "hits with limit 3 of 5 entries holding the word: expected 3, got 5\n  fails alone \
             too, on a fresh driver process: the checks before it are not the cause; reproduce: \
             {} run --driver '{driver}' --no-corpus --jobs 1 --seed 8388357248759721216 --cases \
             64 --check recall.limit",
            prefix()
        )
    );
    let mut quiet = args.to_vec();
    quiet.push("--no-rerun");
    let ran = run(&quiet);
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(
        message_of(&report, "recall.limit"),
        "hits with limit 3 of 5 entries holding the word: expected 3, got 5"
    );
}

#[test]
fn an_in_process_driver_is_not_rerun() {
    let ran = run(&[
        "run",
        "--driver",
        "mutant:limit-plus-one",
        "--no-corpus",
        "--check",
        "recall.limit",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert!(!ran.stdout.contains("rerunning"), "{}", ran.dump());
}

/// A bundle records the check's own message, not what the rerun added to
/// it: its replay (the check alone, never rerun) reproduces it exactly.
#[test]
fn a_bundle_of_a_rerun_failure_replays_as_reproduced() {
    let dir = scratch();
    let bundles = dir.path().join("bundles");
    let driver = format!(
        "exec:python3 {}",
        repo("examples/python/broken_driver.py").display()
    );
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "recall.limit",
        "--bundle",
        bundles.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert!(ran.stdout.contains("fails alone too"), "{}", ran.dump());
    let bundle = std::fs::read_dir(&bundles)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap()).unwrap();
    let actual = recorded["actual"].as_str().unwrap();
    assert!(!actual.contains("fails alone"), "{actual}");
    let replayed = run(&["replay", bundle.to_str().unwrap(), "--driver", &driver]);
    assert_eq!(replayed.code, 1, "{}", replayed.dump());
    assert!(
        replayed
            .stdout
            .contains("reproduced: the check fails as recorded"),
        "{}",
        replayed.dump()
    );
}
