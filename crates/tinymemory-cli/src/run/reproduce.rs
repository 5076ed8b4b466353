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

/// A word as a POSIX shell reads it back.
fn quote(s: &str) -> String {
    shlex::try_quote(s).map_or_else(|_| format!("'{s}'"), std::borrow::Cow::into_owned)
}

/// `cd DIR && [PYTHONPATH=..] BINARY`: the run's directory, its
/// `PYTHONPATH` and this binary.
fn prefix() -> Vec<String> {
    let mut words = Vec::new();
    if let Some(dir) = std::env::current_dir()
        .ok()
        .and_then(|d| d.to_str().map(quote))
    {
        words.push(format!("cd {dir} &&"));
    }
    if let Some(path) = std::env::var("PYTHONPATH").ok().filter(|p| !p.is_empty()) {
        words.push(format!("PYTHONPATH={}", quote(&path)));
    }
    words.push(
        std::env::current_exe()
            .ok()
            .and_then(|p| p.to_str().map(quote))
            .unwrap_or_else(|| "tinymemory-conformance".to_owned()),
    );
    words
}
