//! `run --jobs N`: the same checks, seeds, verdicts and messages, and the
//! report in registry order, whatever N; only durations differ. And the
//! refusals: `--jobs` above 1 for a driver whose stores are not
//! independent, or with a trace.

use crate::support;

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
                .filter(|(k, _)| {
                    !k.contains("duration") && !k.ends_with("_ms") && k != "started_at"
                })
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
    assert!(
        ran.code == 0 || ran.code == 1,
        "{driver} --jobs {jobs}: {}",
        ran.dump()
    );
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

/// `DIR/shared.py`: the example's store, saying nothing of independent
/// stores, as a driver backed by one shared database would.
fn shared_store(dir: &Path) -> std::path::PathBuf {
    let script = dir.join("shared.py");
    std::fs::write(
        &script,
        format!(
            "import sys\nsys.path.insert(0, {examples:?})\n\
             import memory_driver as m\n\
             class Shared(m.MemoryStore):\n    independent_stores = False\n\
             m.tp.serve(Shared(), 'python-shared')\n",
            examples = repo("examples/python").display().to_string()
        ),
    )
    .unwrap();
    script
}

/// Without `--jobs`, no two start-ups of a driver that does not declare
/// independent stores overlap: one whose start-up may not run beside
/// another's (`tests/drivers/exclusive_start.py`, as a driver creating a
/// shared cache directory) passes, with a check holding two stores at once.
/// Two of its processes started at once, the second exits before `hello`.
#[test]
fn without_jobs_no_two_start_ups_of_a_shared_driver_overlap() {
    let dir = scratch();
    let script = shared_store(dir.path());
    let lock = dir.path().join("starting");
    let driver = format!(
        "exec:python3 {} {} python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/exclusive_start.py").display(),
        lock.display(),
        script.display()
    );
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--no-rerun",
        "--check",
        "store.upsert",
        "--check",
        "store.bulk",
        "--check",
        "properties.cap_determinism",
        "--cases",
        "4",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert_eq!(ran.last_line(), "3 passed, 0 failed", "{}", ran.dump());
    let overlapped = dir.path().join("starting.overlapped");
    assert!(
        !overlapped.exists(),
        "two start-ups overlapped\n{}",
        ran.dump()
    );
}

#[test]
fn jobs_are_refused_for_stores_that_may_be_shared_and_with_a_trace() {
    let dir = scratch();
    let script = shared_store(dir.path());
    let driver = format!("exec:python3 {}", script.display());
    let bundles = dir.path().join("bundles");
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--jobs",
        "2",
        "--bundle",
        bundles.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    // Refused once the driver was open: the bundle directory, made only
    // when the run ends, was never created.
    assert!(!bundles.exists(), "{}", bundles.display());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --jobs 2: the driver {driver} does not declare that two of its stores are \
             independent, so checks run at once could share one store (a driver backed by one \
             database); run it with --jobs 1, or have its hello declare \
             \"independent_stores\": true (docs/protocol.md, \"Lifecycle\"; a Python store: `independent_stores = True` on its class)\n"
        )
    );
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

/// `run --shard K/N --format json --output FILE` on the reference driver
/// over `corpus`.
fn shard(corpus: &Path, k: u32, out: &Path, seed: &str) -> i32 {
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--corpus",
        corpus.to_str().unwrap(),
        "--shard",
        &format!("{k}/4"),
        "--seed",
        seed,
        "--cases",
        "8",
        "--quiet",
        "--format",
        "json",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(ran.code == 0 || ran.code == 4, "shard {k}: {}", ran.dump());
    ran.code
}

