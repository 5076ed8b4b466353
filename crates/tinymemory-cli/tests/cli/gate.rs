//! The outputs of a run are decided once and written exactly there, and
//! every file a driver owns is claimed whether it exists yet or not
//! (docs/cli.md, "What an output guarantees"): a symlink pointed at the
//! store while the run goes on, a bind mount, and an `exec:` command's
//! database not created yet each once turned a report or a trace into
//! the store.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::bin::{repo, run, scratch};

const REFUSED: &str = ": an output of a run is never a file the run also reads or writes, so \
                       nothing was opened or written; name another file\n";

/// An exec driver (the in-memory Python example) whose start runs
/// `before` in a shell: what a second process does to the outputs after
/// the run has checked them and before it writes them.
fn driver_that_first_runs(dir: &Path, before: &str) -> String {
    let script = dir.join("driver.sh");
    let example = repo("examples/python/memory_driver.py");
    std::fs::write(
        &script,
        format!("{before}\nexec python3 '{}'\n", example.display()),
    )
    .unwrap();
    format!("exec:sh {}", script.display())
}

#[test]
fn an_output_and_a_trace_pointed_at_the_store_during_the_run_leave_it_whole() {
    let dir = scratch();
    let d = dir.path();
    let store = d.join("u.db");
    std::fs::write(&store, "the store's bytes").unwrap();
    let (safe, safe_trace) = (d.join("safe.json"), d.join("safe.jsonl"));
    let (out, trace) = (d.join("out.json"), d.join("trace.jsonl"));
    std::os::unix::fs::symlink(&safe, &out).unwrap();
    std::os::unix::fs::symlink(&safe_trace, &trace).unwrap();
    // `ln -sfn u.db out.json` once the run has resolved its outputs.
    let driver = driver_that_first_runs(
        d,
        &format!(
            "ln -sfn '{s}' '{o}' && ln -sfn '{s}' '{t}'",
            s = store.display(),
            o = out.display(),
            t = trace.display()
        ),
    );
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--check",
        "store.upsert",
        "--no-corpus",
        "--format",
        "json",
        "--output",
        out.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert_eq!(
        std::fs::read_to_string(&store).unwrap(),
        "the store's bytes"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&safe).unwrap()).unwrap();
    assert_eq!(report["checks"][0]["id"], "store.upsert");
    assert_eq!(report["checks"][0]["outcome"], "pass");
    let first: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&safe_trace)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["request"]["op"], "hello");
    // The links are as the other process left them.
    assert_eq!(std::fs::read_link(&out).unwrap(), store);
    assert_eq!(std::fs::read_link(&trace).unwrap(), store);
}

#[test]
fn an_exec_commands_files_are_claimed_before_they_exist_with_their_companions() {
    let dir = scratch();
    let db = dir.path().join("my.db");
    let script = repo("examples/python/sqlite_driver.py");
    let driver = format!("exec:python3 {} {}", script.display(), db.display());
    for (flag, named, role) in [
        ("--output", db.clone(), format!("{}", db.display())),
        (
            "--trace",
            dir.path().join("my.db-wal"),
            format!(
                "the -wal companion ({}-wal) of {}",
                db.display(),
                db.display()
            ),
        ),
        (
            "--output",
            dir.path().join("my.db-journal"),
            format!(
                "the -journal companion ({}-journal) of {}",
                db.display(),
                db.display()
            ),
        ),
    ] {
        let ran = run(&[
            "run",
            "--driver",
            &driver,
            "--no-corpus",
            flag,
            named.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 2, "{flag} {}: {}", named.display(), ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: {flag} {} names the same file as {role}, named by --driver \
                 {driver}{REFUSED}",
                named.display()
            )
        );
        assert!(!db.exists() && !named.exists(), "{}", named.display());
    }
}

/// `sh -c SCRIPT` in a user and mount namespace of its own, where `b` is
/// a bind mount of `a` (no mount outside it). `None` where such a
/// namespace cannot be made, which CI does not accept.
fn in_bind_mount(a: &Path, b: &Path, script: &str) -> Option<std::process::Output> {
    let script = format!(
        "mount --bind '{}' '{}' && {script}",
        a.display(),
        b.display()
    );
    let out = Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .env_remove("NO_COLOR")
        .output();
    match out {
        Ok(out) if out.status.code() != Some(32) && !is_mount_refusal(&out) => Some(out),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "no bind mount in a namespace of its own here (unshare -rm), which CI needs"
            );
            None
        }
    }
}

fn is_mount_refusal(out: &std::process::Output) -> bool {
    let err = String::from_utf8_lossy(&out.stderr);
    err.starts_with("unshare:") || err.starts_with("mount:")
}

