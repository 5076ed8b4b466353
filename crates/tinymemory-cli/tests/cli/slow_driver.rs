//! Slow is not broken (issue 22): a correct driver that answers every
//! request late passes, where a budget of a fixed `--timeout` would have
//! stopped it; a driver that never answers a request fails naming it,
//! after the per-call limit rather than the check's budget.

use crate::support;

use serde_json::Value;
use support::bin::{repo, run};

/// Three checks of 10 to 12 requests each (the `reset` of the store
/// included), in run order.
const CHECKS: [&str; 3] = [
    "recall.hit_namespace",
    "namespaces.exact_counts",
    "forget.idempotent",
];

/// The report's checks as `(id, outcome, duration_ms)`.
fn outcomes(json: &str) -> Vec<(String, String, f64)> {
    let report: Value = serde_json::from_str(json).expect("a JSON report");
    report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["outcome"].as_str().unwrap().to_owned(),
                c["duration_ms"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Every answer 0.15 s late: each check takes at least 10 × 0.15 = 1.5 s,
/// past a fixed `--timeout 1`, and passes, its budget being 1 s plus 1 s
/// per request.
#[test]
fn a_driver_answering_every_request_late_passes() {
    let driver = format!(
        "exec:python3 {} 0.15 python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/slow_driver.py").display(),
        repo("examples/python/memory_driver.py").display()
    );
    let mut args = vec![
        "run".to_owned(),
        "--driver".to_owned(),
        driver,
        "--no-corpus".to_owned(),
        "--timeout".to_owned(),
        "1".to_owned(),
        "--format".to_owned(),
        "json".to_owned(),
    ];
    for check in CHECKS {
        args.extend(["--check".to_owned(), check.to_owned()]);
    }
    let ran = run(&args);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let got = outcomes(&ran.stdout);
    let ids: Vec<(&str, &str)> = got
        .iter()
        .map(|(i, o, _)| (i.as_str(), o.as_str()))
        .collect();
    assert_eq!(
        ids,
        CHECKS.iter().map(|c| (*c, "pass")).collect::<Vec<_>>(),
        "{}",
        ran.dump()
    );
    for (id, _, ms) in &got {
        // A lower bound the delays guarantee: a fixed 1 s budget would
        // have stopped every one of them.
        assert!(*ms > 1_000.0, "{id} took {ms} ms\n{}", ran.dump());
    }
}

/// `recall.limit` is the one check recalling `needle`, which the driver
/// never answers: with `--call-timeout 1` the check fails naming the call
/// and the limit, as a hang (a rule failure), not as a timeout, long
/// before its budget (60 s plus 1 s per request) would run out.
#[test]
fn a_hung_call_fails_naming_the_call_and_the_limit() {
    let driver = format!(
        "exec:python3 {} hang needle",
        repo("crates/tinymemory-exec/tests/drivers/misbehave.py").display()
    );
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "recall.limit",
        "--call-timeout",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let report: Value = serde_json::from_str(&ran.stdout).expect("a JSON report");
    let check = &report["checks"][0];
    assert_eq!(check["id"], "recall.limit");
    assert_eq!(check["outcome"], "fail", "{}", ran.dump());
    let message = check["message"].as_str().unwrap();
    for part in [
        "failed to get an answer to `recall` from `python3 ",
        "no answer within 1s (the request timeout, --call-timeout SECS), so the driver is taken \
         as hung and the process was stopped",
    ] {
        assert!(message.contains(part), "{part:?} is not in {message}");
    }
    assert!(
        check["duration_ms"].as_f64().unwrap() < 30_000.0,
        "{}",
        ran.dump()
    );
    assert_eq!(report["counts"]["timeout"], 0);
}

/// Every answer 1.5 s late, more than the 1 s a request adds to the
/// budget: `store.upsert` runs out of its budget (1 s, plus 1 s per
/// request) while its third call waits, and is TIMEOUT, not FAIL: the run
/// exits 1, the level names it, and the closing line counts it apart.
#[test]
fn a_driver_slower_than_the_allowance_times_out_and_fails_the_run() {
    let driver = format!(
        "exec:python3 {} 1.5 python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/slow_driver.py").display(),
        repo("examples/python/memory_driver.py").display()
    );
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "store.upsert",
        "--timeout",
        "1",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let line = ran
        .stdout
        .lines()
        .find(|l| l.starts_with("TIMEOUT  store.upsert (contract, "))
        .unwrap_or_else(|| panic!("no TIMEOUT line\n{}", ran.dump()));
    for part in [
        ": store.upsert ran past its budget of ",
        " per second)",
        "; --timeout SECS raises the budget",
    ] {
        assert!(line.contains(part), "{part:?} is not in {line}");
    }
    assert!(
        ran.stdout
            .contains("\nconformance: NONE (lexical, filtered; timed out: store.upsert)\n"),
        "{}",
        ran.dump()
    );
    assert_eq!(ran.last_line(), "0 passed, 0 failed, 1 timed out");
}
