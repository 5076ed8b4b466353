//! A broken environment is one message: a driver whose first calls fail
//! on a missing module stops the run before any check, with the error and
//! its remedy, exit 5, unless `--keep-going` (docs/cli.md, "A broken
//! environment").

use crate::support::bin::{repo, run};

fn missing_numpy() -> String {
    format!(
        "exec:python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/missing_numpy_driver.py").display()
    )
}

#[test]
fn every_recall_raising_an_import_error_stops_the_run_with_one_message() {
    let ran = run(&["run", "--driver", &missing_numpy(), "--no-corpus"]);
    assert_eq!(ran.code, 5, "{}", ran.dump());
    let lines: Vec<&str> = ran.stderr.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "error: the driver's environment is broken: its first `recall` failed: backend \
             failure: ImportError: No module named 'numpy'",
            "remedy: install the Python package that provides \"numpy\" in the driver's \
             environment (`pip install numpy`, when the package has the module's name), then \
             run again",
            "no check ran; --keep-going runs the checks anyway",
        ],
        "{}",
        ran.dump()
    );
    assert!(
        !ran.stdout.contains("FAIL"),
        "no check ran, so none failed: {}",
        ran.dump()
    );
}

#[test]
fn keep_going_runs_the_checks_on_the_same_environment() {
    let ran = run(&[
        "run",
        "--driver",
        &missing_numpy(),
        "--no-corpus",
        "--keep-going",
        "--check",
        "recall.limit",
        "--quiet",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert!(
        ran.stdout.contains("ImportError: No module named 'numpy'"),
        "{}",
        ran.dump()
    );
}

#[test]
fn a_driver_failing_a_rule_with_an_error_is_not_stopped() {
    // Every recall fails with an engine error no environment explains:
    // the checks judge it, one by one.
    let ran = run(&[
        "run",
        "--driver",
        "mutant:query-as-fts5-syntax",
        "--no-corpus",
        "--check",
        "recall.plain_text_query",
        "--quiet",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert!(
        ran.stdout.contains("FAIL  recall.plain_text_query"),
        "{}",
        ran.dump()
    );
}
