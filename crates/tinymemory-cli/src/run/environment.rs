//! A broken environment is one message: when the run's first failing
//! checks all fail on the same driver error, and that error says the
//! driver's environment is missing something (a module it imports, a
//! server it connects to, a database extension), the run stops there,
//! as a signal stops it (the driver processes ended, the temporary files
//! removed), with that error, what to install or start and how many
//! checks it took, rather than failing every check one by one on the same
//! error (exit 5, `exit::BROKEN_ENVIRONMENT`). `run --keep-going` runs
//! every check anyway.
//!
//! The run makes no call of its own for this: it reads the checks'
//! outcomes as they finish ([`Watch`]). A call made before the checks
//! would be a process's first call, which a driver with a cold-start
//! fault fails where no check sees it, and a write a reset that empties a
//! shared store only after one would leave for the first check.
//!
//! Only errors recognised here stop a run ([`remedy`]), and only when
//! no failure of another cause came before them: a driver that fails a
//! rule, even with one of these errors now and then, is judged by every
//! check.

use tinymemory_conformance::{CheckReport, CheckStarted, Outcome, RunObserver};

use super::events::Events;
use crate::error::CliError;

/// The environment variable that does what `--keep-going` does, for a
/// pytest session or a node:test run, whose binary it reaches
/// (`TINYMEMORY_KEEP_GOING=1`).
const KEEP_GOING_ENV: &str = "TINYMEMORY_KEEP_GOING";

/// `true` with `--keep-going`, or with [`KEEP_GOING_ENV`] set to anything
/// but empty or `0`: the run's checks then run whatever they fail on.
pub(crate) fn keep_going(flag: bool) -> bool {
    flag || std::env::var(KEEP_GOING_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// How many failing checks, each on the same environment error and none
/// on another, stop a run of one store at a time: more than one, so that
/// a fault of one call (a cold start, a connection dropped once) is the
/// check's failure, not a stop; few, so that the stop comes in seconds.
pub(crate) const FAILURES_TO_STOP: usize = 3;

/// How many such failures stop a run that keeps `stores_at_once` stores
/// open at once, each in a process of its own: a fault of a process's
/// first call fails at most one check per process, so the stop needs one
/// failure more than there are processes (and at least
/// [`FAILURES_TO_STOP`]). With `--jobs 4` four processes each refused once
/// at their start are four failing checks, not a broken environment.
pub(crate) fn failures_to_stop(stores_at_once: usize) -> usize {
    FAILURES_TO_STOP.max(stores_at_once.saturating_add(1))
}

/// Watches the checks as they finish (in registry order, whatever the
/// jobs) and stops the run when its first [`failures_to_stop`] failures
/// share one driver error that [`remedy`] recognises. A pass does not
/// disarm it (a check that never makes the failing call passes in a
/// broken environment); a failure on any other error, or with none, does,
/// for the rest of the run.
#[derive(Debug)]
pub(crate) struct Watch<'e> {
    /// `false` once a failure had another cause, or under `--keep-going`.
    armed: bool,
    /// The event stream told of the stop (`run-stopped`) before the
    /// program ends.
    events: Option<&'e Events>,
    /// The failures that stop the run ([`failures_to_stop`]).
    to_stop: usize,
    /// Checks finished so far.
    finished: usize,
    /// Of them, passed.
    passed: usize,
    /// The first line of the error the failures so far share (the
    /// driver error's kind and message), and how many share it.
    shared: Option<(String, usize)>,
}

impl<'e> Watch<'e> {
    /// A watch that stops the run when `armed`; one that never does
    /// (`--keep-going`) otherwise. `stores_at_once` is how many stores
    /// the run keeps open at once ([`failures_to_stop`]).
    pub(crate) fn new(armed: bool, stores_at_once: usize) -> Self {
        Self {
            armed,
            events: None,
            to_stop: failures_to_stop(stores_at_once),
            finished: 0,
            passed: 0,
            shared: None,
        }
    }

    /// This watch, writing its stop to `events` (`run-stopped`) when
    /// there is a stream.
    pub(crate) fn reporting_to(mut self, events: Option<&'e Events>) -> Self {
        self.events = events;
        self
    }

    /// The stop's error when `report` makes the run's failures so far
    /// [`failures_to_stop`] on one environment error; `None` otherwise.
    fn judge(&mut self, report: &CheckReport) -> Option<CliError> {
        self.finished += 1;
        let failure = match &report.outcome {
            Outcome::Pass => {
                self.passed += 1;
                return None;
            }
            Outcome::Fail(f) => f,
            // A skip or a declared failure says nothing of the
            // environment; a timeout is a driver that answers.
            Outcome::Timeout(_) => {
                self.armed = false;
                return None;
            }
            _ => return None,
        };
        if !self.armed {
            return None;
        }
        let Some(error) = failure
            .driver_error
            .as_ref()
            .filter(|e| remedy(&e.to_string()).is_some())
        else {
            self.armed = false;
            return None;
        };
        let text = error.to_string();
        // The first line: the rest is the driver's stderr, a traceback
        // through whichever call raised the same error.
        let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let count = match &mut self.shared {
            Some((shared, count)) if shared == first => {
                *count += 1;
                *count
            }
            Some(_) => {
                self.armed = false;
                return None;
            }
            None => {
                self.shared = Some((first.to_owned(), 1));
                1
            }
        };
        (count == self.to_stop).then(|| {
            // The error's first line, then the stderr of the last failure.
            let detail = tinymemory_api::shown::visible(rest)
                .lines()
                .map(|l| format!("\n{l}"))
                .collect();
            CliError::BrokenEnvironment {
                failed: count,
                finished: self.finished,
                passed: self.passed,
                error: tinymemory_api::shown::visible(first).into_owned(),
                detail,
                remedy: remedy(&text).unwrap_or_default(),
            }
        })
    }
}

impl RunObserver for Watch<'_> {
    fn load_progress(&mut self, _done: usize, _total: usize) {}

    fn check_started(&mut self, _started: CheckStarted<'_>) {}

    /// Stops the program ([`crate::cleanup::stop_with`], exit 5) on a
    /// broken environment, before the observers after this one see the
    /// last failing check.
    fn check_finished(&mut self, report: &mut CheckReport) {
        if let Some(e) = self.judge(report) {
            if let Some(events) = self.events {
                events.run_stopped(&e);
            }
            crate::cleanup::stop_with(&format!("error: {e}"), e.exit_code().into());
        }
    }
}

/// The quoted name after `marker` in `text` (`No module named 'numpy'`
/// gives `numpy`): up to the closing quote of the same kind.
fn quoted_after<'t>(text: &'t str, marker: &str) -> Option<&'t str> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let rest = &rest[1..];
    Some(&rest[..rest.find(quote)?]).filter(|name| !name.is_empty())
}

