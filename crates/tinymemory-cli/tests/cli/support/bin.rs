//! Running the binary as a user does.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What a run of the binary gave.
pub struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    /// The last line of stdout.
    #[allow(dead_code, reason = "not every test file uses it")]
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or_default()
    }

    /// Everything, for assertion messages.
    pub fn dump(&self) -> String {
        format!(
            "exit {}\nstdout:\n{}\nstderr:\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// The built binary, as a command to give arguments and streams.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tinymemory-conformance"))
}

/// Runs `tinymemory-conformance ARGS`.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Ran {
    ran(command().args(args))
}

/// What `command` gave once it ran, its output read whole.
pub fn ran(command: &mut Command) -> Ran {
    let Output {
        status,
        stdout,
        stderr,
    } = command
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs");
    Ran {
        code: status.code().expect("exited with a code"),
        stdout: String::from_utf8(stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(stderr).expect("utf-8 stderr"),
    }
}

/// [`run`] as `(exit code, stdout, stderr)`, for the tests written
/// against a tuple.
pub fn run_parts(args: &[&str]) -> (i32, String, String) {
    let Ran {
        code,
        stdout,
        stderr,
    } = run(args);
    (code, stdout, stderr)
}

/// The repository's corpus directory, `fixtures/corpora`.
pub fn corpus_dir() -> String {
    format!("{}/../../fixtures/corpora", env!("CARGO_MANIFEST_DIR"))
}

/// The ids of the checks a text run reported (`PASS  `, `FAIL  `, `SKIP  `
/// lines), in order.
pub fn ran_ids(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| {
            ["PASS  ", "FAIL  ", "SKIP  "]
                .iter()
                .find_map(|p| l.strip_prefix(p))
        })
        .filter_map(|rest| rest.split_once(' ').map(|(id, _)| id.to_owned()))
        .collect()
}

/// What a command gave whose stdout was read for 10 bytes, then closed
/// (`| head -c 10`).
pub struct Cut {
    /// The 10 bytes read.
    pub first: [u8; 10],
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// Its stderr, whole.
    pub stderr: String,
}

/// `tinymemory-conformance ARGS` with stdout read for 10 bytes, then
/// closed.
pub fn cut_after_ten_bytes(args: &[&str]) -> Cut {
    use std::io::Read;
    let mut child = command()
        .args(args)
        .env_remove("TINYMEMORY_TRACE")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = [0_u8; 10];
    child
        .stdout
        .take()
        .expect("its stdout")
        .read_exact(&mut first)
        .expect("ten bytes");
    let out = child.wait_with_output().expect("it ends");
    Cut {
        first,
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A path under the repository root.
// `allow`, not `expect`: the lint fires only in the test files that
// do not use it.
#[allow(dead_code, reason = "not every test file uses it")]
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// `exec:python3 SCRIPT`, the script a path under the repository root.
pub fn python_driver(script: &str) -> String {
    format!("exec:python3 {}", repo(script).display())
}

/// A fresh temporary directory, removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("tinymemory-cli-test-")
        .tempdir()
        .expect("a temporary directory")
}
