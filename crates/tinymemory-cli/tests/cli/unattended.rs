//! The CLI left unattended in CI (issue 14): no driver process outlives a
//! command, outputs are written atomically at the end and never lost,
//! files named on the command line are checked before the run, an
//! existing store is not overwritten silently, an interrupted run cleans
//! up, a bundle never runs its command, and text from files or drivers
//! cannot drive the terminal. Process tests find their own processes by a
//! marker word in their command line.

use crate::support;

#[cfg(unix)]
use std::os::unix::fs::FileTypeExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::bin::{repo, run, scratch};

/// `tests/drivers/misbehave.py` of the exec crate.
fn misbehave() -> PathBuf {
    repo("crates/tinymemory-exec/tests/drivers/misbehave.py")
}

/// A word no other process has in its command line.
fn marker(test: &str) -> String {
    format!("tinymemory-cli-test-{test}-{}", std::process::id())
}

fn processes_with(marker: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|b| *b == 0).any(|w| w == marker.as_bytes()))
        })
        .collect()
}

/// A corpus of one small dialog file, for runs that must load one fast.
fn tiny_corpus(dir: &Path) -> PathBuf {
    let root = dir.join("corpus");
    std::fs::create_dir_all(root.join("chatterbot/english")).unwrap();
    std::fs::write(
        root.join("chatterbot/english/greetings.yml"),
        "categories:\n- greetings\nconversations:\n- - Hello there\n  - Hi, how are you\n- - Good morning\n  - Morning to you\n",
    )
    .unwrap();
    root
}

#[test]
fn run_and_replay_leave_no_driver_process_ignoring_end_of_stdin() {
    let m = marker("ignore-eof");
    let driver = format!("exec:python3 {} ignore-eof - {m}", misbehave().display());
    let dir = scratch();
    let bundle = dir.path().join("bundle.json");
    std::fs::write(
        &bundle,
        std::fs::read_to_string(repo(
            "fixtures/regressions/mutant_limit-plus-one--recall.limit.json",
        ))
        .unwrap(),
    )
    .unwrap();
    let replayed = run(&["replay", bundle.to_str().unwrap(), "--driver", &driver]);
    assert_eq!(replayed.code, 0, "{}", replayed.dump());
    assert_eq!(processes_with(&m), Vec::<u32>::new(), "left by replay");
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--cases",
        "1",
        "--quiet",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert_eq!(processes_with(&m), Vec::<u32>::new(), "left by run");
}

#[test]
fn a_failed_run_leaves_the_old_output_file_as_it_was() {
    let dir = scratch();
    let output = dir.path().join("report.json");
    std::fs::write(&output, "the old report\n").unwrap();
    let ran = run(&[
        "run",
        "--driver",
        "exec:/nonexistent/tinymemory-driver",
        "--no-corpus",
        "--output",
        output.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "the old report\n"
    );
}

#[test]
fn an_unwritable_bundle_directory_is_refused_before_any_check() {
    let dir = scratch();
    let output = dir.path().join("report.json");
    std::fs::write(&output, "the old report\n").unwrap();
    // /proc refuses new files even to root.
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--bundle",
        "/proc",
        "--output",
        output.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .contains("failed to use the bundle directory /proc"),
        "{}",
        ran.dump()
    );
    assert!(!ran.stdout.contains("PASS"), "checks ran: {}", ran.dump());
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "the old report\n"
    );
}

