//! `run --events PATH`: the run as JSON lines, held to
//! `fixtures/cli/events.schema.json` and to the JSON report of the same
//! run.

use std::path::PathBuf;

use serde_json::Value;
use tinymemory_conformance::shard::cost;

use crate::support::bin::{repo, run, scratch};
use crate::support::schema_check::Schemas;

fn schemas() -> Schemas {
    Schemas::load_from(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/cli"))
}

/// The four schemas of `fixtures/cli` (the event stream's, a check's
/// entry, `list`'s and `hello`'s) open as the protocol's do.
#[test]
fn every_cli_schema_opens_with_the_same_header() {
    let schemas = schemas();
    assert_eq!(
        schemas.names(),
        [
            "check-entry.schema.json",
            "events.schema.json",
            "hello.schema.json",
            "list.schema.json"
        ]
    );
    assert_eq!(schemas.header_problems(), Vec::<String>::new());
}

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the events file")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn kinds(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect()
}

/// A run with a corpus, a failure, a property check and two jobs: every
/// line matches the schema, the events come in order, and each check's
/// entry is the report's.
#[test]
fn the_stream_matches_its_schema_and_the_report() {
    let dir = scratch();
    let events = dir.path().join("events.jsonl");
    let report = dir.path().join("report.json");
    let bundles = dir.path().join("bundles");
    let ran = run(&[
        "run",
        "--driver",
        "mutant:limit-plus-one",
        "--check",
        "recall.limit",
        "--check",
        "recall.hit_namespace",
        "--check",
        "properties.truncation",
        "--family",
        "corpus",
        "--cases",
        "4",
        "--jobs",
        "2",
        "--quiet",
        "--format",
        "json",
        "--output",
        report.to_str().unwrap(),
        "--bundle",
        bundles.to_str().unwrap(),
        "--events",
        events.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let events = lines(&events);
    let schemas = schemas();
    for (i, event) in events.iter().enumerate() {
        schemas
            .validate("events.schema.json", event)
            .unwrap_or_else(|e| panic!("line {}: {e}: {event}", i + 1));
    }
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let ids: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();

    let k = kinds(&events);
    assert_eq!(k[0], "run-started");
    assert_eq!(k[k.len() - 1], "run-finished");
    let started = &events[0];
    assert_eq!(started["profile"], "lexical");
    assert_eq!(started["seed"], report["run"]["seed"]);
    assert_eq!(started["cases"], 4);
    assert_eq!(started["jobs"], 2);
    assert_eq!(started["reruns"], false);
    assert!(started["corpus"]["path"].as_str().is_some(), "{started}");
    let planned: Vec<&str> = started["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(planned, ids);

    // The corpus load, from 0 to its total, before the first corpus check
    // (the others may start while it loads).
    let load: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"] == "corpus-progress")
        .collect();
    assert_eq!(load.first().unwrap()["done"], 0);
    let last = load.last().unwrap();
    assert_eq!(last["done"], last["total"]);
    assert_eq!(
        last["total"], report["run"]["corpus"]["entries"],
        "the load stores every entry"
    );
    assert!(loaded_before_corpus_checks(&events), "{events:?}");

    // Each check starts before it finishes; they finish in run order, each
    // with its entry exactly as the report has it.
    let finished: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"] == "check-finished")
        .map(|e| &e["entry"])
        .collect();
    let timeless = |entry: &Value| {
        let mut e = entry.clone();
        e["duration_ms"] = Value::Null;
        e
    };
    assert_eq!(
        finished.iter().map(|e| timeless(e)).collect::<Vec<_>>(),
        report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(timeless)
            .collect::<Vec<_>>()
    );
    for id in &ids {
        let start = events
            .iter()
            .position(|e| e["event"] == "check-started" && e["id"] == *id)
            .unwrap_or_else(|| panic!("{id} started"));
        let end = events
            .iter()
            .position(|e| e["event"] == "check-finished" && e["entry"]["id"] == *id)
            .unwrap();
        assert!(start < end, "{id}");
    }

    let done = events.last().unwrap();
    assert_eq!(done["counts"], report["counts"]);
    assert_eq!(done["conformance"], report["conformance"]);
    assert_eq!(done["shared_errors"], serde_json::json!([]));
    assert_eq!(done["lines"]["closing"], "4 passed, 1 failed");
    let bundle = done["bundles"]["recall.limit"].as_str().unwrap();
    assert!(std::path::Path::new(bundle).is_file(), "{bundle}");
    assert_eq!(done["bundles"].as_object().unwrap().len(), 1);
}

/// Whether every corpus check started after the load's last event.
fn loaded_before_corpus_checks(events: &[Value]) -> bool {
    let loaded = load_end(events);
    events.iter().enumerate().all(|(i, e)| {
        !(e["event"] == "check-started" && e["id"].as_str().unwrap().starts_with("corpus."))
            || i > loaded
    })
}

/// The position of the load's last event (every entry stored).
fn load_end(events: &[Value]) -> usize {
    events
        .iter()
        .position(|e| e["event"] == "corpus-progress" && e["done"] == e["total"])
        .expect("the load's last event")
}

/// A JSON report without what timing decides: durations, the start.
fn timeless(report: &std::path::Path) -> Value {
    let mut r: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    for c in r["checks"].as_array_mut().unwrap() {
        c["duration_ms"] = Value::Null;
    }
    for field in ["duration_ms", "load_ms", "started_at"] {
        r["run"][field] = Value::Null;
    }
    r
}

/// Two jobs on the SQLite driver: the checks that read no corpus start
/// while it loads (the first after the store's first batch, before the
/// last), the corpus checks after it, and the report is the one of a run
/// at one job, where the load ends before the first check, timings
/// aside. The console reads as before: the load's lines, then the checks'.
#[test]
fn checks_that_read_no_corpus_run_while_it_loads() {
    let dir = scratch();
    let mut reports = Vec::new();
    for jobs in ["1", "2"] {
        let events = dir.path().join(format!("events-{jobs}.jsonl"));
        let report = dir.path().join(format!("report-{jobs}.json"));
        let ran = run(&[
            "run",
            "--driver",
            "sqlite",
            "--check",
            "store.upsert",
            "--check",
            "recall.limit",
            "--family",
            "corpus",
            "--jobs",
            jobs,
            "--format",
            "json",
            "--output",
            report.to_str().unwrap(),
            "--events",
            events.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 0, "{}", ran.dump());
        let events = lines(&events);
        assert!(loaded_before_corpus_checks(&events), "{events:?}");
        let first_check = events
            .iter()
            .position(|e| e["event"] == "check-started")
            .unwrap();
        if jobs == "1" {
            // The load holds the one job.
            assert!(first_check > load_end(&events), "{events:?}");
        } else {
            // Costliest first (`two_jobs_start_the_costliest_checks_first`).
            let costliest = if cost("recall.limit") > cost("store.upsert") {
                "recall.limit"
            } else {
                "store.upsert"
            };
            assert_eq!(events[first_check]["id"], costliest);
            assert!(first_check < load_end(&events), "{events:?}");
        }
        // The console (stdout beside a report on a file): the load's
        // lines, then the checks', whichever ended first.
        let console: Vec<&str> = ran.stdout.lines().collect();
        let loaded = console
            .iter()
            .position(|l| l.starts_with("loaded "))
            .unwrap();
        let first_line = console.iter().position(|l| l.starts_with("PASS ")).unwrap();
        assert!(loaded < first_line, "{}", ran.dump());
        reports.push(timeless(&report));
    }
    assert_eq!(reports[0], reports[1]);
}

/// The ids of the checks in the order they started.
fn started(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["event"] == "check-started")
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

/// The console's lines without the checks' durations: `PASS  id
/// (family, 1.2ms)` as `PASS  id (family)`.
fn console_without_durations(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|line| match (line.find(" ("), line.find(')')) {
            (Some(open), Some(close))
                if ["PASS ", "FAIL ", "SKIP "]
                    .iter()
                    .any(|k| line.starts_with(k)) =>
            {
                let family = line[open..close].split(',').next().unwrap_or_default();
                format!("{}{family}{}", &line[..open], &line[close..])
            }
            _ => line.to_owned(),
        })
        .collect()
}

/// At two jobs the checks start costliest first (descending `cost_ms`,
/// ties in registry order), at one job in registry order; the report
/// (its order, verdicts, messages and a property's shrunk counterexample,
/// which come from the seed and the check's id alone) and the console's
/// text are the same either way, timings aside. `row-dependent-scores`
/// fails `properties.cap_determinism`, so a counterexample is compared.
#[test]
fn two_jobs_start_the_costliest_checks_first() {
    let selection = [
        "namespace.invalid_refused",
        "recall.limit",
        "properties.cap_determinism",
        "properties.export_round_trip",
        "model.differential",
    ];
    let dir = scratch();
    let mut runs = Vec::new();
    for jobs in ["1", "2"] {
        // One report path for both runs: the console names it.
        let events = dir.path().join(format!("events-{jobs}.jsonl"));
        let report = dir.path().join("report.json");
        let mut args = vec![
            "run",
            "--driver",
            "mutant:row-dependent-scores",
            "--no-corpus",
            "--jobs",
            jobs,
            "--format",
            "json",
            "--output",
            report.to_str().unwrap(),
            "--events",
            events.to_str().unwrap(),
        ];
        for id in selection {
            args.extend(["--check", id]);
        }
        let ran = run(&args);
        assert_eq!(ran.code, 1, "{}", ran.dump());
        let report = timeless(&report);
        let failed: Vec<&str> = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["outcome"] == "fail")
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert_eq!(failed, ["properties.cap_determinism"], "{}", ran.dump());
        runs.push((
            started(&lines(&events)),
            report,
            console_without_durations(&ran.stdout),
        ));
    }
    let registry: Vec<String> = runs[0].1["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(runs[0].0, registry, "one job: registry order");
    let mut costliest_first = registry.clone();
    costliest_first.sort_by_key(|id| std::cmp::Reverse(cost(id)));
    assert_ne!(costliest_first, registry, "a selection whose order changes");
    assert_eq!(runs[1].0, costliest_first, "two jobs: costliest first");
    assert_eq!(runs[0].1, runs[1].1, "the reports, timings aside");
    assert_eq!(runs[0].2, runs[1].2, "the console, durations aside");
}

/// `fd:N` writes to an inherited descriptor, here a pipe the shell opens;
/// the stream has the run's shared errors and its rerun verdicts.
#[test]
fn fd_n_writes_to_a_descriptor_and_reruns_come_as_updates() {
    let driver = format!(
        "exec:python3 {}",
        repo("examples/python/broken_driver.py").display()
    );
    let dir = scratch();
    let events = dir.path().join("events.jsonl");
    let script = format!(
        "exec {} run --driver \"$1\" --no-corpus --check recall.limit --quiet \
         --events fd:3 3>\"$2\"",
        env!("CARGO_BIN_EXE_tinymemory-conformance")
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script, "sh", &driver, events.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let events = lines(&events);
    let schemas = schemas();
    for event in &events {
        schemas.validate("events.schema.json", event).unwrap();
    }
    assert_eq!(
        kinds(&events),
        [
            "run-started",
            "check-started",
            "check-finished",
            "check-updated",
            "run-finished"
        ]
    );
    assert_eq!(events[0]["reruns"], true);
    assert_eq!(events[0]["corpus"], "none");
    assert_eq!(events[2]["entry"].get("notes"), None);
    assert_eq!(events[3]["entry"]["notes"][0]["verdict"], "fails-alone");
    assert_eq!(
        events[3]["entry"]["message"], events[2]["entry"]["message"],
        "the message stays the check's own"
    );
}

/// The events file is an output like the others: one that is also a file
/// the run writes is refused before anything starts.
#[test]
fn an_events_file_that_is_the_report_is_refused() {
    let dir = scratch();
    let same = dir.path().join("same.json");
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--output",
        same.to_str().unwrap(),
        "--events",
        same.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(ran.stderr.contains("--events"), "{}", ran.dump());
    assert!(!same.exists());
}

/// A descriptor the host opened for reading only (`3<file`) is refused:
/// opening `/dev/fd/3` for writing reopens the file with the access its
/// permissions allow, so the run appended its events to a file it was
/// given to read.
#[test]
fn fd_n_open_for_reading_only_is_refused_and_left_as_it_was() {
    let dir = scratch();
    let given = dir.path().join("notes.txt");
    std::fs::write(&given, "the user's notes\n").unwrap();
    let script = format!(
        "exec {} run --driver reference --no-corpus --check store.upsert --quiet \
         --events fd:3 3<\"$1\"",
        env!("CARGO_BIN_EXE_tinymemory-conformance")
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script, "sh", given.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: failed to write /dev/fd/3: the descriptor is open for reading only; open it for \
         writing (3>FILE, or a pipe's write end)\n"
    );
    assert_eq!(
        std::fs::read_to_string(&given).unwrap(),
        "the user's notes\n"
    );
}

/// `/dev/stdin` and `/dev/fd/0` are descriptors too: a report named so,
/// with a file as standard input (`< in.txt`), replaced that file.
#[test]
fn standard_input_as_an_output_is_refused_and_left_as_it_was() {
    let dir = scratch();
    let given = dir.path().join("in.txt");
    for (option, name) in [
        ("--output", "/dev/stdin"),
        ("--events", "/dev/stdin"),
        ("--output", "/dev/fd/0"),
        ("--trace", "/proc/self/fd/0"),
    ] {
        std::fs::write(&given, "the user's input\n").unwrap();
        let script = format!(
            "exec {} run --driver reference --no-corpus --check store.upsert --quiet {option} \
             {name} <\"$1\"",
            env!("CARGO_BIN_EXE_tinymemory-conformance")
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &script, "sh", given.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{option} {name}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(
                "the descriptor is open for reading only; open it for writing (0>FILE, or a \
                 pipe's write end)"
            ),
            "{option} {name}: {out:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&given).unwrap(),
            "the user's input\n",
            "{option} {name}"
        );
    }
}
