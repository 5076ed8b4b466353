//! Progress where a person waits, on stderr only: bars on a terminal
//! (stderr a pseudo-terminal made by python3's `pty` module, stdout a
//! pipe), a line every few seconds in a log, nothing under `--quiet`.

use std::process::Command;

use crate::support::bin::repo;

/// Runs the binary with `args`, its stderr a 120-column pseudo-terminal
/// and its stdout a pipe: `(exit code, stdout, what the terminal got)`.
fn with_stderr_on_a_terminal(args: &[&str]) -> (i32, String, String) {
    const SCRIPT: &str = r#"
import fcntl, json, os, pty, struct, subprocess, sys, termios
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
env = dict(os.environ, TERM="xterm")
env.pop("NO_COLOR", None)
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=env)
os.close(slave)
seen = []
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    seen.append(chunk)
out = p.stdout.read()
p.wait()
json.dump({"code": p.returncode, "stdout": out.decode(), "tty": b"".join(seen).decode("utf-8", "replace")}, sys.stdout)
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(env!("CARGO_BIN_EXE_tinymemory-conformance"))
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("its JSON");
    (
        i32::try_from(v["code"].as_i64().unwrap()).unwrap(),
        v["stdout"].as_str().unwrap().to_owned(),
        v["tty"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn on_a_terminal_the_load_and_the_checks_are_bars_on_stderr() {
    let (code, stdout, tty) = with_stderr_on_a_terminal(&[
        "run",
        "--driver",
        "sqlite",
        "--check",
        "corpus.namespace_counts",
        "--check",
        "recall.limit",
    ]);
    assert_eq!(code, 0, "{stdout}\n{tty:?}");
    // The load's bar: entries of the total, the rate and the time left.
    assert!(
        tty.contains("loading the corpus [") && tty.contains("/22,688 entries, "),
        "{tty:?}"
    );
    assert!(tty.contains("/s, ") && tty.contains(" left"), "{tty:?}");
    // The rate in whole entries a second (`3200/s`), never with decimals.
    for (at, _) in tty.match_indices("/s, ") {
        let rate = tty[..at].rsplit(' ').next().unwrap_or("");
        assert!(!rate.contains('.'), "a rate shown as {rate:?}: {tty:?}");
    }
    // The checks' bar, of the two checks: which counts it draws depends
    // on the draw rate and the machine's speed, the total does not.
    assert!(tty.contains("checks ["), "{tty:?}");
    assert!(tty.contains("/2 "), "{tty:?}");
    // Nothing of it on stdout, where the report's lines are.
    assert!(!stdout.contains("loading the corpus"), "{stdout}");
    assert!(!stdout.contains("\x1b["), "{stdout:?}");
    assert!(stdout.contains("2 passed, 0 failed"), "{stdout}");
}

#[test]
fn quiet_draws_no_bar() {
    let (code, stdout, tty) = with_stderr_on_a_terminal(&[
        "run",
        "--driver",
        "sqlite",
        "--check",
        "corpus.namespace_counts",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stdout}\n{tty:?}");
    assert_eq!(tty, "", "{tty:?}");
    assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
}

/// In a log (stderr a pipe), a check that runs past the line's interval
/// is named by a line on stderr; stdout has none.
#[test]
fn in_a_log_a_long_check_is_named_every_few_seconds() {
    let driver = format!(
        "exec:python3 {} 1.0 python3 {}",
        repo("crates/tinymemory-cli/tests/drivers/slow_driver.py").display(),
        repo("examples/python/memory_driver.py").display()
    );
    let out = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            &driver,
            "--no-corpus",
            "--no-rerun",
            "--check",
            "store.upsert",
        ])
        .env_remove("TINYMEMORY_NO_RERUN")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("checks: 0 of 1 finished; running store.upsert (")),
        "{stderr}"
    );
    assert!(!stdout.contains("checks: "), "{stdout}");
    let quiet = crate::support::bin::command()
        .args([
            "run",
            "--driver",
            &driver,
            "--no-corpus",
            "--no-rerun",
            "--check",
            "store.upsert",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(quiet.stderr).unwrap(), "");
}