#[test]
fn a_file_not_created_yet_is_the_same_file_through_a_bind_mount() {
    let dir = scratch();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let bin = env!("CARGO_BIN_EXE_tinymemory-conformance");
    for (store, flag, output, role) in [
        (
            "u.db",
            "--trace",
            "u.db-wal",
            format!("the -wal companion ({}/u.db-wal) of", a.display()),
        ),
        ("new.db", "--output", "new.db", "".to_owned()),
    ] {
        let (store, output) = (a.join(store), b.join(output));
        let driver = format!("sqlite:{}", store.display());
        let script = format!(
            "exec '{bin}' run --driver '{driver}' --check store.upsert --no-corpus {flag} '{}'",
            output.display()
        );
        let Some(ran) = in_bind_mount(&a, &b, &script) else {
            return;
        };
        let stderr = String::from_utf8(ran.stderr).unwrap();
        assert_eq!(ran.status.code(), Some(2), "{stderr}");
        let role = if role.is_empty() {
            "the store of".to_owned()
        } else {
            format!("{role} the store of")
        };
        assert_eq!(
            stderr,
            format!(
                "error: {flag} {} names the same file as {role} --driver {driver}{REFUSED}",
                output.display()
            )
        );
        assert!(!store.exists());
    }
}

#[test]
fn a_refused_run_creates_no_bundle_directory_and_no_output() {
    let dir = scratch();
    // A driver that does not declare independent stores: `--jobs 2` is
    // refused once its hello has been read.
    let script = dir.path().join("shared.py");
    std::fs::write(
        &script,
        format!(
            "import sys\nsys.path.insert(0, '{}')\nimport memory_driver as m\n\
             class Shared(m.MemoryStore):\n    independent_stores = False\n\
             m.tp.serve(Shared(), 'shared')\n",
            repo("examples/python").display()
        ),
    )
    .unwrap();
    let bundles = dir.path().join("bundles/new");
    let output = dir.path().join("report.json");
    let ran = run(&[
        "run",
        "--driver",
        &format!("exec:python3 {}", script.display()),
        "--no-corpus",
        "--jobs",
        "2",
        "--bundle",
        bundles.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .starts_with("error: --jobs 2: the driver exec:python3 "),
        "{}",
        ran.dump()
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["shared.py"]);
}

/// A signal ends the run whatever became of its output: after `run 2>&1
/// | head -1` let `head` exit, SIGINT and SIGTERM once went unanswered
/// (the message about the interruption panicked on the closed pipe, and
/// the run waited for an exit that never came).
#[test]
fn a_signal_ends_a_run_whose_output_reader_is_gone() {
    use std::io::BufRead as _;
    use std::process::Stdio;
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let mut child = crate::support::bin::command()
            .args([
                "run",
                "--driver",
                "reference",
                "--no-corpus",
                "--cases",
                "100000",
            ])
            .env_remove("NO_COLOR")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("tinymemory-conformance "), "{first}");
        // Both readers gone, as `head` exiting leaves them.
        drop(child.stderr.take());
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let t0 = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if t0.elapsed() > std::time::Duration::from_secs(30) {
                child.kill().unwrap();
                panic!("SIG{signal} did not end the run within 30 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(code), "SIG{signal}");
    }
}

/// `run ARGS --shard K/N --format json --output DIR/sK.json` on the
/// reference driver without the corpus: its exit code and report path.
fn shard_of(dir: &Path, k: u32, n: u32, args: &[&str]) -> (i32, std::path::PathBuf) {
    let out = dir.join(format!("s{k}.json"));
    let mut all = vec![
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--cases",
        "4",
        "--seed",
        "7",
        "--quiet",
        "--format",
        "json",
    ];
    all.extend_from_slice(args);
    let shard = format!("{k}/{n}");
    all.extend_from_slice(&["--shard", &shard, "--output", out.to_str().unwrap()]);
    (run(&all).code, out)
}

#[test]
fn a_merge_of_shards_that_verified_nothing_exits_as_the_run_would() {
    let dir = scratch();
    let only_corpus = ["--check", "corpus.*"];
    let (c1, s1) = shard_of(dir.path(), 1, 2, &only_corpus);
    let (c2, s2) = shard_of(dir.path(), 2, 2, &only_corpus);
    assert_eq!((c1, c2), (4, 4));
    let whole = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--check",
        "corpus.*",
    ]);
    assert_eq!(whole.code, 4, "{}", whole.dump());
    let (s1, s2) = (s1.to_str().unwrap(), s2.to_str().unwrap());
    let ran = run(&["merge", s1, s2]);
    assert_eq!(ran.code, 4, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        "error: every selected check was skipped (2 of 2), so nothing was verified; \
         --all-skipped warn or pass accepts such a run\n"
    );
    let ran = run(&["merge", s1, s2, "--all-skipped", "pass"]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
}

