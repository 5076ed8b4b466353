//! `run --jobs N`: the same checks, seeds, verdicts and messages, and the
//! report in registry order, whatever N; only durations differ. And the
//! refusals: `--jobs` above 1 for a driver whose stores are not
//! independent, or with a trace.

mod support {
    pub mod bin;
    pub mod server;
}

use std::path::Path;

use serde_json::Value;
use support::bin::{repo, run, scratch};

/// A corpus of two small files, so the corpus checks run too.
fn tiny_corpus(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("corpus");
    std::fs::create_dir_all(root.join("chatterbot/english")).unwrap();
    std::fs::create_dir_all(root.join("licenses")).unwrap();
    std::fs::write(
        root.join("chatterbot/english/greetings.yml"),
        "categories:\n- greetings\nconversations:\n- - Hello there\n  - Hi, how are you\n- - Good morning\n  - Morning to you\n",
    )
    .unwrap();
    std::fs::write(
        root.join("licenses/tiny.txt"),
        "Permission is granted to copy.\n\nThe software is provided as is.\n",
    )
    .unwrap();
    root
}

/// `value` without what depends on time: durations and the start.
fn timeless(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| !k.contains("duration") && !k.ends_with("_ms") && k != "started_at")
                .map(|(k, v)| (k, timeless(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(timeless).collect()),
        other => other,
    }
}

/// The JSON report of a run of the whole suite at `jobs`, without times,
/// and its exit code.
fn report(driver: &str, corpus: &Path, jobs: &str, out: &Path) -> (i32, Value) {
    let ran = run(&[
        "run",
        "--driver",
        driver,
        "--corpus",
        corpus.to_str().unwrap(),
        "--jobs",
        jobs,
        "--cases",
        "8",
        "--quiet",
        "--format",
        "json",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(ran.code == 0 || ran.code == 1, "{driver} --jobs {jobs}: {}", ran.dump());
    let text = std::fs::read_to_string(out).unwrap();
    (ran.code, timeless(serde_json::from_str(&text).unwrap()))
}

#[test]
fn reports_do_not_depend_on_jobs_on_any_in_tree_driver() {
    let dir = scratch();
    let corpus = tiny_corpus(dir.path());
    let memory = format!(
        "exec:python3 {}",
        repo("examples/python/memory_driver.py").display()
    );
    let mut drivers = vec![
        "reference".to_owned(),
        "semantic".to_owned(),
        "sqlite".to_owned(),
        "null".to_owned(),
        "mutant:negated-scores".to_owned(),
        memory,
    ];
    if let Some(url) = support::server::url("jobs on postgres") {
        drivers.push(format!("postgres:{url}"));
    }
    for driver in &drivers {
        let one = report(driver, &corpus, "1", &dir.path().join("one.json"));
        let four = report(driver, &corpus, "4", &dir.path().join("four.json"));
        assert_eq!(one.0, four.0, "{driver}: exit codes");
        assert_eq!(one.1, four.1, "{driver}: reports at --jobs 1 and 4");
        let ids: Vec<&str> = one.1["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert!(ids.len() > 50, "{driver}: {} checks", ids.len());
    }
}

#[test]
fn jobs_are_refused_for_stores_that_may_be_shared_and_with_a_trace() {
    // misbehave.py's hello declares no independent_stores.
    let driver = format!(
        "exec:python3 {} no-rule",
        repo("crates/tinymemory-exec/tests/drivers/misbehave.py").display()
    );
    let ran = run(&["run", "--driver", &driver, "--no-corpus", "--jobs", "2"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --jobs 2: the driver {driver} does not declare that two of its stores are \
             independent, so checks run at once could share one store (a driver backed by one \
             database); run it with --jobs 1, or have its hello declare \
             \"independent_stores\": true (docs/protocol.md, \"Lifecycle\")\n"
        )
    );
    let dir = scratch();
    let trace = dir.path().join("t.jsonl");
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--jobs",
        "2",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        "error: --jobs 2 with a trace: each trace line names the one running check, so a traced \
         run runs one check at a time; drop --jobs or the trace\n"
    );
    // Without --jobs, the same trace runs one check at a time.
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "store.upsert",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
}
