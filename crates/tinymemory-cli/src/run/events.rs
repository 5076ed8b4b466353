//! `run --events PATH`: the run as one JSON object a line, written as it
//! goes, for a program that shows a run (the pytest plugin, node:test)
//! rather than parse the console's text. The schema is
//! `fixtures/cli/events.schema.json` (docs/reports.md, "Event stream").
//!
//! Each line is an object whose `event` says what happened:
//! `run-started` (the plan), `corpus-progress`, `check-started`,
//! `check-finished` (the check's entry exactly as the JSON report has it
//! then), `check-updated` (an entry the run added a note to after its
//! check finished: a rerun's verdict), `run-finished` (the counts, the
//! level, the shared errors, the bundles), or `run-stopped` (a run that
//! stops before its report: a broken environment's error and remedy).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};
use tinymemory_conformance::report::{CheckEntry, Report};
use tinymemory_conformance::{CheckReport, CheckStarted, RunObserver};

use super::plan::{CorpusPlan, RunPlan};
use crate::error::CliError;
use crate::files::FileError;
use crate::target::Target;

/// The version of the event stream's schema: bumped when a reader would
/// misread a line; an optional field or a new event keeps it (readers
/// skip events they do not know).
pub(crate) const EVENTS_SCHEMA_VERSION: u32 = 1;

/// The least time between two `corpus-progress` events, besides the first
/// and the last: a reader's display needs no more, and a fast load writes
/// a handful.
const LOAD_EVERY: Duration = Duration::from_millis(250);

/// The event stream's file, and what writes to it.
///
/// Lines go to a temporary file beside the path until [`Events::keep`]
/// renames it there when the run starts (as the trace's), so a run
/// refused before it leaves an old file of that name as it was; a FIFO,
/// a device or an inherited descriptor (`fd:N`, `/dev/fd/N`) is written
/// in place from the first line.
pub(crate) struct Events {
    path: PathBuf,
    out: Mutex<Box<dyn Write + Send>>,
    pending: Mutex<Option<(tempfile::TempPath, Target)>>,
    /// The first write failure.
    write_error: Mutex<Option<String>>,
}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Events").field("path", &self.path).finish()
    }
}

impl Events {
    /// Opens the stream `path` (resolved as an output).
    ///
    /// # Errors
    ///
    /// A [`FileError`] naming the path when it cannot be written.
    pub(crate) fn open(path: &Path) -> Result<Self, FileError> {
        let target = Target::resolve(path)?;
        let (out, pending): (Box<dyn Write + Send>, _) = match target.temporary()? {
            None => (target.open_in_place()?, None),
            Some(tmp) => {
                let (file, tmp) = tmp.into_parts();
                (Box::new(file), Some((tmp, target)))
            }
        };
        Ok(Self {
            path: path.to_owned(),
            out: Mutex::new(out),
            pending: Mutex::new(pending),
            write_error: Mutex::new(None),
        })
    }

    /// Puts the stream at its path (once; later calls do nothing).
    ///
    /// # Errors
    ///
    /// A [`FileError`] naming the path when the rename fails.
    pub(crate) fn keep(&self) -> Result<(), FileError> {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        match pending {
            Some((tmp, target)) => target.commit(tmp),
            None => Ok(()),
        }
    }