#[test]
fn a_shard_edited_to_claim_only_its_own_checks_is_refused() {
    let dir = scratch();
    let (code, s1) = shard_of(dir.path(), 1, 3, &[]);
    assert_eq!(code, 0);
    let mut report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&s1).unwrap()).unwrap();
    let own: Vec<serde_json::Value> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].clone())
        .collect();
    let ran_ids = own.len();
    report["run"]["shard"]["total"] = 1.into();
    report["run"]["shard"]["selection"] = serde_json::Value::Array(own);
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, report.to_string()).unwrap();
    let listed = run(&["list", "--profile", "lexical"]);
    let lexical: usize = listed
        .stdout
        .lines()
        .last()
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", listed.dump()));
    let ran = run(&["merge", edited.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(&format!(
            "error: the shards cover {ran_ids} checks, and this build selects {lexical} for the \
             lexical recall profile; missing: "
        )),
        "{}",
        ran.dump()
    );
    assert!(
        ran.stderr.ends_with(
            ": a merged report stands for one whole run, so its level is stated only over every \
             check that run selects\n"
        ),
        "{}",
        ran.dump()
    );
    assert_eq!(ran.stdout, "");
}

#[test]
fn shard_durations_past_what_a_report_holds_are_refused() {
    let dir = scratch();
    let (_, s1) = shard_of(dir.path(), 1, 2, &[]);
    let (_, s2) = shard_of(dir.path(), 2, 2, &[]);
    for s in [&s1, &s2] {
        let mut r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(s).unwrap()).unwrap();
        r["run"]["duration_ms"] = serde_json::json!(1e308);
        std::fs::write(s, r.to_string()).unwrap();
    }
    let ran = run(&["merge", s1.to_str().unwrap(), s2.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: the shards' run.duration_ms add up past what a report can hold ({} says \
             {}): they are not the durations of a run\n",
            s2.display(),
            1e308_f64
        )
    );
}

/// The peak number of driver processes alive at once during `run
/// --driver exec:.. ARGS` on the in-memory Python example, and how many
/// were started: each process logs its start and its end.
fn driver_processes(dir: &Path, args: &[&str]) -> (usize, usize) {
    let log = dir.join("processes.log");
    let _ = std::fs::remove_file(&log);
    let wrapper = dir.join("counted.py");
    std::fs::write(
        &wrapper,
        "import atexit, os, runpy, sys, time\n\
         def note(what):\n    with open(os.environ['COUNT_LOG'], 'a') as f:\n        \
         f.write(f'{time.monotonic():.6f} {what}\\n')\n\
         note('start')\natexit.register(note, 'end')\n\
         sys.argv = sys.argv[1:]\nrunpy.run_path(sys.argv[0], run_name='__main__')\n",
    )
    .unwrap();
    let driver = format!(
        "exec:python3 {} {}",
        wrapper.display(),
        repo("examples/python/memory_driver.py").display()
    );
    let mut all = vec!["run", "--driver", &driver, "--cases", "4", "--quiet"];
    all.extend_from_slice(args);
    let out = crate::support::bin::command()
        .args(&all)
        .env("COUNT_LOG", &log)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let mut events: Vec<(f64, bool)> = text
        .lines()
        .map(|l| {
            let (t, what) = l.split_once(' ').unwrap();
            (t.parse().unwrap(), what == "start")
        })
        .collect();
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut live, mut peak) = (0usize, 0usize);
    for (_, start) in &events {
        if *start {
            live += 1;
            peak = peak.max(live);
        } else {
            live -= 1;
        }
    }
    assert_eq!(live, 0, "every process ended with the run: {text}");
    (peak, events.iter().filter(|e| e.1).count())
}