/// What to install or start for an error whose text says the driver's
/// environment lacks it, or `None` for any other error:
///
/// - Python's `No module named 'X'` (`ImportError`,
///   `ModuleNotFoundError`): install the package providing `X`;
/// - Node's `Cannot find module 'X'` and `Cannot find package 'X'`
///   (`ERR_MODULE_NOT_FOUND`): `npm install X`;
/// - PostgreSQL's `extension "vector" is not available`: install
///   pgvector; another extension: install it;
/// - `connection refused` (`Connection refused`, `ECONNREFUSED`): start
///   the server at the address the error names.
#[must_use]
pub(crate) fn remedy(text: &str) -> Option<String> {
    if let Some(module) = quoted_after(text, "No module named ") {
        let top = module.split('.').next().unwrap_or(module);
        return Some(format!(
            "install the Python package that provides {top:?} in the driver's environment (`pip \
             install {top}`, when the package has the module's name), then run again"
        ));
    }
    for marker in ["Cannot find module ", "Cannot find package "] {
        if let Some(module) = quoted_after(text, marker) {
            if !module.starts_with('.') && !module.starts_with('/') {
                return Some(format!(
                    "install {module:?} where the driver runs (`npm install {module}`), then run \
                     again"
                ));
            }
            return Some(format!(
                "the driver imports {module:?}, which does not exist: build or fix the path, then \
                 run again"
            ));
        }
    }
    if let Some(extension) = quoted_after(text, "extension ") {
        if text.contains("is not available") {
            return Some(if extension == "vector" {
                "install pgvector on the PostgreSQL server (the package postgresql-NN-pgvector, \
                 or `pip install pgserver`, whose PostgreSQL ships it), then run again"
                    .to_owned()
            } else {
                format!(
                    "install the PostgreSQL extension {extension:?} on the server, then run again"
                )
            });
        }
    }
    let lower = text.to_lowercase();
    if lower.contains("connection refused") || text.contains("ECONNREFUSED") {
        return Some(match address(text) {
            Some(at) => format!(
                "start the server at {at} (or point the driver at one that is running), then run \
                 again"
            ),
            None => "start the server the driver connects to (or point the driver at one that \
                     is running), then run again"
                .to_owned(),
        });
    }
    None
}