#[test]
fn four_shards_and_a_merge_give_the_report_of_one_run() {
    let dir = scratch();
    let corpus = tiny_corpus(dir.path());
    let paths: Vec<_> = (1..=4)
        .map(|k| dir.path().join(format!("s{k}.json")))
        .collect();
    for (k, p) in (1..=4).zip(&paths) {
        shard(&corpus, k, p, "7");
    }
    let whole = dir.path().join("whole.json");
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--corpus",
        corpus.to_str().unwrap(),
        "--seed",
        "7",
        "--cases",
        "8",
        "--quiet",
        "--format",
        "json",
        "--output",
        whole.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let merged = dir.path().join("merged.json");
    let mut args = vec![
        "merge".to_owned(),
        "--format".into(),
        "json".into(),
        "--output".into(),
    ];
    args.push(merged.to_str().unwrap().to_owned());
    args.extend(paths.iter().map(|p| p.to_str().unwrap().to_owned()));
    let ran = run(&args);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let read =
        |p: &Path| timeless(serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap());
    assert_eq!(read(&merged), read(&whole));
    assert_eq!(read(&merged)["conformance"]["level"], "full");
    // Each shard's report names its part and the whole selection.
    let one = read(&paths[0]);
    assert_eq!(one["run"]["shard"]["index"], 1);
    assert_eq!(one["run"]["shard"]["total"], 4);
    assert_eq!(
        one["run"]["shard"]["selection"].as_array().unwrap().len(),
        read(&whole)["checks"].as_array().unwrap().len()
    );
    // diff works on a merged report as on a single one.
    let ran = run(&["diff", whole.to_str().unwrap(), merged.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
}

#[test]
fn merge_refuses_what_is_not_every_shard_of_one_run() {
    let dir = scratch();
    let corpus = tiny_corpus(dir.path());
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    for k in 1..=4 {
        shard(&corpus, k, Path::new(&p(&format!("s{k}.json"))), "7");
    }
    shard(&corpus, 2, Path::new(&p("other-seed.json")), "8");
    let merge = |files: &[&str]| {
        let mut args = vec!["merge".to_owned()];
        args.extend(files.iter().map(|f| p(f)));
        run(&args)
    };
    let ran = run(&[
        "merge",
        "--output",
        &p(""),
        &p("s1.json"),
        &p("s2.json"),
        &p("s3.json"),
        &p("s4.json"),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!("error: failed to write {}: it is a directory\n", p(""))
    );
    let ran = run(&["merge", &p(""), &p("s1.json")]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: failed to read {}: it is a directory, and a report or a bundle is a file\n",
            p("")
        )
    );
    let ran = merge(&["s1.json", "s2.json", "s3.json"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        "error: shard 4/4 of the run is missing: the level of a run is stated only over every shard\n"
    );
    let ran = merge(&["s1.json", "s2.json", "s2.json", "s3.json", "s4.json"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: shard 2/4 is given twice: {} and {}\n",
            p("s2.json"),
            p("s2.json")
        )
    );
    let ran = merge(&["s1.json", "other-seed.json", "s3.json", "s4.json"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(&format!(
            "error: {} and {} are not shards of one run: their seeds differ",
            p("other-seed.json"),
            p("s1.json")
        )),
        "{}",
        ran.dump()
    );
}

#[test]
fn huge_shard_counts_and_a_merge_over_its_own_shard_are_refused() {
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--check",
        "store.*",
        "--shard",
        "4294967295/4294967295",
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(
            "error: --shard 4294967295/4294967295: 4294967295 shards for a selection of "
        ),
        "{}",
        ran.dump()
    );
    let dir = scratch();
    let corpus = tiny_corpus(dir.path());
    let s1 = dir.path().join("s1.json");
    shard(&corpus, 1, &s1, "7");
    let text = std::fs::read_to_string(&s1).unwrap();
    let before = text.clone();
    let s = s1.to_str().unwrap();
    let ran = run(&["merge", s, "--format", "json", "--output", s]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --output {s} names the same file as the shard report {s}: the merged report \
             would replace a shard it reads; name another file\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&s1).unwrap(), before);
    // A shard count edited past the selection is refused, not allocated.
    let edited = dir.path().join("edited.json");
    std::fs::write(
        &edited,
        text.replacen("\"total\": 4", "\"total\": 4294967295", 1),
    )
    .unwrap();
    let ran = run(&["merge", edited.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .contains("names 4294967295 shards for a selection of "),
        "{}",
        ran.dump()
    );
}

#[test]
fn merge_names_differing_drivers_and_filters_as_plain_text() {
    let dir = scratch();
    let corpus = tiny_corpus(dir.path());
    let s1 = dir.path().join("s1.json");
    shard(&corpus, 1, &s1, "7");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&s1).unwrap()).unwrap();
    let variant = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut r = report.clone();
        edit(&mut r);
        let path = dir.path().join(name);
        std::fs::write(&path, r.to_string()).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let s = s1.to_str().unwrap();
    type Edit<'a> = &'a dyn Fn(&mut Value);
    let cases: [(&str, Edit, &str); 3] = [
        (
            "spec.json",
            &|r| r["run"]["driver_spec"] = "mutant:limit-plus-one\u{1b}[2J".into(),
            "drivers differ (mutant:limit-plus-one\\u{1b}[2J against reference)",
        ),
        (
            "nospec.json",
            &|r| r["run"]["driver_spec"] = Value::Null,
            "drivers differ (none against reference)",
        ),
        (
            "filter.json",
            &|r| {
                r["run"]["filter"] =
                    serde_json::json!({"checks": ["store.*", "recall.*"], "families": ["corpus"]});
            },
            "filters differ (--check store.* --check recall.* --family corpus against none)",
        ),
    ];
    for (name, edit, expected) in cases {
        let other = variant(name, edit);
        let ran = run(&["merge", s, &other]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!("error: {other} and {s} are not shards of one run: their {expected}\n")
        );
    }
}

#[test]
fn merge_reads_an_unknown_outcome_as_a_failure_and_writes_it_back() {
    let dir = scratch();
    let corpus = tiny_corpus(dir.path());
    let paths: Vec<_> = (1..=4)
        .map(|k| dir.path().join(format!("s{k}.json")))
        .collect();
    for (k, p) in (1..=4).zip(&paths) {
        shard(&corpus, k, p, "7");
    }
    let text = std::fs::read_to_string(&paths[0]).unwrap();
    let edited = text.replacen("\"outcome\": \"pass\"", "\"outcome\": \"weird\"", 1);
    assert_ne!(edited, text);
    std::fs::write(&paths[0], edited).unwrap();
    let merged = dir.path().join("merged.json");
    let mut args = vec![
        "merge",
        "--format",
        "json",
        "--output",
        merged.to_str().unwrap(),
    ];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let ran = run(&args);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let out: Value = serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    let weird: Vec<&Value> = out["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] != "pass" && c["outcome"] != "skip")
        .collect();
    assert_eq!(weird.len(), 1, "{out}");
    assert_eq!(weird[0]["outcome"], "weird");
    assert_eq!(out["counts"]["fail"], 1);
    assert_eq!(out["conformance"]["level"], "partial");
}

/// A property check runs its cases on every free slot, each case on a
/// fresh store (an exec driver's: a process), so `--jobs` is how many
/// stores a run may hold at once: a number far past any machine's cores
/// is refused as usage, before a driver is opened, rather than starting
/// a process per case.
#[test]
fn jobs_past_the_maximum_are_refused_before_the_driver_opens() {
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--jobs",
        "100000",
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(
            "error: invalid value '100000' for '--jobs <N>': 100000 is not in 1..=1024"
        ),
        "{}",
        ran.dump()
    );
    assert_eq!(ran.stdout, "");
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--jobs",
        "1024",
        "--check",
        "store.upsert",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
}
