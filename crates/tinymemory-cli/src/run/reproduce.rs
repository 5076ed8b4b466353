//! The command a run prints to do again what it did: every option of the
//! plan that changes an outcome, from one place.
//!
//! A failure from a call slower than `--call-timeout 1` once printed a
//! command without `--call-timeout`, which passed as printed. The command
//! is now made from the whole plan: [`Reproduce::of`] names every field of
//! [`RunPlan`], so a field added to the plan does not compile until it
//! says whether a printed command carries it.

use std::time::Duration;

use tinymemory_api::RecallProfile;
use tinymemory_conformance::{RunConfig, DEFAULT_CALL_TIMEOUT, DEFAULT_CHECK_TIMEOUT};

use super::plan::RunPlan;

/// What a printed command carries of a run: the driver, and every option
/// that changes a check's outcome.
#[derive(Debug, Clone)]
pub(crate) struct Reproduce {
    /// `--driver`, as it parses back.
    driver: String,
    /// `--profile`, when the run was given one.
    profile: Option<RecallProfile>,
    /// `--seed` and `--cases`.
    config: RunConfig,
    /// `--timeout`.
    timeout: Duration,
    /// `--call-timeout`.
    call_timeout: Duration,
}

impl Reproduce {
    /// What a command reproducing `plan`'s run carries.
    pub(crate) fn of(plan: &RunPlan) -> Self {
        let RunPlan {
            driver,
            requested,
            config,
            timeout,
            call_timeout,
            // The profile the run held the driver to is `requested` or
            // what the driver declares again.
            declared: _,
            profile: _,
            // The command names its own checks, one job and no corpus: the
            // reruns run no corpus check, and an output is not an outcome.
            registry: _,
            filter: _,
            shard: _,
            corpus: _,
            jobs: _,
            // What the run prints and writes, and how it exits, not what
            // a check finds.
            description: _,
            quiet: _,
            all_skipped: _,
            outputs: _,
            baseline: _,
            // The exec limits are `call_timeout`'s; a reproducing command
            // loads no corpus store, reruns nothing and stops on nothing
            // but its checks.
            exec: _,
            overwrite: _,
            keep_going: _,
            reruns: _,
        } = plan;
        Self {
            driver: driver.to_string(),
            profile: *requested,
            config: *config,
            timeout: *timeout,
            call_timeout: *call_timeout,
        }
    }

    /// A `run` command line running `ids` in that (the registry's) order
    /// in one driver process, without a corpus, with the run's driver,
    /// profile, seed, cases and time limits (`--timeout` and
    /// `--call-timeout` when they are not the defaults).
    ///
    /// It runs as printed from any directory: it changes to this run's
    /// working directory (an exec command's relative paths are relative
    /// to it), sets this run's `PYTHONPATH` when it has one (the pytest
    /// plugin puts the test's `sys.path` there, so the driver's module
    /// imports), and names this binary by its path.
    pub(crate) fn run(&self, ids: &[&str]) -> String {
        let mut words = prefix();
        words.extend(["run".to_owned(), "--driver".to_owned(), quote(&self.driver)]);
        if let Some(p) = self.profile {
            words.extend(["--profile".to_owned(), p.to_string()]);
        }
        words.extend([
            "--no-corpus".to_owned(),
            "--jobs".to_owned(),
            "1".to_owned(),
            "--seed".to_owned(),
            self.config.seed.to_string(),
            "--cases".to_owned(),
            self.config.cases.to_string(),
        ]);
        for (option, limit, default) in [
            ("--timeout", self.timeout, DEFAULT_CHECK_TIMEOUT),
            ("--call-timeout", self.call_timeout, DEFAULT_CALL_TIMEOUT),
        ] {
            if limit != default {
                words.extend([option.to_owned(), limit.as_secs().to_string()]);
            }
        }
        for id in ids {
            words.extend(["--check".to_owned(), (*id).to_owned()]);
        }
        words.join(" ")
    }
}

/// A word as a shell reads it back: as `shlex` quotes it, or, when it
/// holds a character a terminal would act on or hide (controls, bidi and
/// other format characters, the line separators; `shown::visible`'s
/// set), in ANSI-C quotes (`$'..'`, which bash, zsh, ksh and POSIX.1-2024
/// `sh` read) with each such character escaped, so a directory named
/// `a\x1b[31m` prints as `$'a\x1b[31m'`, not as red.
fn quote(s: &str) -> String {
    if tinymemory_api::shown::visible(s) != s {
        return ansi_c(s.as_bytes());
    }
    shlex::try_quote(s).map_or_else(|_| ansi_c(s.as_bytes()), std::borrow::Cow::into_owned)
}

/// A path as a shell reads it back: [`quote`] of its text, or for a name
/// that is not UTF-8, ANSI-C quotes with the bytes that are not text as
/// `\xHH`.
fn quote_path(path: &std::path::Path) -> String {
    match path.to_str() {
        Some(text) => quote(text),
        None => ansi_c(path.as_os_str().as_encoded_bytes()),
    }
}

