//! The trace's view of a run: each record names the running check, and a
//! failed check names the trace lines of its last operations.

use std::path::Path;

use tinymemory_conformance::report::{FailureNote, TraceSpan};
use tinymemory_conformance::{CheckReport, CheckStarted, Outcome, RunObserver};
use tinymemory_exec::trace::Trace;

use crate::console::Console;

/// How many of a failed check's last trace records its message names.
const TRACE_TAIL: u64 = 12;

/// Marks the trace at `path` with the running check, and a failed check
/// with where its records are: a line on the console after the check's,
/// and the same as a note of its failure ([`FailureNote::trace`]).
pub(crate) struct TraceMarks<'a> {
    console: &'a Console,
    trace: &'a Trace,
    path: &'a Path,
    /// The trace line the running check's first record is (or would be).
    from: u64,
}

impl<'a> TraceMarks<'a> {
    /// Marks for `trace`, written to `path`, naming lines on `console`.
    pub(crate) fn new(console: &'a Console, trace: &'a Trace, path: &'a Path) -> Self {
        Self {
            console,
            trace,
            path,
            from: trace.lines() + 1,
        }
    }
}

impl RunObserver for TraceMarks<'_> {
    fn load_progress(&mut self, _: usize, _: usize) {}

    fn check_started(&mut self, started: CheckStarted<'_>) {
        self.trace.set_check(Some(started.check.id));
        self.from = self.trace.lines() + 1;
    }

    fn check_finished(&mut self, report: &mut CheckReport) {
        self.trace.set_check(None);
        let to = self.trace.lines();
        if !report.outcome.is_fail() || to < self.from {
            return;
        }
        let lines = trace_lines(self.path, self.from, to);
        self.console.line(&format!("      {lines}"));
        if let Outcome::Fail(f) = &mut report.outcome {
            let span = TraceSpan {
                path: self.path.display().to_string(),
                first: self.from.max(to.saturating_sub(TRACE_TAIL - 1)),
                last: to,
                check_first: self.from,
            };
            f.notes.push(FailureNote::trace(span, lines));
        }
    }
}

/// `trace: lines 120-131 of FILE (the check's last 12 records, from 101)`:
/// where a failed check's last operations are, the last [`TRACE_TAIL`]
/// records of those it wrote from line `from` to line `to`.
fn trace_lines(path: &Path, from: u64, to: u64) -> String {
    let first = from.max(to.saturating_sub(TRACE_TAIL - 1));
    if first == from {
        format!("trace: lines {from}-{to} of {}", path.display())
    } else {
        format!(
            "trace: lines {first}-{to} of {} (its last {TRACE_TAIL} records; the check's first is line {from})",
            path.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_span_names_its_last_records_and_its_first_line() {
        let path = Path::new("t.jsonl");
        assert_eq!(trace_lines(path, 5, 9), "trace: lines 5-9 of t.jsonl");
        assert_eq!(
            trace_lines(path, 101, 131),
            "trace: lines 120-131 of t.jsonl (its last 12 records; the check's first is line 101)"
        );
    }
}
