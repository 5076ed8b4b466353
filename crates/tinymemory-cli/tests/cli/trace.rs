//! `run --trace FILE`: every request and answer of an exec driver.

use std::process::Command;

use serde_json::Value;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = crate::support::bin::command()
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("the binary runs");
    (
        out.status.code().expect("exited with a code"),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

#[test]
fn every_request_and_answer_is_a_json_line_with_its_check() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: no python3");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.jsonl");
    let trace_arg = trace.to_str().unwrap();
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "exec:python3 examples/python/memory_driver.py",
        "--check",
        "store.upsert",
        "--trace",
        trace_arg,
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let text = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect(l))
        .collect();
    assert!(!lines.is_empty());
    for l in &lines {
        assert!(l["unix_ms"].as_f64().unwrap() > 1.0e12, "{l}");
        assert!(l["elapsed_ms"].as_f64().unwrap() >= 0.0, "{l}");
        assert!(l["pid"].as_u64().is_some(), "{l}");
        assert_eq!(
            u8::from(l.get("request").is_some()) + u8::from(l.get("answer").is_some()),
            1,
            "{l}"
        );
    }
    // Requests and answers alternate, each answer carrying its request's id.
    for pair in lines.chunks(2) {
        assert_eq!(
            pair[1]["answer"]["id"], pair[0]["request"]["id"],
            "{pair:?}"
        );
        assert_eq!(pair[0]["pid"], pair[1]["pid"]);
    }
    // The handshakes come before any check; the check's calls name it.
    assert_eq!(lines[0]["request"]["op"], "hello");
    assert_eq!(lines[0]["check"], Value::Null);
    let ops_of_check: Vec<&str> = lines
        .iter()
        .filter(|l| l["check"] == "store.upsert")
        .filter_map(|l| l["request"]["op"].as_str())
        .collect();
    assert_eq!(ops_of_check[0], "reset", "{ops_of_check:?}");
    assert!(ops_of_check.contains(&"store"), "{ops_of_check:?}");
    assert!(ops_of_check.contains(&"get"), "{ops_of_check:?}");
    assert!(
        lines
            .iter()
            .all(|l| l["check"].is_null() || l["check"] == "store.upsert"),
        "{text}"
    );
}

#[test]
fn an_in_process_driver_is_traced_by_a_decorator_in_the_same_shape() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("reference.jsonl");
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "store.upsert",
        "--quiet",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let lines: Vec<Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The run makes no call of its own before the checks (docs/cli.md,
    // "A broken environment"): the first store traced is the check's.
    let first_store = lines
        .iter()
        .position(|l| l["request"]["op"] == "store")
        .expect("a store was traced");
    let (request, answer) = (&lines[first_store], &lines[first_store + 1]);
    assert_eq!(request["check"], "store.upsert");
    assert_eq!(request["pid"], Value::Null);
    assert_eq!(
        request["request"],
        serde_json::json!({"op": "store", "namespace": "global", "key": "k", "content": "first version",
                           "category": "core", "session_id": null, "taint": "internal"})
    );
    assert_eq!(answer["answer"], serde_json::json!({"result": null}));
    assert!(
        lines.iter().any(|l| l["request"]["op"] == "namespaces"),
        "every call is traced"
    );
}

#[test]
fn tinymemory_trace_names_the_file_for_exec_drivers_and_is_ignored_for_others() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("env-trace.jsonl");
    let run_with_env = |driver: &str| {
        crate::support::bin::command()
            .args([
                "run",
                "--driver",
                driver,
                "--check",
                "store.upsert",
                "--quiet",
            ])
            .env("TINYMEMORY_TRACE", &trace)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .output()
            .expect("the binary runs")
    };
    let reference = run_with_env("reference");
    assert_eq!(reference.status.code(), Some(0), "{reference:?}");
    assert!(
        !trace.exists(),
        "an in-process driver has no protocol to trace"
    );
    let exec = run_with_env("exec:python3 examples/python/memory_driver.py");
    assert_eq!(exec.status.code(), Some(0), "{exec:?}");
    let text = std::fs::read_to_string(&trace).expect("the trace was written");
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["request"]["op"], "hello", "{first}");
}

#[test]
fn a_failed_check_names_the_trace_lines_of_its_last_operations() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("broken.jsonl");
    let report = dir.path().join("report.json");
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "exec:python3 examples/python/broken_driver.py",
        "--no-corpus",
        "--no-rerun",
        "--check",
        "recall.limit",
        "--trace",
        trace.to_str().unwrap(),
        "--format",
        "json",
        "--output",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "stdout:\n{out}\nstderr:\n{err}");
    let lines: Vec<Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = 1 + lines
        .iter()
        .position(|l| l["check"] == "recall.limit")
        .expect("the check's records");
    let last = lines.len();
    assert!(lines[first - 1..]
        .iter()
        .all(|l| l["check"] == "recall.limit"));
    let tail = (last - 11).max(first);
    let named = format!(
        "trace: lines {tail}-{last} of {} (its last 12 records; the check's first is line {first})",
        trace.display()
    );
    assert!(
        err.contains(&format!("      {named}\n")) || out.contains(&format!("      {named}\n")),
        "{out}\n{err}"
    );
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    // The span is a note of the failure, as data; the message is the
    // check's own.
    assert_eq!(
        json["checks"][0]["message"],
        "hits with limit 3 of 5 entries holding the word: expected 3, got 5"
    );
    assert_eq!(
        json["checks"][0]["notes"],
        serde_json::json!([{
            "kind": "trace",
            "text": named,
            "trace": {
                "path": trace.display().to_string(),
                "first": tail,
                "last": last,
                "check_first": first,
            },
        }])
    );
}

/// A driver that fails to open leaves no trace file (a failed run
/// creates nothing the user did not have): the error quotes what it was
/// sent instead.
#[test]
fn a_driver_that_fails_to_open_quotes_its_trace_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.jsonl");
    let trace_arg = trace.to_str().unwrap();
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "exec:false",
        "--no-corpus",
        "--trace",
        trace_arg,
    ]);
    assert_eq!(code, 3, "stdout:\n{out}\nstderr:\n{err}");
    let (head, quoted) = err.split_once("    ").unwrap();
    assert_eq!(
        head,
        format!(
            "error: failed to open the driver: backend failure: failed to get an answer to \
             `hello` from `false`: the process exited (exit status: 1)\n  stderr: (empty)\n  \
             trace: not written to {trace_arg} (the run did not start); its 1 line:\n"
        )
    );
    let line: Value = serde_json::from_str(quoted.trim_end()).unwrap();
    assert_eq!(line["request"]["op"], "hello");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
