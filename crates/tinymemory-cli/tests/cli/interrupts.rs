//! A stopped run leaves no process behind (docs/cli.md, "Signals"): not
//! when the signal lands while the driver processes are being started,
//! and not when the host holding `--stop-on-stdin-eof`'s pipe is killed.
//! Each driver here starts a helper in its process group
//! (`tests/drivers/helper_child.py`) and writes the helper's pid to a
//! file, which is how the helpers are counted afterwards.

use std::io::Write as _;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::bin::{repo, scratch};

/// How long a test waits for processes to end before it fails: a bound on
/// a hang, far above what any of these takes.
const LIMIT: Duration = Duration::from_secs(60);

/// An exec driver over the in-memory Python example that first starts a
/// `sleep 600` helper in its group, appends its pid to `pids`, and waits
/// `seconds` before it answers `hello`.
fn driver_with_helper(pids: &Path, seconds: f64) -> String {
    format!(
        "exec:python3 {} {} {seconds} python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/helper_child.py").display(),
        pids.display(),
        repo("examples/python/memory_driver.py").display()
    )
}

/// `true` while `pid` runs (a zombie has ended).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .next()?
                .to_owned();
            Some(state != "Z")
        })
        .unwrap_or(false)
}

/// The processes whose command line holds the word `word`.
fn processes_with(word: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|b| *b == 0).any(|w| w == word.as_bytes()))
        })
        .filter(|pid| alive(*pid))
        .collect()
}

/// The helper pids written to `pids` so far.
fn helpers(pids: &Path) -> Vec<u32> {
    std::fs::read_to_string(pids)
        .unwrap_or_default()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

/// Waits (up to [`LIMIT`]) until no process with `word` in its command
/// line runs, so every driver has written its helper's pid, then returns
/// the helpers of `pids` still running once they have had [`LIMIT`] to
/// end, each killed so that a failure leaves nothing behind.
fn helpers_left(word: &str, pids: &Path) -> Vec<u32> {
    let t0 = Instant::now();
    while !processes_with(word).is_empty() && t0.elapsed() < LIMIT {
        std::thread::sleep(Duration::from_millis(50));
    }
    let t0 = Instant::now();
    let mut left: Vec<u32> = helpers(pids);
    while !left.is_empty() && t0.elapsed() < LIMIT {
        std::thread::sleep(Duration::from_millis(50));
        left.retain(|pid| alive(*pid));
    }
    for pid in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    left
}

/// Whether `pid` has a handler for signal number `signal` in place (its
/// `SigCgt` mask in `/proc/PID/status`).
fn catches(pid: u32, signal: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            let mask = status.lines().find_map(|l| l.strip_prefix("SigCgt:"))?;
            let mask = u64::from_str_radix(mask.trim(), 16).ok()?;
            Some(mask >> (signal - 1) & 1 == 1)
        })
        .unwrap_or(false)
}

/// A pipe whose reader never reads and whose buffer a thread keeps full,
/// so every write to the returned end blocks: the signal path then waits
/// its whole half second for its message before it exits, while the run
/// goes on starting its driver processes. The reader is returned to be
/// dropped once the process writing to the pipe has exited, which ends
/// the thread.
fn full_pipe() -> (std::io::PipeReader, std::io::PipeWriter) {
    let (reader, writer) = std::io::pipe().unwrap();
    let mut filler = writer.try_clone().unwrap();
    std::thread::spawn(move || while filler.write_all(&[b'x'; 4096]).is_ok() {});
    (reader, writer)
}

/// `kill -SIG PID`.
fn signal(child: &Child, name: &str) {
    let killed = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
}

/// SIGINT or SIGTERM once the handler is in place and before the driver
/// processes have all started: a process the run started after the
/// signal path's last kill was never signalled, and its helper ran on
/// (8 of 8 in 4 of 6 rounds). The full stderr holds the signal path for
/// half a second, so the run's start goes on meanwhile in every round.
/// Each answer comes 0.05 s late (`slow_driver.py`), so a run outlasts any
/// pause of this test's thread: on a loaded machine (CI, tests beside it)
/// a whole run of the plain driver once ended before the signal was sent,
/// and the binary rightly exited 0.
#[test]
fn a_signal_while_the_driver_processes_start_leaves_none_of_them() {
    let dir = scratch();
    let pids = dir.path().join("helpers");
    let driver = format!(
        "exec:python3 {}/tests/drivers/slow_driver.py 0.05 {}",
        env!("CARGO_MANIFEST_DIR"),
        driver_with_helper(&pids, 0.3)
            .strip_prefix("exec:")
            .expect("an exec driver")
    );
    for round in 0..6 {
        let (name, number, code) = if round % 2 == 0 {
            ("INT", 2, 130)
        } else {
            ("TERM", 15, 143)
        };
        let (reader, writer) = full_pipe();
        let mut child = crate::support::bin::command()
            .args(["run", "--driver", &driver, "--no-corpus", "--jobs", "8"])
            .arg("--quiet")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(writer)
            .spawn()
            .unwrap();
        let t0 = Instant::now();
        while !catches(child.id(), number) {
            assert!(t0.elapsed() < LIMIT, "the binary never set its handler");
            std::thread::sleep(Duration::from_millis(1));
        }
        signal(&child, name);
        let status = child.wait().unwrap();
        drop(reader);
        assert_eq!(status.code(), Some(code), "round {round}");
    }
    let word = pids.to_str().unwrap();
    assert_eq!(helpers_left(word, &pids), Vec::<u32>::new());
}

/// The end of stdin stops a run given `--stop-on-stdin-eof` as SIGTERM
/// does: when the host holding the pipe is gone (killed with SIGKILL, the
/// kernel closes its end as this test does), neither the binary nor its
/// drivers and their helpers run on. Without the option, the run went on
/// to the end of its slow check.
#[test]
fn stop_on_stdin_eof_ends_the_run_and_its_drivers_when_the_pipe_closes() {
    let dir = scratch();
    let pids = dir.path().join("helpers");
    // 0.5 s a request: recall.limit's dozens of requests outlast the test.
    let slow = format!(
        "exec:python3 {}/tests/drivers/slow_driver.py 0.5 python3 {} {} 0 python3 {}",
        env!("CARGO_MANIFEST_DIR"),
        repo("crates/tinymemory-cli/tests/drivers/helper_child.py").display(),
        pids.display(),
        repo("examples/python/memory_driver.py").display()
    );
    let mut child = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            &slow,
            "--no-corpus",
            "--check",
            "recall.limit",
        ])
        .arg("--stop-on-stdin-eof")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    // The driver's process has started (the probe's, which the check
    // then resets and uses).
    while helpers(&pids).is_empty() {
        assert!(t0.elapsed() < LIMIT, "the driver never started");
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(child.stdin.take());
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() && t0.elapsed() < LIMIT {
        std::thread::sleep(Duration::from_millis(50));
    }
    let ended = child.try_wait().unwrap();
    if ended.is_none() {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let word = pids.to_str().unwrap();
    assert_eq!(helpers_left(word, &pids), Vec::<u32>::new(), "{stderr}");
    assert_eq!(ended.and_then(|s| s.code()), Some(143), "{stderr}");
    assert!(
        stderr.contains("error: stopped by the end of stdin (--stop-on-stdin-eof)"),
        "{stderr}"
    );
}