/// docs/cli.md, "Driver processes": at most two per job slot (a check
/// holds at most two stores at once), one more for the corpus store, each
/// reused with `reset` and never replaced by a correct driver.
#[test]
fn a_run_starts_no_more_driver_processes_than_documented() {
    let dir = scratch();
    // One job: the probe's process serves every one-store check; the
    // second is for a check comparing two stores.
    assert_eq!(
        driver_processes(dir.path(), &["--no-corpus", "--jobs", "1"]),
        (2, 2)
    );
    // One more holds the corpus.
    let corpus = repo("fixtures/corpora");
    assert_eq!(
        driver_processes(
            dir.path(),
            &[
                "--corpus",
                corpus.to_str().unwrap(),
                "--check",
                "corpus.*",
                "--check",
                "properties.cap_determinism",
                "--jobs",
                "1"
            ]
        ),
        (3, 3)
    );
    // Started ahead, all at once: two per job when a property check runs
    // (two stores, or cases on free slots), one per job otherwise, and
    // never more than the checks can use.
    for jobs in [2usize, 3] {
        let j = jobs.to_string();
        assert_eq!(
            driver_processes(dir.path(), &["--no-corpus", "--jobs", &j]),
            (2 * jobs, 2 * jobs),
            "--jobs {jobs}"
        );
    }
    assert_eq!(
        driver_processes(
            dir.path(),
            &["--no-corpus", "--check", "store.*", "--jobs", "3"]
        ),
        (3, 3)
    );
    assert_eq!(
        driver_processes(
            dir.path(),
            &["--no-corpus", "--check", "store.upsert", "--jobs", "3"]
        ),
        (1, 1)
    );
}

/// `tinymemory-conformance ARGS` run in `dir`, its stdout and stderr given.
fn run_in(
    dir: &Path,
    args: &[&str],
    stdout: std::process::Stdio,
    stderr: std::process::Stdio,
) -> std::process::ExitStatus {
    crate::support::bin::command()
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdout(stdout)
        .stderr(stderr)
        .status()
        .unwrap()
}

#[test]
fn a_sqlite_uri_is_refused_so_its_file_cannot_pass_as_another() {
    let dir = scratch();
    let db = dir.path().join("u.db");
    std::fs::write(&db, "the store's bytes").unwrap();
    let ran = run(&[
        "run",
        "--driver",
        &format!("sqlite:file:{}", db.display()),
        "--no-corpus",
        "--output",
        db.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.contains("a SQLite URI is not taken here"),
        "{}",
        ran.dump()
    );
    assert_eq!(std::fs::read_to_string(&db).unwrap(), "the store's bytes");
}

#[test]
fn dev_stdout_is_written_through_the_stream_never_renamed_over_its_file() {
    let dir = scratch();
    let log = dir.path().join("run.log");
    std::fs::write(&log, "an old log line\n").unwrap();
    let append = || std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let status = run_in(
        dir.path(),
        &[
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--check",
            "store.upsert",
            "--format",
            "json",
            "--output",
            "/dev/stdout",
        ],
        append().into(),
        append().into(),
    );
    assert_eq!(status.code(), Some(0));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("an old log line\n"), "{text}");
    assert!(text.contains("\"id\": \"store.upsert\""), "{text}");
}

#[test]
fn a_redirection_inside_an_exec_command_is_one_of_its_files() {
    let dir = scratch();
    let log = dir.path().join("drv.log");
    std::fs::write(&log, "the driver's log").unwrap();
    let driver = format!(
        "exec:sh -c 'exec python3 {} 2>>{}'",
        repo("examples/python/memory_driver.py").display(),
        log.display()
    );
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--output",
        log.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(&format!(
            "error: --output {} names the same file as {}, named by --driver",
            log.display(),
            log.display()
        )),
        "{}",
        ran.dump()
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "the driver's log");
}

