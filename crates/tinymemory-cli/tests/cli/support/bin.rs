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

/// Runs `tinymemory-conformance ARGS`.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Ran {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(env!("CARGO_BIN_EXE_tinymemory-conformance"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs");
    Ran {
        code: status.code().expect("exited with a code"),
        stdout: String::from_utf8(stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(stderr).expect("utf-8 stderr"),
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

/// A fresh temporary directory, removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("tinymemory-cli-test-")
        .tempdir()
        .expect("a temporary directory")
}
