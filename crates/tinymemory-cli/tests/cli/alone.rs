//! A failing check of an exec driver is rerun alone on a fresh driver
//! process; when it passes there, the earlier check that makes it fail is
//! named, with a command that reproduces the failure (docs/cli.md,
//! "Order-dependent failures").

use std::process::Command;

use serde_json::Value;

use crate::support::bin::{python_driver, repo, run, scratch};

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

fn entry<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no entry for {id}: {report}"))
}

/// The check's message followed by the notes the run added, as the text
/// report prints them: a trace span in brackets, any other note on
/// indented lines of its own.
fn message_of(report: &Value, id: &str) -> String {
    let entry = entry(report, id);
    let mut shown = entry["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no message for {id}: {report}"))
        .to_owned();
    for note in entry["notes"].as_array().into_iter().flatten() {
        let text = note["text"].as_str().unwrap();
        if note["kind"] == "trace" {
            shown.push_str(&format!(" [{text}]"));
        } else {
            shown.push_str(&format!("\n  {text}"));
        }
    }
    shown
}

#[test]
fn a_failure_that_passes_alone_names_the_check_before_it_and_reproduces() {
    let dir = scratch();
    let out = dir.path().join("report.json");
    let driver = python_driver("crates/tinymemory-cli/tests/drivers/plan_drift_driver.py");
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

/// A run in a directory whose name holds an escape sequence, a bidi
/// override and a C1 control prints its `cd` in ANSI-C quotes, each of
/// them escaped (the name once reached the terminal raw, coloring the
/// rest of the line), and bash goes back to that directory with it.
#[test]
fn an_odd_working_directory_is_quoted_with_its_controls_escaped() {
    let root = scratch();
    let name = "we ird\u{1b}[31m\u{202e}end\u{85}it's";
    let dir = root.path().join(name);
    std::fs::create_dir(&dir).unwrap();
    let driver = python_driver("crates/tinymemory-cli/tests/drivers/plan_drift_driver.py");
    let out = crate::support::bin::command()
        .args([
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
        ])
        .current_dir(&dir)
        .env_remove("PYTHONPATH")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.contains("; reproduce: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let cd = line.split_once("; reproduce: cd ").unwrap().1;
    let (word, _) = cd.split_once(" && ").unwrap();
    assert_eq!(
        word,
        format!(
            "$'{}/we ird\\x1b[31m\\u202eend\\u0085it\\'s'",
            root.path().display()
        )
    );
    assert!(!line.contains(['\u{1b}', '\u{202e}', '\u{85}']), "{line:?}");
    let back = Command::new("bash")
        .args(["-c", &format!("cd {word} && pwd")])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(back.stdout).unwrap(),
        format!("{}\n", dir.display())
    );
}

#[test]
fn a_failure_of_its_own_fails_alone_too_and_no_rerun_leaves_it_as_it_was() {
    let driver = python_driver("examples/python/broken_driver.py");
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
    let reproduce = format!(
        "{} run --driver '{driver}' --no-corpus --jobs 1 --seed 8388357248759721216 --cases 64 \
         --check recall.limit",
        prefix()
    );
    // The verdict is a note of the failure, beside the check's own
    // message: its kind, its verdict and the command as data.
    let failed = entry(&report, "recall.limit");
    assert_eq!(
        failed["message"],
        "hits with limit 3 of 5 entries holding the word: expected 3, got 5"
    );
    assert_eq!(
        failed["notes"],
        serde_json::json!([{
            "kind": "rerun",
            "text": format!(
                "fails alone too, on a fresh driver process: the checks before it are not the \
                 cause; reproduce: {reproduce}"
            ),
            "verdict": "fails-alone",
            "reproduce": reproduce,
        }])
    );
    assert_eq!(
        failed["driver_error"],
        Value::Null,
        "a wrong answer has no driver error"
    );
    let message = message_of(&report, "recall.limit");
    assert_eq!(
        message,
        format!(
            "hits with limit 3 of 5 entries holding the word: expected 3, got 5\n  fails alone \
             too, on a fresh driver process: the checks before it are not the cause; reproduce: \
             {reproduce}"
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
    assert_eq!(entry(&report, "recall.limit").get("notes"), None);
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
    let driver = python_driver("examples/python/broken_driver.py");
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

/// `exec:python3 tests/drivers/rerun_driver.py MODE STATE_DIR [P]`.
fn rerun_driver(mode: &str, state: &std::path::Path, p: Option<&str>) -> String {
    let script = repo("crates/tinymemory-cli/tests/drivers/rerun_driver.py");
    let mut driver = format!(
        "exec:python3 {} {mode} {}",
        script.display(),
        state.display()
    );
    if let Some(p) = p {
        driver.push_str(&format!(" {p}"));
    }
    driver
}

/// Runs `checks` of `driver` at one job with `extra` options; the JSON
/// report.
fn report_of(driver: &str, checks: &[&str], extra: &[&str]) -> Value {
    let mut args = vec![
        "run",
        "--driver",
        driver,
        "--no-corpus",
        "--jobs",
        "1",
        "--cases",
        "4",
    ];
    for check in checks {
        args.extend(["--check", check]);
    }
    args.extend(extra);
    args.extend(["--format", "json"]);
    let ran = run(&args);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.dump()))
}

/// What the rerun added to a failure's message: its lines after the
/// check's own.
fn verdict_of(report: &Value, id: &str, own: &str) -> String {
    let message = message_of(report, id);
    message
        .strip_prefix(own)
        .unwrap_or_else(|| panic!("{message}"))
        .to_owned()
}

/// A rerun is cut at the budget's end, however long the driver takes: the
/// rerun processes of this driver take 20 s over their first recall. Its
/// start-up (a Python interpreter, under a second) is far from half of the
/// 8 s budget, so the verdict names no start-up time.
#[test]
fn a_rerun_past_the_budget_is_cut_and_says_so() {
    let state = scratch();
    let driver = rerun_driver("slow-rerun", state.path(), None);
    let report = report_of(&driver, &["recall.limit"], &["--rerun-budget", "8"]);
    assert_eq!(
        verdict_of(
            &report,
            "recall.limit",
            "hits with limit 3 of 5 entries holding the word: expected 3, got 5"
        ),
        format!(
            "\n  not decided within the rerun budget (8s for all the reruns of a run; \
             --rerun-budget SECS raises it){SHARED_NOTE}"
        )
    );
}

/// A rerun's driver start is held to the budget too: its `hello` waits at
/// most what is left of the budget, not `--call-timeout`, so the rerun
/// process, 15 s from answering, is stopped before it answers (it writes
/// `hello-2` once it does) and the run does not wait for it. The verdict
/// says how much of the budget went to waiting for that start: all of it
/// but the wait for the run's process to end, so at least half.
#[test]
fn a_rerun_whose_driver_start_outlasts_the_budget_is_cut() {
    let state = scratch();
    let driver = rerun_driver("slow-hello", state.path(), None);
    let report = report_of(
        &driver,
        &["recall.limit"],
        &["--rerun-budget", "6", "--call-timeout", "3600"],
    );
    let said = verdict_of(
        &report,
        "recall.limit",
        "hits with limit 3 of 5 entries holding the word: expected 3, got 5",
    );
    let waited: u64 = said
        .strip_prefix("\n  not decided within the rerun budget (6s for all the reruns of a run, ")
        .and_then(|rest| rest.split_once("s of which"))
        .and_then(|(secs, _)| secs.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!((3..=6).contains(&waited), "{said}");
    assert_eq!(
        said,
        format!(
            "\n  not decided within the rerun budget (6s for all the reruns of a run, {waited}s \
             of which its reruns waited for fresh driver processes to start; --rerun-budget SECS \
             raises it){SHARED_NOTE}"
        )
    );
    assert_eq!(
        std::fs::read_to_string(state.path().join("processes")).unwrap(),
        "2"
    );
    assert!(!state.path().join("hello-2").exists());
}

/// What a wrong answer of a driver whose stores share one database adds
/// to the check's message: what else could explain it.
const SHARED_NOTE: &str = "\n  (measured on a store of a driver whose stores share one database: \
     it does not declare independent_stores, so writes through another of its stores while the \
     check ran (by this check, another process, or another run on that database) could explain \
     this count or hit as well as the broken rule; two stores whose rows share ids in one table \
     or collection are such a case, where another namespace's upsert takes a row)";

/// A count that another store's writes could explain says so when the
/// driver's stores share a database, rerun or not, and the bundle keeps
/// the check's own message (a replay, without the note, reproduces it); a
/// driver declaring independent stores gets no such note.
#[test]
fn a_wrong_count_on_a_shared_store_says_what_else_could_explain_it() {
    let state = scratch();
    let bundles = scratch();
    let own = "hits with limit 3 of 5 entries holding the word: expected 3, got 5";
    let driver = rerun_driver("slow-rerun", state.path(), None);
    let mut args = vec![
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "recall.limit",
        "--no-rerun",
        "--format",
        "json",
        "--bundle",
        bundles.path().to_str().unwrap(),
    ];
    let ran = run(&args);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(
        message_of(&report, "recall.limit"),
        format!("{own}{SHARED_NOTE}")
    );
    let bundle = std::fs::read_dir(bundles.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap()).unwrap();
    assert_eq!(recorded["actual"], own);
    // The same broken store declaring independent stores.
    let independent = python_driver("examples/python/broken_driver.py");
    args[2] = &independent;
    args.truncate(args.len() - 2);
    let ran = run(&args);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(message_of(&report, "recall.limit"), own);
}

/// A store one process may hold at a time, closing in 1 s: a rerun waits
/// for the run's process to let go, so its check runs and passes alone
/// (it fails only after store.concurrent_writes, in one process).
#[test]
fn a_rerun_waits_for_the_runs_processes_to_end() {
    let state = scratch();
    let driver = rerun_driver("locked", state.path(), None);
    let report = report_of(
        &driver,
        &["store.concurrent_writes", "sections.across_merge_order"],
        &[],
    );
    let message = message_of(&report, "sections.across_merge_order");
    assert!(
        message.contains(
            "\n  passes alone, on a fresh driver process, and fails after store.concurrent_writes \
             on the same process: "
        ),
        "{message}"
    );
}

/// A rerun whose store cannot be opened fails another way than the run
/// did (a wrong answer): it decides nothing.
#[test]
fn a_rerun_failing_another_way_decides_nothing() {
    let state = scratch();
    let driver = rerun_driver("reset-fails", state.path(), None);
    let report = report_of(&driver, &["recall.limit"], &[]);
    assert_eq!(
        verdict_of(
            &report,
            "recall.limit",
            "hits with limit 3 of 5 entries holding the word: expected 3, got 5"
        ),
        format!(
            "\n  the rerun could not decide: failed to open a fresh store: backend failure: the \
             store's files are held by a backup{SHARED_NOTE}"
        )
    );
}

/// A `get` that misses now and then (3 %, from a seed per process, so
/// this run is the same every time): the check passes alone once and
/// fails alone the next time, so no earlier check is named.
#[test]
fn a_check_failing_now_and_then_is_given_no_cause() {
    let state = scratch();
    let driver = rerun_driver("flaky-get", state.path(), Some("0.03"));
    let report = report_of(
        &driver,
        &[
            "store.upsert",
            "store.upsert_replaces_metadata",
            "namespace.case_sensitive",
        ],
        &[],
    );
    assert_eq!(
        verdict_of(
            &report,
            "namespace.case_sensitive",
            "content of get(\"global\", \"k\"): expected Some(\"the global scope\"), got None"
        ),
        format!(
            "\n  fails now and then, not reproducibly (1 of 2 reruns on fresh driver processes \
             failed as the run did, alone or after the checks before it): no check before it is \
             the cause, and a store must answer the same every time; reproduce, repeating until \
             it fails: {} run --driver '{driver}' --no-corpus --jobs 1 --seed \
             8388357248759721216 --cases 4 --check namespace.case_sensitive{SHARED_NOTE}",
            prefix()
        )
    );
}

/// A driver whose processes share one file, which a fresh process's first
/// reset does not empty: what an earlier run left there is reported, not
/// ruled out.
#[test]
fn a_fresh_process_over_a_shared_file_is_not_taken_for_an_empty_store() {
    let state = scratch();
    let driver = rerun_driver("shared-file", state.path(), None);
    let filled = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "store.upsert",
    ]);
    assert_eq!(filled.code, 0, "{}", filled.dump());
    let report = report_of(&driver, &["namespaces.exact_counts"], &[]);
    let message = message_of(&report, "namespaces.exact_counts");
    let verdict = message.split_once("\n  ").unwrap().1;
    assert!(
        verdict.starts_with(
            "fails alone too, on a fresh driver process, but not on an empty store: after reset \
             it held 6 entries in namespaces \"document:b\", \"global\", \"learning:a\", left in \
             the database the driver's processes share (by the checks before it, or an earlier \
             run), so they are not ruled out as the cause: those entries may explain a count or \
             a hit of the failure (a store must be empty after reset, store.opens_empty); \
             reproduce: "
        ),
        "{message}"
    );
}

/// The three checks `examples/python/broken_driver.py` fails on its own,
/// in registry order: each fails alone too.
const BROKEN_ALONE: [&str; 3] = [
    "recall.none_means_global",
    "recall.limit",
    "forget.idempotent",
];

/// The rerun note a check failing alone gets, `driver` and the run's
/// `cases` in its command.
fn fails_alone(driver: &str, cases: &str, id: &str) -> Value {
    let reproduce = format!(
        "{} run --driver {} --no-corpus --jobs 1 --seed 8388357248759721216 --cases {cases} \
         --check {id}",
        prefix(),
        shlex::try_quote(driver).unwrap()
    );
    serde_json::json!({
        "kind": "rerun",
        "text": format!(
            "fails alone too, on a fresh driver process: the checks before it are not the \
             cause; reproduce: {reproduce}"
        ),
        "verdict": "fails-alone",
        "reproduce": reproduce,
    })
}

/// A driver declaring independent stores whose every start-up takes 5 s
/// (asleep, as a heavy engine's imports take seconds): its three failing
/// checks are all decided within a 13 s budget, which three start-ups one
/// after another (15 s) cannot fit, because the reruns' fresh processes
/// start ahead, beside one another (docs/cli.md, "Order-dependent
/// failures"). The margin is wide on purpose: overlapped, the reruns need
/// one start-up and three short checks.
#[test]
fn the_reruns_of_a_slow_starting_independent_driver_start_their_processes_ahead() {
    let driver = format!(
        "exec:python3 {} 5 python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/slow_start.py").display(),
        repo("examples/python/broken_driver.py").display()
    );
    let mut args = vec![
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--jobs",
        "3",
        "--cases",
        "4",
        "--rerun-budget",
        "13",
        "--format",
        "json",
    ];
    for id in BROKEN_ALONE {
        args.extend(["--check", id]);
    }
    let ran = run(&args);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    for id in BROKEN_ALONE {
        assert_eq!(
            entry(&report, id)["notes"],
            serde_json::json!([fails_alone(&driver, "4", id)]),
            "{id}: {}",
            ran.dump()
        );
    }
}