/// The `HOST:PORT` an error about a refused connection names, if any:
/// the last word of the form `something:digits` (`127.0.0.1:5432`,
/// `localhost:6333`, `[::1]:5432`), or `port N` after a host.
fn address(text: &str) -> Option<String> {
    let words =
        text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '"' | '\''));
    words.rev().find_map(|w| {
        let w = w.trim_end_matches(['.', ';']);
        let (host, port) = w.rsplit_once(':')?;
        let host = host.rsplit("//").next().unwrap_or(host);
        (!host.is_empty() && !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()))
            .then(|| format!("{host}:{port}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tinymemory_api::MemoryError;
    use tinymemory_conformance::{Failure, Family};

    fn report(outcome: Outcome) -> CheckReport {
        CheckReport {
            id: "recall.limit",
            family: Family::Contract,
            description: "",
            outcome,
            duration: std::time::Duration::ZERO,
            score_noise: None,
        }
    }

    fn failed_on(message: &str) -> CheckReport {
        let e = MemoryError::fault(message);
        report(Outcome::Fail(Failure::new(format!("{e}")).caused_by(&e)))
    }

    const NUMPY: &str = "ImportError: No module named 'numpy'";

    #[test]
    fn the_third_failure_on_one_environment_error_stops_passes_between_or_not() {
        let mut watch = Watch::new(true, 1);
        assert!(watch.judge(&report(Outcome::Pass)).is_none());
        assert!(watch.judge(&failed_on(NUMPY)).is_none());
        assert!(watch.judge(&report(Outcome::Skip("no".into()))).is_none());
        assert!(watch.judge(&failed_on(NUMPY)).is_none());
        let stop = watch.judge(&failed_on(NUMPY)).expect("the third stops");
        assert_eq!(
            stop.to_string().lines().next(),
            Some(
                "the driver's environment is broken: the first 3 checks to fail all failed on the \
                 same error: backend failure: ImportError: No module named 'numpy'"
            )
        );
        assert!(
            stop.to_string()
                .contains("the run stopped after 5 checks (1 passed)"),
            "{stop}"
        );
    }

    #[test]
    fn a_failure_of_another_cause_first_lets_every_check_run() {
        for other in [
            failed_on("KeyError: 'k'"),
            failed_on("ImportError: No module named 'torch'"),
            report(Outcome::Fail(Failure::new("wrong answer"))),
        ] {
            let mut watch = Watch::new(true, 1);
            assert!(watch.judge(&failed_on(NUMPY)).is_none());
            assert!(watch.judge(&other).is_none());
            for _ in 0..FAILURES_TO_STOP * 2 {
                assert!(watch.judge(&failed_on(NUMPY)).is_none(), "{other:?}");
            }
        }
    }

    #[test]
    fn the_same_error_raised_from_different_calls_is_one_error() {
        // An exec driver's error carries its stderr, a traceback through
        // the call that raised it: the error is its first line.
        let mut watch = Watch::new(true, 1);
        for call in ["store", "recall", "list"] {
            let stop = watch.judge(&failed_on(&format!(
                "{NUMPY}\n  stderr (2 lines):\n  | in {call}\n  | {NUMPY}"
            )));
            if call == "list" {
                let stop = stop.expect("the third stops");
                assert!(
                    stop.to_string().ends_with("\n  stderr (2 lines):\n  | in list\n  | ImportError: No module named 'numpy'"),
                    "the last failure's stderr: {stop}"
                );
            } else {
                assert!(stop.is_none(), "{call}");
            }
        }
    }

    #[test]
    fn keep_going_never_stops() {
        let mut watch = Watch::new(false, 1);
        for _ in 0..FAILURES_TO_STOP * 2 {
            assert!(watch.judge(&failed_on(NUMPY)).is_none());
        }
    }

    #[test]
    fn a_missing_python_module_names_what_to_install() {
        let got = remedy("backend failure: ModuleNotFoundError: No module named 'numpy'");
        assert_eq!(
            got.as_deref(),
            Some(
                "install the Python package that provides \"numpy\" in the driver's environment \
                 (`pip install numpy`, when the package has the module's name), then run again"
            )
        );
        let nested = remedy("ImportError: No module named 'langchain_community.vectorstores'");
        assert!(nested
            .unwrap()
            .contains("`pip install langchain_community`"));
    }

    #[test]
    fn a_missing_node_module_names_what_to_install() {
        let got = remedy("backend failure: Error: Cannot find module 'voy-search'\nRequire stack:");
        assert!(got.unwrap().contains("`npm install voy-search`"));
        let esm = remedy(
            "Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@orama/orama' imported from /x.js",
        );
        assert!(esm.unwrap().contains("`npm install @orama/orama`"));
    }

    #[test]
    fn a_missing_extension_and_a_refused_connection_say_what_to_install_and_start() {
        let pg = remedy("backend failure: db error: ERROR: extension \"vector\" is not available");
        assert!(pg.unwrap().starts_with("install pgvector"));
        let refused = remedy(
            "unavailable: error connecting to server: Connection refused (os error 111) at \
             127.0.0.1:5432",
        );
        assert_eq!(
            refused.as_deref(),
            Some(
                "start the server at 127.0.0.1:5432 (or point the driver at one that is \
                 running), then run again"
            )
        );
        let node = remedy("Error: connect ECONNREFUSED ::1:6333");
        assert!(
            node.unwrap().contains("start the server at ::1:6333"),
            "IPv6 host"
        );
    }

    #[test]
    fn an_error_that_breaks_a_rule_is_no_environment() {
        for text in [
            "backend failure: fts5: syntax error near \"\"\"",
            "backend failure: KeyError: 'k'",
            "invalid input (namespace.charset): bad byte",
            "backend failure: NotImplementedError: get_by_ids",
        ] {
            assert_eq!(remedy(text), None, "{text}");
        }
    }
}