    /// Writes `event` as one line, flushed so a reader sees it at once. A
    /// failure is kept for [`Events::write_error`], and later events are
    /// not written.
    fn emit(&self, event: &impl Serialize) {
        let mut slot = self
            .write_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if slot.is_some() {
            return;
        }
        // Escaped as every JSON the binary writes is (a driver's text in an
        // entry's message must not reorder how a reader's line displays).
        // Cannot fail: every event is strings, numbers, options, vectors
        // and structs of those.
        let mut line = tinymemory_conformance::report::to_json_line(event);
        line.push('\n');
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        if let Err(e) = out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
            // A reader that closed its end chose to stop reading, as `|
            // head` does with progress: the run goes on, writing no more.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                *slot = Some(String::new());
                return;
            }
            *slot = Some(format!(
                "failed to write the events to {}: {e}",
                self.path.display()
            ));
        }
    }

    /// Why a line could not be written, if one could not (a reader that
    /// closed its end of a pipe is not an error).
    pub(crate) fn write_error(&self) -> Option<String> {
        self.write_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .filter(|m| !m.is_empty())
    }

    /// `run-started`: the plan.
    pub(crate) fn run_started(&self, plan: &RunPlan) {
        let corpus = match &plan.corpus {
            CorpusPlan::Skipped => json!("none"),
            CorpusPlan::Unneeded => Value::Null,
            CorpusPlan::Load(dir) => json!({
                "path": dir.clone().unwrap_or_else(crate::corpus::bundled).display().to_string(),
            }),
        };
        let checks: Vec<PlannedCheck> = plan
            .registry
            .checks()
            .iter()
            .map(|c| PlannedCheck {
                id: c.id,
                family: c.family.as_str(),
            })
            .collect();
        self.emit(&RunStarted {
            event: "run-started",
            schema_version: EVENTS_SCHEMA_VERSION,
            tool_version: env!("CARGO_PKG_VERSION"),
            driver: plan.driver.to_string(),
            header: plan.header(),
            profile: plan.profile.as_str(),
            seed: plan.config.seed.to_string(),
            cases: plan.config.cases,
            jobs: plan.jobs,
            corpus,
            reruns: plan.reruns.is_some(),
            checks,
        });
    }

    /// `check-updated`: `entry` changed after its check finished.
    pub(crate) fn check_updated(&self, entry: &CheckEntry) {
        self.emit(&EntryEvent {
            event: "check-updated",
            entry,
        });
    }

    /// `run-finished`: what the report says of the whole run, and the
    /// bundles written, by check id.
    pub(crate) fn run_finished(&self, report: &Report, bundles: &[(String, PathBuf)]) {
        let bundles: serde_json::Map<String, Value> = bundles
            .iter()
            .map(|(id, path)| (id.clone(), json!(path.display().to_string())))
            .collect();
        self.emit(&RunFinished {
            event: "run-finished",
            duration_ms: report.run.duration_ms,
            counts: &report.counts,
            conformance: &report.conformance,
            shared_errors: &report.shared_errors,
            corpus: report.run.corpus.as_ref(),
            bundles,
            lines: Lines {
                shared_errors: crate::shared::lines(report),
                conformance: report.conformance_line(),
                closing: report.closing_line(),
            },
        });
    }

    /// `run-stopped`: the run stops on `stop` before its report, with the
    /// exit code and the message the binary prints after `error: `, and,
    /// for a broken environment, the driver's error, the remedy and the
    /// counts apart, so a host shows the stop from data rather than from
    /// stderr.
    pub(crate) fn run_stopped(&self, stop: &CliError) {
        let mut event = RunStopped {
            event: "run-stopped",
            reason: "error",
            exit_code: stop.exit_code(),
            message: stop.to_string(),
            error: None,
            remedy: None,
            failed: None,
            finished: None,
            passed: None,
        };
        if let CliError::BrokenEnvironment {
            failed,
            finished,
            passed,
            error,
            remedy,
            ..
        } = stop
        {
            event.reason = "broken-environment";
            event.error = Some(error);
            event.remedy = Some(remedy);
            event.failed = Some(*failed);
            event.finished = Some(*finished);
            event.passed = Some(*passed);
        }
        self.emit(&event);
    }

    /// The observer writing this stream's events during the checks.
    pub(crate) fn observer(&self) -> EventObserver<'_> {
        EventObserver {
            events: self,
            load_last: None,
        }
    }
}

/// Writes a run's progress to an [`Events`] stream.
pub(crate) struct EventObserver<'a> {
    events: &'a Events,
    /// When the last `corpus-progress` event was written.
    load_last: Option<Instant>,
}

impl RunObserver for EventObserver<'_> {
    fn load_progress(&mut self, done: usize, total: usize) {
        let now = Instant::now();
        let due = done == 0
            || done == total
            || self
                .load_last
                .is_none_or(|last| now.duration_since(last) >= LOAD_EVERY);
        if !due {
            return;
        }
        self.load_last = Some(now);
        self.events.emit(&CorpusProgress {
            event: "corpus-progress",
            done,
            total,
        });
    }

    fn check_started(&mut self, started: CheckStarted<'_>) {
        self.events.emit(&CheckStartedEvent {
            event: "check-started",
            id: started.check.id,
            position: started.position,
            total: started.total,
        });
    }

    fn check_finished(&mut self, report: &mut CheckReport) {
        self.events.emit(&EntryEvent {
            event: "check-finished",
            entry: &CheckEntry::from(&*report),
        });
    }
}

// The events as written, fields in this order (`event` first); the
// schema (fixtures/cli/events.schema.json) describes each.

#[derive(Serialize)]
struct RunStarted<'a> {
    event: &'static str,
    schema_version: u32,
    tool_version: &'static str,
    driver: String,
    header: String,
    profile: &'a str,
    seed: String,
    cases: u32,
    jobs: usize,
    corpus: Value,
    reruns: bool,
    checks: Vec<PlannedCheck>,
}

#[derive(Serialize)]
struct PlannedCheck {
    id: &'static str,
    family: &'static str,
}

#[derive(Serialize)]
struct CorpusProgress {
    event: &'static str,
    done: usize,
    total: usize,
}

#[derive(Serialize)]
struct CheckStartedEvent {
    event: &'static str,
    id: &'static str,
    position: usize,
    total: usize,
}

#[derive(Serialize)]
struct EntryEvent<'a> {
    event: &'static str,
    entry: &'a CheckEntry,
}

#[derive(Serialize)]
struct RunFinished<'a> {
    event: &'static str,
    duration_ms: f64,
    counts: &'a tinymemory_conformance::report::Counts,
    conformance: &'a tinymemory_conformance::report::Conformance,
    shared_errors: &'a [tinymemory_conformance::report::SharedError],
    #[serde(skip_serializing_if = "Option::is_none")]
    corpus: Option<&'a tinymemory_conformance::report::RunCorpus>,
    bundles: serde_json::Map<String, Value>,
    lines: Lines,
}

#[derive(Serialize)]
struct RunStopped<'a> {
    event: &'static str,
    reason: &'static str,
    exit_code: u8,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    remedy: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failed: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    finished: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    passed: Option<usize>,
}

/// What the console prints at the end, for a host that shows the same.
#[derive(Serialize)]
struct Lines {
    shared_errors: Vec<String>,
    conformance: String,
    closing: String,
}