/// A driver whose processes share one database (no `independent_stores`)
/// gets no process started ahead: each rerun's process starts once every
/// process before it has ended. Each process of this one holds a lock for
/// its whole life and records a start that finds it held.
#[test]
fn the_reruns_of_a_shared_driver_start_one_process_after_another() {
    let state = scratch();
    let driver = rerun_driver("exclusive", state.path(), None);
    let report = report_of(&driver, &BROKEN_ALONE, &[]);
    for id in BROKEN_ALONE {
        assert_eq!(
            entry(&report, id)["notes"][0],
            fails_alone(&driver, "4", id),
            "{id}: {report}"
        );
    }
    assert!(
        !state.path().join("overlapped").exists(),
        "a process started while another was alive"
    );
    // The run's one process, then one per rerun.
    assert_eq!(
        std::fs::read_to_string(state.path().join("processes")).unwrap(),
        "4"
    );
}

/// No more of the reruns' start-ups run at once than checks are being
/// decided (one at `--jobs 1`): the next rerun's process starts once the
/// one taken has answered `hello`, since start-ups on a busy machine slow
/// one another down. Each start-up of this driver holds a lock directory
/// for 0.4 s and records one that finds it held.
#[test]
fn the_reruns_start_no_more_processes_at_once_than_checks_being_decided() {
    let state = scratch();
    let lock = state.path().join("starting");
    let driver = format!(
        "exec:python3 {} {} python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/exclusive_start.py").display(),
        lock.display(),
        repo("examples/python/broken_driver.py").display()
    );
    let report = report_of(&driver, &BROKEN_ALONE, &[]);
    for id in BROKEN_ALONE {
        assert_eq!(
            entry(&report, id)["notes"],
            serde_json::json!([fails_alone(&driver, "4", id)]),
            "{id}: {report}"
        );
    }
    assert!(
        !state.path().join("starting.overlapped").exists(),
        "two start-ups overlapped"
    );
}