/// `bytes` in ANSI-C quotes: C0 controls and DEL as `\xHH`, other hidden
/// characters as `\uHHHH` (`\UHHHHHHHH` above U+FFFF), bytes that are not
/// UTF-8 as `\xHH`, `\` and `'` escaped, everything else as it is.
fn ansi_c(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("$'");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let mut buf = [0; 4];
            let one: &str = c.encode_utf8(&mut buf);
            let hidden = c.is_control() || tinymemory_api::shown::visible(one) != one;
            // Writing to a String cannot fail.
            let _ = match c {
                '\\' => write!(out, "\\\\"),
                '\'' => write!(out, "\\'"),
                c if c.is_ascii() && hidden => write!(out, "\\x{:02x}", u32::from(c)),
                c if hidden && u32::from(c) > 0xFFFF => write!(out, "\\U{:08x}", u32::from(c)),
                c if hidden => write!(out, "\\u{:04x}", u32::from(c)),
                c => write!(out, "{c}"),
            };
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out.push('\'');
    out
}

/// `cd DIR && [PYTHONPATH=..] BINARY`: the run's directory, its
/// `PYTHONPATH` and this binary.
fn prefix() -> Vec<String> {
    prefix_of(
        std::env::current_dir().ok().as_deref(),
        std::env::var_os("PYTHONPATH").as_deref(),
        std::env::current_exe().ok().as_deref(),
    )
}

/// [`prefix`] of a directory, a `PYTHONPATH` and a binary, each quoted
/// ([`quote_path`]): the directory and the binary are left out when
/// unknown, the `PYTHONPATH` when unset or empty.
fn prefix_of(
    dir: Option<&std::path::Path>,
    python_path: Option<&std::ffi::OsStr>,
    exe: Option<&std::path::Path>,
) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(dir) = dir {
        words.push(format!("cd {} &&", quote_path(dir)));
    }
    if let Some(path) = python_path.filter(|p| !p.is_empty()) {
        words.push(format!(
            "PYTHONPATH={}",
            quote_path(std::path::Path::new(path))
        ));
    }
    words.push(exe.map_or_else(
        || "tinymemory-conformance".to_owned(),
        |exe| quote_path(&unreplaced(exe)),
    ));
    words
}

/// `exe` without the ` (deleted)` Linux's `/proc/self/exe` appends when
/// the running binary was replaced on disk (a rebuild relinks it): the
/// path then holds the new binary, which is what a person rerunning wants.
fn unreplaced(exe: &std::path::Path) -> std::borrow::Cow<'_, std::path::Path> {
    exe.to_str()
        .and_then(|s| s.strip_suffix(" (deleted)"))
        .map_or(std::borrow::Cow::Borrowed(exe), |s| {
            std::borrow::Cow::Owned(std::path::PathBuf::from(s))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A directory name with an escape sequence, a bidi override and a C1
    /// control is printed in ANSI-C quotes with each escaped, and a
    /// shell reads it back as the same name.
    #[test]
    fn an_odd_directory_is_quoted_with_its_controls_escaped() {
        let dir = "/tmp/we ird\u{1b}[31m\u{202e}end\u{85}it's\\";
        let words = prefix_of(Some(Path::new(dir)), None, Some(Path::new("/b/tm c")));
        assert_eq!(
            words,
            [
                "cd $'/tmp/we ird\\x1b[31m\\u202eend\\u0085it\\'s\\\\' &&".to_owned(),
                "'/b/tm c'".to_owned()
            ]
        );
        assert_eq!(quote("plain"), "plain");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("\u{e0001}"), "$'\\U000e0001'");
        if let Ok(out) = std::process::Command::new("bash")
            .args(["-c", &format!("printf %s {}", quote(dir))])
            .output()
        {
            assert_eq!(String::from_utf8(out.stdout).unwrap(), dir);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_whose_name_is_not_utf8_keeps_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let dir = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/a\xff b"));
        assert_eq!(
            prefix_of(Some(dir), Some(std::ffi::OsStr::new("")), None),
            ["cd $'/tmp/a\\xff b' &&", "tinymemory-conformance"]
        );
    }

    /// Linux names a running binary that was replaced on disk (a rebuild
    /// relinked it) `PATH (deleted)`: the command names the path, where
    /// the rebuilt binary now is, not a file that does not exist.
    #[test]
    fn a_binary_replaced_while_running_is_named_by_its_path() {
        let words = prefix_of(
            None,
            None,
            Some(Path::new(
                "/w/target/debug/tinymemory-conformance (deleted)",
            )),
        );
        assert_eq!(words, ["/w/target/debug/tinymemory-conformance"]);
        let kept = prefix_of(None, None, Some(Path::new("/w/odd (deleted) name")));
        assert_eq!(kept, ["'/w/odd (deleted) name'"]);
    }
}
