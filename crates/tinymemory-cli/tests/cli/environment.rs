//! A broken environment is one message: a run whose first failing checks
//! all fail on the same missing module stops there, with the error, its
//! remedy and how many checks it took, exit 5, unless `--keep-going`
//! (docs/cli.md, "A broken environment"). The run makes no call of its
//! own for it, so a fault of a process's first call is the first check's.

use crate::support::bin::{python_driver, repo, run, Ran};

fn cold_start(message: &str) -> String {
    format!(
        "exec:python3 {} '{message}'",
        repo("crates/tinymemory-cli/tests/drivers/cold_start_driver.py").display()
    )
}

fn missing_numpy() -> String {
    python_driver("crates/tinymemory-cli/tests/drivers/missing_numpy_driver.py")
}

/// A run of the missing-numpy driver on one job, with `more` arguments.
fn stopped(more: &[&str]) -> Ran {
    let driver = missing_numpy();
    let mut args = vec!["run", "--driver", &driver, "--no-corpus", "--jobs", "1"];
    args.extend(more);
    run(&args)
}

#[test]
fn every_recall_raising_an_import_error_stops_the_run_with_one_message() {
    let ran = stopped(&[]);
    assert_eq!(ran.code, 5, "{}", ran.dump());
    let lines: Vec<&str> = ran.stderr.lines().collect();
    // store.upsert, which never recalls, passes first; the next three
    // checks recall and fail on the same ImportError.
    assert_eq!(
        lines[..3],
        [
            "error: the driver's environment is broken: the first 3 checks to fail all failed \
             on the same error: backend failure: ImportError: No module named 'numpy'",
            "remedy: install the Python package that provides \"numpy\" in the driver's \
             environment (`pip install numpy`, when the package has the module's name), then \
             run again",
            "the run stopped after 4 checks (1 passed); --keep-going runs every check anyway",
        ],
        "{}",
        ran.dump()
    );
    assert_eq!(
        lines[3],
        "  stderr (10 lines):",
        "the driver's stderr follows: {}",
        ran.dump()
    );
    // The console showed the checks up to the stop, the last of them
    // left to the message.
    let shown: Vec<&str> = ran
        .stdout
        .lines()
        .filter(|l| l.starts_with("PASS") || l.starts_with("FAIL"))
        .map(|l| l.split(" (").next().unwrap())
        .collect();
    assert_eq!(
        shown,
        [
            "PASS  store.upsert",
            "FAIL  recall.none_means_global",
            "FAIL  recall.hit_namespace"
        ],
        "{}",
        ran.dump()
    );
}

#[test]
fn keep_going_runs_every_check_on_the_same_environment() {
    let ran = run(&[
        "run",
        "--driver",
        &missing_numpy(),
        "--no-corpus",
        "--keep-going",
        "--cases",
        "4",
        "--quiet",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let failed = ran
        .stdout
        .lines()
        .filter(|l| l.starts_with("FAIL") && l.contains("ImportError: No module named 'numpy'"))
        .count();
    assert!(failed > 3, "more than the stop's three: {}", ran.dump());
}

#[test]
fn a_fault_of_the_first_store_call_is_reported_by_the_check_that_makes_it() {
    // A cold start no environment explains: no call before the checks
    // takes it away from them.
    let ran = run(&[
        "run",
        "--driver",
        &cold_start("the index is still loading"),
        "--no-corpus",
        "--check",
        "store.upsert",
        "--jobs",
        "1",
        "--quiet",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert!(
        ran.stdout.contains(
            "FAIL  store.upsert (contract, "
        ) && ran
            .stdout
            .contains("): store(\"global\", \"k\") failed: backend failure: RuntimeError: the index is still loading"),
        "{}",
        ran.dump()
    );
}

#[test]
fn one_refused_connection_at_the_start_is_the_first_checks_failure_not_a_stop() {
    // The error of a broken environment, but once: one failing check is
    // no broken environment, and the check reports it.
    let ran = run(&[
        "run",
        "--driver",
        &cold_start("Connection refused at 127.0.0.1:9"),
        "--no-corpus",
        "--check",
        "store.upsert",
        "--check",
        "store.timestamps",
        "--jobs",
        "1",
        "--quiet",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert!(
        ran.stdout.contains("FAIL  store.upsert (contract, ")
            && ran.stdout.contains(
                "): store(\"global\", \"k\") failed: backend failure: RuntimeError: Connection \
             refused at 127.0.0.1:9"
            ),
        "{}",
        ran.dump()
    );
    assert!(ran.stdout.contains("1 passed, 1 failed"), "{}", ran.dump());
}

#[test]
fn a_refused_connection_once_per_process_under_jobs_is_not_a_stop() {
    // Four processes at once (independent stores, --jobs 4), each of whose
    // first store is refused once: the first four checks fail on the
    // same environment error, yet every process answers after that. Three
    // failures were a stop (exit 5, "start the server") that --jobs 1 of
    // the same driver does not make.
    let ran = run(&[
        "run",
        "--driver",
        &cold_start("Connection refused at 127.0.0.1:9"),
        "--no-corpus",
        "--family",
        "contract",
        "--jobs",
        "4",
        "--no-rerun",
        "--quiet",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert!(
        !ran.stderr.contains("environment is broken"),
        "{}",
        ran.dump()
    );
    assert!(ran.stdout.contains("30 passed, 4 failed"), "{}", ran.dump());
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

#[test]
fn the_event_stream_ends_with_the_stop_its_message_and_remedy_apart() {
    let dir = crate::support::bin::scratch();
    let events = dir.path().join("events.jsonl");
    let ran = stopped(&["--quiet", "--events", events.to_str().unwrap()]);
    assert_eq!(ran.code, 5, "{}", ran.dump());
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&events)
        .expect("the events file")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let schemas = crate::support::schema_check::Schemas::load_from(&repo("fixtures/cli"));
    for line in &lines {
        schemas
            .validate("events.schema.json", line)
            .unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    let stop = lines.last().expect("a line");
    let message = ran
        .stderr
        .trim_end()
        .strip_prefix("error: ")
        .expect("the binary's error");
    assert_eq!(
        *stop,
        serde_json::json!({
            "event": "run-stopped",
            "reason": "broken-environment",
            "exit_code": 5,
            "message": message,
            "error": "backend failure: ImportError: No module named 'numpy'",
            "remedy": "install the Python package that provides \"numpy\" in the driver's \
                       environment (`pip install numpy`, when the package has the module's \
                       name), then run again",
            "failed": 3,
            "finished": 4,
            "passed": 1,
        }),
        "{}",
        ran.dump()
    );
    // Stopped after the fourth check, whose check-finished the stop
    // takes the place of.
    let finished = lines
        .iter()
        .filter(|e| e["event"] == "check-finished")
        .count();
    assert_eq!(finished, 3, "{}", ran.dump());
}