#[test]
fn a_bundle_directory_named_alone_is_made_where_it_is_named() {
    let dir = scratch();
    let bundle = "mutant_negated-scores--recall.min_score.json";
    std::fs::write(dir.path().join(bundle), "kept").unwrap();
    let status = run_in(
        dir.path(),
        &[
            "run",
            "--driver",
            "mutant:negated-scores",
            "--no-corpus",
            "--check",
            "recall.min_score",
            "--quiet",
            "--bundle",
            "bundles",
        ],
        std::process::Stdio::null(),
        std::process::Stdio::null(),
    );
    assert_eq!(status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.path().join(bundle)).unwrap(),
        "kept"
    );
    let made: Vec<String> = std::fs::read_dir(dir.path().join("bundles"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(made, [bundle]);
}

#[test]
fn an_exit_code_survives_a_stderr_that_cannot_be_written() {
    let dir = scratch();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let status = run_in(
        dir.path(),
        &[
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--check",
            "nosuch",
        ],
        std::process::Stdio::null(),
        full.into(),
    );
    assert_eq!(status.code(), Some(2));
}

#[test]
fn an_output_ending_in_a_slash_is_refused() {
    let dir = scratch();
    let named = format!("{}/new.json/", dir.path().display());
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--check",
        "store.upsert",
        "--output",
        &named,
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: failed to write {named}: a name ending in / names a directory, and an output \
             is a file\n"
        )
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_shard_with_an_outcome_or_family_run_never_writes_is_refused() {
    let dir = scratch();
    let (_, s1) = shard_of(dir.path(), 1, 2, &[]);
    let (_, s2) = shard_of(dir.path(), 2, 2, &[]);
    let edit = |path: &Path, f: &dyn Fn(&mut serde_json::Value)| {
        let mut r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        f(&mut r);
        let out = path.with_extension("edited.json");
        std::fs::write(&out, r.to_string()).unwrap();
        out
    };
    let outcome = edit(&s1, &|r| {
        r["checks"][0]["outcome"] = "expected-failure".into();
        r["checks"][0]["reason"] = "x".into();
    });
    let ran = run(&["merge", outcome.to_str().unwrap(), s2.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .contains("the outcome expected-failure, which run never writes"),
        "{}",
        ran.dump()
    );
    let family = edit(&s1, &|r| r["checks"][0]["family"] = "corpus".into());
    let ran = run(&["merge", family.to_str().unwrap(), s2.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .contains("in family corpus, and this build's registry in contract"),
        "{}",
        ran.dump()
    );
}

/// Two shards whose reports together hold every check once, but with a
/// check of shard 1 moved into shard 2's report: the union is the run's
/// selection, yet no `run --shard 2/2` reports that check, so the reports
/// are not what the shards ran (a check's failure hidden in the shard
/// that passed, or a shard's report stitched from another run's).
#[test]
fn a_check_moved_between_shards_reports_is_refused() {
    let dir = scratch();
    let (_, s1) = shard_of(dir.path(), 1, 2, &[]);
    let (_, s2) = shard_of(dir.path(), 2, 2, &[]);
    let read = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (mut r1, mut r2) = (read(&s1), read(&s2));
    let moved = r1["checks"].as_array_mut().unwrap().pop().unwrap();
    let id = moved["id"].as_str().unwrap().to_owned();
    r2["checks"].as_array_mut().unwrap().push(moved);
    std::fs::write(&s1, r1.to_string()).unwrap();
    std::fs::write(&s2, r2.to_string()).unwrap();
    let ran = run(&["merge", s1.to_str().unwrap(), s2.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {} (shard 2/2) reports check {id}, which this build's partition gives to \
             shard 1/2: each shard reports exactly the checks run --shard K/N runs\n",
            s2.display()
        )
    );
    assert_eq!(ran.stdout, "");
}

#[test]
fn sighup_ends_a_run_as_sigterm_does() {
    use std::process::Stdio;
    let mut child = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--cases",
            "100000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.as_mut().unwrap()),
        &mut first,
    )
    .unwrap();
    let killed = Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(129));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("interrupted by SIGHUP"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_store_named_as_another_stores_companion_is_refused() {
    let dir = scratch();
    let db = dir.path().join("w.db");
    std::fs::write(&db, "a store").unwrap();
    let wal = dir.path().join("w.db-wal");
    let ran = run(&[
        "run",
        "--driver",
        &format!("sqlite:{}", wal.display()),
        "--check",
        "corpus.namespace_counts",
        "--quiet",
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --driver sqlite:{w} names the -wal companion of the SQLite store {d}, which \
             SQLite deletes or replays when it opens {d}; name another file\n",
            w = wal.display(),
            d = db.display()
        )
    );
    assert!(!wal.exists());
}

#[test]
fn an_output_in_a_bind_mount_of_a_corpus_directory_is_inside_the_corpus() {
    let dir = scratch();
    let corpus = dir.path().join("corpus");
    let english = corpus.join("chatterbot/english");
    std::fs::create_dir_all(&english).unwrap();
    std::fs::write(english.join("greetings.yml"), "categories: [greetings]\n").unwrap();
    let mounted = dir.path().join("mounted");
    std::fs::create_dir_all(&mounted).unwrap();
    let bin = env!("CARGO_BIN_EXE_tinymemory-conformance");
    let output = mounted.join("new.yml");
    let script = format!(
        "exec '{bin}' run --driver reference --corpus '{}' --check corpus.namespace_counts \
         --output '{}'",
        corpus.display(),
        output.display()
    );
    let Some(ran) = in_bind_mount(&english, &mounted, &script) else {
        return;
    };
    let stderr = String::from_utf8(ran.stderr).unwrap();
    assert_eq!(ran.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "error: --output {} names the same file as {}, a directory of the corpus \
             {}{REFUSED}",
            output.display(),
            english.display(),
            corpus.display()
        )
    );
    assert!(!english.join("new.yml").exists());
}