#[test]
fn a_bundle_path_that_is_a_file_is_refused_naming_the_rule() {
    let dir = scratch();
    let file = dir.path().join("bundles");
    std::fs::write(&file, "a file\n").unwrap();
    for (bundle, what) in [
        (file.clone(), "it is a file".to_owned()),
        (file.join("sub"), format!("{} is a file", file.display())),
    ] {
        let ran = run(&[
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--bundle",
            bundle.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: failed to use the bundle directory {}: {what}; --bundle names a \
                 directory, which gets one bundle file per failing check\n",
                bundle.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "a file\n");
    }
}

#[test]
fn a_missing_bundle_directory_is_made_when_the_run_ends() {
    let dir = scratch();
    let bundles = dir.path().join("a/b");
    let ran = run(&[
        "run",
        "--driver",
        "mutant:limit-plus-one",
        "--no-corpus",
        "--check",
        "recall.limit",
        "--bundle",
        bundles.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let names: Vec<String> = std::fs::read_dir(&bundles)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["mutant_limit-plus-one--recall.limit.json"]);
}

#[test]
fn the_report_is_written_whole_and_duration_covers_the_corpus_load() {
    let dir = scratch();
    let corpus = tiny_corpus(dir.path());
    let output = dir.path().join("report.json");
    std::fs::write(&output, "the old report\n").unwrap();
    let ran = run(&[
        "run",
        "--driver",
        "sqlite::memory:",
        "--corpus",
        corpus.to_str().unwrap(),
        // One check at a time: at more jobs the checks' times overlap
        // and add up to more than the run's wall time.
        "--jobs",
        "1",
        "--cases",
        "1",
        "--quiet",
        "--format",
        "json",
        "--output",
        output.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    let total = report["run"]["duration_ms"].as_f64().unwrap();
    let load = report["run"]["load_ms"].as_f64().expect("load_ms");
    let checks: f64 = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["duration_ms"].as_f64().unwrap())
        .sum();
    assert!(load > 0.0, "{load}");
    assert!(
        total >= load + checks,
        "total {total} < load {load} + checks {checks}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn an_existing_sqlite_store_with_entries_is_not_overwritten_without_overwrite() {
    use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};
    let dir = scratch();
    let path = dir.path().join("mine.db");
    let store = tinymemory_sqlite::SqliteDriver::open(&path).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(store.store(
        "document:english-greetings",
        "0001",
        "my own note",
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    ))
    .unwrap();
    drop(store);
    let corpus = tiny_corpus(dir.path());
    let spec = format!("sqlite:{}", path.display());
    let ran = run(&[
        "run",
        "--driver",
        &spec,
        "--corpus",
        corpus.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .contains("already holds 1 entries in 1 namespaces"),
        "{}",
        ran.dump()
    );
    assert!(ran.stderr.contains("--overwrite"), "{}", ran.dump());
    let store = tinymemory_sqlite::SqliteDriver::open(&path).unwrap();
    let kept = rt
        .block_on(store.get("document:english-greetings", "0001"))
        .unwrap()
        .unwrap();
    assert_eq!(kept.content, "my own note");
}

#[test]
fn sigterm_and_sigint_remove_the_temporary_directories() {
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let tmp = scratch();
        let child = crate::support::bin::command()
            .args([
                "run",
                "--driver",
                "sqlite",
                "--corpus",
                repo("fixtures/corpora").to_str().unwrap(),
                "--cases",
                "100000",
                "--quiet",
            ])
            .env("TMPDIR", tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let scratch_dirs = || -> Vec<PathBuf> {
            std::fs::read_dir(tmp.path())
                .unwrap()
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .unwrap()
                        .to_string_lossy()
                        .starts_with("tinymemory-conformance-")
                })
                .collect()
        };
        let t0 = Instant::now();
        // The work has started once the corpus store (the one file in the
        // scratch directory: the check stores are in memory) exists.
        let checking = |d: &PathBuf| d.join("corpus.db").exists();
        while !scratch_dirs().iter().any(checking) {
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "the run never started"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(&format!("interrupted by SIG{signal}")),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(scratch_dirs(), Vec::<PathBuf>::new());
    }
}

#[test]
fn replay_never_runs_an_exec_command_read_from_a_bundle() {
    let dir = scratch();
    let touched = dir.path().join("ran");
    let fixture = std::fs::read_to_string(repo(
        "fixtures/regressions/mutant_limit-plus-one--recall.limit.json",
    ))
    .unwrap();
    let mut bundle: serde_json::Value = serde_json::from_str(&fixture).unwrap();
    let command = format!("exec:touch {}", touched.display());
    bundle["driver_spec"] = serde_json::Value::String(command);
    let path = dir.path().join("bundle.json");
    std::fs::write(&path, bundle.to_string()).unwrap();
    let ran = run(&["replay", path.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.contains(&format!("touch {}", touched.display())),
        "{}",
        ran.dump()
    );
    assert!(ran.stderr.contains("--driver"), "{}", ran.dump());
    assert!(!touched.exists(), "replay ran the bundle's command");
}

#[test]
fn mutants_treats_a_closed_stdout_as_fine() {
    let mut child = crate::support::bin::command()
        .arg("mutants")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    // The exit code still tells the self-test's outcome: the same as with
    // stdout open.
    let open = crate::support::bin::command()
        .arg("mutants")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(matches!(open.code(), Some(0 | 1)), "{open:?}");
    assert_eq!(out.status.code(), open.code(), "{stderr}");
}

fn report_with_ids(ids: &[&str]) -> String {
    let checks: Vec<_> = ids
        .iter()
        .map(|id| {
            serde_json::json!({
                "id": id, "family": "contract", "description": "d", "outcome": "fail",
                "message": "m", "reason": null, "duration_ms": 1.0, "counterexample": null
            })
        })
        .collect();
    let mut report: serde_json::Value = serde_json::from_str(
        &run(&[
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--cases",
            "1",
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    report["checks"] = serde_json::Value::Array(checks);
    report.to_string()
}

#[test]
fn diff_refuses_a_report_listing_a_check_twice() {
    let dir = scratch();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    std::fs::write(&a, report_with_ids(&["recall.limit", "recall.limit"])).unwrap();
    std::fs::write(&b, report_with_ids(&["recall.limit"])).unwrap();
    let ran = run(&["diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.contains("lists check \"recall.limit\" twice"),
        "{}",
        ran.dump()
    );
}

#[test]
fn control_characters_in_a_report_are_escaped_when_printed() {
    let dir = scratch();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    std::fs::write(&a, report_with_ids(&[])).unwrap();
    std::fs::write(&b, report_with_ids(&["evil\u{1b}]0;pwned\u{7}"])).unwrap();
    let ran = run(&["diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert!(!ran.stdout.contains('\u{1b}'), "{}", ran.dump());
    assert!(
        ran.stdout.contains("evil\\u{1b}]0;pwned\\u{7}"),
        "{}",
        ran.dump()
    );
}

/// A driver's error holding a lone carriage return cannot print `PASS`
/// over the start of its own `FAIL` line, nor a line feed start a line of
/// its own.
#[test]
fn a_drivers_carriage_return_cannot_turn_a_fail_line_into_a_pass() {
    let dir = scratch();
    let script = dir.path().join("cr.py");
    std::fs::write(
        &script,
        format!(
            "import sys\nsys.path.insert(0, {examples:?})\n\
             import memory_driver as m\n\
             class Cr(m.MemoryStore):\n\
             \x20   def recall(self, *a, **k):\n\
             \x20       raise m.tp.DriverError('backend', '\\rPASS  recall.limit\\nPASS  x')\n\
             m.tp.serve(Cr(), 'python-cr')\n",
            examples = repo("examples/python").display().to_string()
        ),
    )
    .unwrap();
    let driver = format!("exec:python3 {}", script.display());
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "recall.limit",
        "--quiet",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let fail = ran
        .stdout
        .lines()
        .find(|l| l.starts_with("FAIL  recall.limit"))
        .unwrap();
    assert!(
        fail.ends_with(": unexpected driver error: backend failure: \\u{d}PASS  recall.limit"),
        "{}",
        ran.dump()
    );
    assert!(!ran.stdout.contains('\r'), "{}", ran.dump());
    assert!(
        ran.stdout.lines().any(|l| l == "      PASS  x"),
        "{}",
        ran.dump()
    );
}

#[test]
fn driver_arguments_name_what_is_wrong() {
    let ran = run(&["run", "--driver", "postgres://ann@127.0.0.1/db"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr
            .contains("--driver postgres:postgres://ann@127.0.0.1/db"),
        "{}",
        ran.dump()
    );
    #[cfg(unix)]
    {
        use std::ffi::OsString;
        use std::os::unix::ffi::OsStringExt;
        let raw = OsString::from_vec(b"mongo:\xff".to_vec());
        let ran = run(&[OsString::from("run"), OsString::from("--driver"), raw]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert!(ran.stderr.contains("--driver"), "{}", ran.dump());
        assert!(ran.stderr.contains("is not UTF-8"), "{}", ran.dump());
    }
}

#[test]
fn control_characters_in_an_exec_drivers_hello_id_are_escaped() {
    let hello = r#"{"protocol": 1, "driver": "evil\u001b]0;pwned\u0007"}"#;
    let driver = format!("exec:python3 {} hello '{hello}'", misbehave().display());
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--cases",
        "1",
        "--quiet",
    ]);
    assert!(!ran.stdout.contains('\u{1b}'), "{}", ran.dump());
    assert!(
        ran.stdout.contains("driver evil\\u{1b}]0;pwned\\u{7}"),
        "{}",
        ran.dump()
    );
}

#[test]
fn a_huge_driver_id_is_cut_where_it_is_shown() {
    // 60,000 bytes of id: each check's line, the header and the report
    // once printed it whole (52 MB of stdout for a 50 MB id). The id is
    // made inside the process, so the command line stays short.
    let dir = tempfile::tempdir().unwrap();
    let wrapper = dir.path().join("huge_id.py");
    std::fs::write(
        &wrapper,
        format!(
            "import json, runpy, sys\n\
             path = {path:?}\n\
             sys.argv = [path, 'hello', json.dumps({{'protocol': 1, 'driver': 'd' * 60000}})]\n\
             runpy.run_path(path, run_name='__main__')\n",
            path = misbehave().display().to_string()
        ),
    )
    .unwrap();
    let driver = format!("exec:python3 {}", wrapper.display());
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--check",
        "store.upsert",
        "--format",
        "json",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let shown = format!("{}… (59000 bytes cut)", "d".repeat(1_000));
    assert!(ran.stdout.contains(&shown), "{}", ran.dump());
    assert!(ran.stderr.contains(&shown), "{}", ran.dump());
    assert!(
        !ran.stdout.contains(&"d".repeat(1_001)),
        "{} bytes",
        ran.stdout.len()
    );
    assert!(
        ran.stdout.len() + ran.stderr.len() < 30_000,
        "{} bytes",
        ran.stdout.len()
    );
}

/// A driver that keeps a temporary directory and, like an engine with a
/// slow shutdown, does not exit when its stdin ends; on `SIGTERM` it
/// removes the directory. Logs `PID dir PATH`, `PID eof` and `PID sigterm`
/// to ARGV[1].
const KEEPS_FILES: &str = r#"
import os, runpy, shutil, signal, sys, tempfile, time
log, driver = sys.argv[1], sys.argv[2]
kept = tempfile.mkdtemp(prefix="tinymemory-kept-")
def note(word):
    with open(log, "a") as f:
        f.write("%d %s\n" % (os.getpid(), word))
note("dir " + kept)
def on_term(*_):
    shutil.rmtree(kept)
    note("sigterm")
    os._exit(0)
signal.signal(signal.SIGTERM, on_term)
sys.argv = [driver]
sys.path.insert(0, os.path.dirname(driver))
runpy.run_path(driver, run_name="__main__")
note("eof")
time.sleep(3600)
"#;

#[test]
fn a_driver_is_ended_by_stdin_then_sigterm_so_it_can_remove_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("keeps_files.py");
    std::fs::write(&script, KEEPS_FILES).unwrap();
    let log = dir.path().join("log");
    let driver = format!(
        "exec:python3 {} {} {}",
        script.display(),
        log.display(),
        repo("examples/python/memory_driver.py").display()
    );
    let ran = run(&[
        "run",
        "--driver",
        &driver,
        "--check",
        "store.upsert",
        "--quiet",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let text = std::fs::read_to_string(&log).unwrap();
    // One process per store, the probe's and the check's, each ended the
    // same way: stdin's end first, then SIGTERM, never SIGKILL first.
    let mut by_pid: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for line in text.lines() {
        let (pid, word) = line.split_once(' ').unwrap();
        by_pid.entry(pid).or_default().push(word);
    }
    assert!(!by_pid.is_empty(), "{text}");
    for words in by_pid.values() {
        let kept = words[0].strip_prefix("dir ").unwrap();
        assert_eq!(&words[1..], ["eof", "sigterm"], "{text}");
        assert!(!std::path::Path::new(kept).exists(), "{kept} left behind");
    }
}

#[test]
fn a_driver_that_fails_to_start_has_its_stderr_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("dies.py");
    std::fs::write(
        &script,
        "import sys\nsys.stderr.write('boom \\x1b[31mred\\x07\\n')\nsys.exit(3)\n",
    )
    .unwrap();
    let driver = format!("exec:python3 {}", script.display());
    let ran = run(&["run", "--driver", &driver, "--no-corpus"]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert!(
        !ran.stderr.contains('\u{1b}') && !ran.stderr.contains('\u{7}'),
        "{}",
        ran.dump()
    );
    assert!(
        ran.stderr.contains("| boom \\u{1b}[31mred\\u{7}"),
        "{}",
        ran.dump()
    );
}

/// An interrupted run stops its driver processes itself: the checks those
/// processes were answering must not then be printed as failures blaming
/// the driver (`the process exited (exit status: 143)`).
#[test]
fn an_interrupted_run_prints_no_failure_of_the_processes_it_stopped() {
    use std::io::BufRead;
    let driver = format!(
        "exec:python3 {}/../../examples/python/memory_driver.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = crate::support::bin::command()
        .args(["run", "--driver", &driver, "--no-corpus", "--jobs", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line.clone());
        }
    });
    let mut before = Vec::new();
    let t0 = Instant::now();
    while !before.iter().any(|l: &String| l.starts_with("PASS")) {
        assert!(t0.elapsed() < Duration::from_secs(60), "{before:?}");
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(50)) {
            before.push(line);
        }
    }
    let killed = Command::new("kill")
        .args(["-INT".to_owned(), child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    reader.join().unwrap();
    let after: Vec<String> = rx.try_iter().collect();
    assert_eq!(out.status.code(), Some(130));
    let blamed: Vec<&String> = after
        .iter()
        .filter(|l| {
            l.starts_with("FAIL") || l.contains("exit status: 143") || l.contains("SIGTERM")
        })
        .collect();
    assert!(
        blamed.is_empty(),
        "after the interrupt:\n{}\nstderr:\n{}",
        after.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// SIGINT during a run's last check: the handler stops the driver process,
/// the check then fails, and the run must not go on to write that failure
/// as the report or exit 1 with it (the driver is correct, only slow): it
/// exits 130 and leaves no report.
#[test]
fn an_interrupted_last_check_writes_no_report_and_exits_130() {
    let tmp = scratch();
    let report = tmp.path().join("report.json");
    let driver = format!(
        "exec:python3 {dir}/tests/drivers/slow_driver.py 0.1 python3 \
         {dir}/../../examples/python/memory_driver.py",
        dir = env!("CARGO_MANIFEST_DIR")
    );
    let child = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            &driver,
            "--no-corpus",
            "--check",
            "recall.limit",
        ])
        .args(["--format", "json", "--output"])
        .arg(&report)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // hello, then the check's first calls: well inside its dozens of
    // requests at 0.1 s each.
    std::thread::sleep(Duration::from_millis(2500));
    let killed = Command::new("kill")
        .args(["-INT".to_owned(), child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        !report.exists(),
        "an interrupted run wrote {}:\n{}",
        report.display(),
        std::fs::read_to_string(&report).unwrap_or_default()
    );
}

/// A driver over the example store that appends each `reset` it gets to
/// `log`, declaring `independent`.
fn resets_logged(dir: &Path, log: &Path, independent: bool) -> String {
    let script = dir.join("logged.py");
    std::fs::write(
        &script,
        format!(
            "import sys\nsys.path.insert(0, {examples:?})\n\
             import memory_driver as m\n\
             class Logged(m.MemoryStore):\n    independent_stores = {independent}\n\
             \x20   def reset(self):\n        open({log:?}, 'a').write('reset\\n')\n\
             \x20       super().reset()\n\
             m.tp.serve(Logged(), 'python-logged')\n",
            examples = repo("examples/python").display().to_string(),
            independent = if independent { "True" } else { "False" },
            log = log.display().to_string(),
        ),
    )
    .unwrap();
    format!("exec:python3 {}", script.display())
}

/// Every refusal comes before the driver's first store: a refused run
/// sends no `reset` (which empties a store backed by the user's file),
/// and leaves an old trace of the same name as it was.
#[test]
fn a_refused_run_resets_no_store_and_keeps_an_old_trace() {
    let dir = scratch();
    let log = dir.path().join("resets.log");
    let trace = dir.path().join("trace.jsonl");
    std::fs::write(&trace, "the old trace\n").unwrap();
    let shared = resets_logged(dir.path(), &log, false);
    let trace_arg = trace.to_str().unwrap();
    for (args, error) in [
        (
            vec!["--check", "recall.limt", "--trace", trace_arg],
            "error: --check recall.limt matches no check id or family; \
             `tinymemory-conformance list` lists them\n"
                .to_owned(),
        ),
        (
            vec!["--jobs", "2"],
            format!(
                "error: --jobs 2: the driver {shared} does not declare that two of its stores \
                 are independent, so checks run at once could share one store (a driver backed \
                 by one database); run it with --jobs 1, or have its hello declare \
                 \"independent_stores\": true (docs/protocol.md, \"Lifecycle\"; a Python store: `independent_stores = True` on its class)\n"
            ),
        ),
        (
            vec!["--shard", "99/99", "--trace", trace_arg],
            format!(
                "error: --shard 99/99: 99 shards for a selection of {} checks would leave shards \
                 with nothing to run; use at most {0} shards\n",
                crate::cli::check_count("lexical")
            ),
        ),
    ] {
        let ran = run(&[&["run", "--driver", &shared, "--no-corpus"][..], &args[..]].concat());
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.dump());
        assert_eq!(ran.stderr, error, "{args:?}");
        assert!(!log.exists(), "{args:?} reset a store");
        assert_eq!(std::fs::read_to_string(&trace).unwrap(), "the old trace\n");
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");
    // A run that goes ahead resets a store to see that the driver opens
    // (the probe), then the store of its one check, and writes the trace.
    let ran = run(&[
        "run",
        "--driver",
        &shared,
        "--no-corpus",
        "--check",
        "store.upsert",
        "--trace",
        trace_arg,
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "reset\nreset\n");
    assert!(std::fs::read_to_string(&trace)
        .unwrap()
        .contains("\"op\":\"reset\""));
}

/// `sqlite:PATH` is the corpus store: a run that loads no corpus never
/// opens it, so PATH is neither created nor written.
#[test]
fn a_run_without_the_corpus_never_opens_the_sqlite_store() {
    let dir = scratch();
    let store = dir.path().join("new.db");
    let spec = format!("sqlite:{}", store.display());
    for args in [&["--no-corpus"][..], &["--check", "store.upsert"][..]] {
        let ran = run(&[&["run", "--driver", &spec, "--quiet"][..], args].concat());
        assert_eq!(ran.code, 0, "{args:?}: {}", ran.dump());
        assert!(!store.exists(), "{args:?} created {}", store.display());
    }
}

/// An output that is a symlink is written to the file it leads to (the
/// link stays a link); a FIFO, as a device such as `/dev/stdout` would
/// be, is written through, never replaced with a regular file.
#[cfg(unix)]
#[test]
fn outputs_through_symlinks_and_fifos_keep_what_they_are() {
    let dir = scratch();
    let target = dir.path().join("target.json");
    std::fs::write(&target, "old\n").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    for (output, trace) in [(&link, dir.path().join("t.jsonl")), (&fifo, link.clone())] {
        let ran = run(&[
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--check",
            "store.upsert",
            "--format",
            "json",
            "--quiet",
            "--output",
            output.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 0, "{}", ran.dump());
    }
    let through_fifo = reader.join().unwrap();
    assert!(
        through_fifo.starts_with("{\n  \"schema_version\": 1,"),
        "{through_fifo}"
    );
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    // The second run traced into the link: its target holds the trace.
    // The check's calls, and no call of the run's own before them
    // (docs/cli.md, "A broken environment").
    let traced = std::fs::read_to_string(&target).unwrap();
    assert!(
        traced.contains("{\"check\":\"store.upsert\"")
            && !traced.contains("tinymemory-environment-probe"),
        "{traced}"
    );
}

/// An output FIFO nobody reads blocks the run where it is opened: the
/// run says so on stderr rather than hang without a word (`--events
/// fifo` with no reader ended only at a timeout, exit 124, no message).
#[cfg(unix)]
#[test]
fn an_output_fifo_without_a_reader_is_named_while_the_run_waits() {
    use std::io::BufRead as _;
    let dir = scratch();
    let fifo = dir.path().join("events");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut child = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--check",
            "store.upsert",
            "--quiet",
            "--events",
        ])
        .arg(&fifo)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (said, heard) = std::sync::mpsc::channel();
    let lines = std::thread::spawn(move || {
        let mut all = Vec::new();
        for line in stderr.lines() {
            let line = line.unwrap();
            if line.starts_with("waiting for a reader") {
                let _ = said.send(());
            }
            all.push(line);
        }
        all
    });
    // The reader opens when the run says it waits, or after a minute
    // without a word (then the test fails, and nothing hangs).
    let told = heard.recv_timeout(Duration::from_secs(60)).is_ok();
    let events = std::fs::read_to_string(&fifo).unwrap();
    let status = child.wait().unwrap();
    let lines = lines.join().unwrap();
    assert!(told, "no waiting line: {lines:?}");
    assert_eq!(
        lines,
        vec![format!(
            "waiting for a reader of the FIFO {}: the command goes on once one opens it",
            fifo.display()
        )]
    );
    assert_eq!(status.code(), Some(0));
    assert!(events.starts_with("{\"event\":\"run-started\""), "{events}");
}

/// `--bundle DIR` is refused before any check where the directory could
/// not be made, or would be another file of the run: the store, its
/// companions, an output, a place inside the corpus, a dangling symlink.
#[cfg(unix)]
#[test]
fn a_bundle_directory_clashing_with_a_file_of_the_run_is_refused_first() {
    let dir = scratch();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    std::os::unix::fs::symlink(p("missing-target"), p("dangling")).unwrap();
    let corpus = tiny_corpus(dir.path());
    let corpus_out = corpus.join("out").to_str().unwrap().to_owned();
    let long = "a".repeat(256);
    let store = format!("sqlite:{}", p("s.db"));
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["--bundle".into(), p("dangling")],
            format!(
                "failed to use the bundle directory {0}: {0} is a symlink that leads to no file \
                 (a missing target, or a loop); --bundle names a directory, which gets one \
                 bundle file per failing check",
                p("dangling")
            ),
        ),
        (
            vec!["--bundle".into(), p("rep"), "--output".into(), p("rep")],
            format!("--bundle {0} names the same file as --output {0}", p("rep")),
        ),
        (
            vec!["--bundle".into(), p("oz/sub"), "--output".into(), p("oz")],
            format!(
                "--bundle {} names the same file as --output {}",
                p("oz/sub"),
                p("oz")
            ),
        ),
        (
            vec![
                "--driver".into(),
                store.clone(),
                "--bundle".into(),
                p("s.db-wal"),
            ],
            format!(
                "--bundle {} names the same file as the -wal companion ({}) of the store of \
                 --driver {store}",
                p("s.db-wal"),
                p("s.db-wal")
            ),
        ),
        (
            vec![
                "--corpus".into(),
                corpus.to_str().unwrap().into(),
                "--bundle".into(),
                corpus_out.clone(),
            ],
            format!(
                "--bundle {corpus_out} names the same file as the corpus {}",
                corpus.display()
            ),
        ),
        (
            vec!["--bundle".into(), p(&long)],
            format!(
                "failed to use the bundle directory {}: its name {long} is 256 bytes long, and a \
                 file system takes at most 255; --bundle names a directory, which gets one \
                 bundle file per failing check",
                p(&long)
            ),
        ),
    ];
    for (args, error) in cases {
        let mut all: Vec<String> = ["run", "--quiet", "--check", "recall.limit"]
            .map(String::from)
            .to_vec();
        if !args.contains(&"--driver".to_owned()) {
            all.extend(["--driver".into(), "mutant:limit-plus-one".into()]);
        }
        if !args.contains(&"--corpus".to_owned()) {
            all.push("--no-corpus".into());
        }
        all.extend(args.iter().cloned());
        let ran = run(&all);
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.dump());
        assert!(
            ran.stderr.starts_with(&format!("error: {error}")),
            "{args:?}: {}",
            ran.dump()
        );
        assert!(
            !ran.stdout.contains("FAIL"),
            "{args:?} ran checks: {}",
            ran.dump()
        );
    }
    for made in ["rep", "oz", "s.db", "s.db-wal", "missing-target"] {
        assert!(!dir.path().join(made).exists(), "{made} was created");
    }
    assert!(!corpus.join("out").exists());
}
