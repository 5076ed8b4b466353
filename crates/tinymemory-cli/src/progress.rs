//! A run as the console shows it: a line per check as it finishes. The
//! corpus load's progress and the running check are shown on stderr,
//! where a person waits (`run/waiting.rs`).

use tinymemory_conformance::report::CheckEntry;
use tinymemory_conformance::{CheckReport, CheckStarted, RunObserver};

use crate::console::Console;
use crate::run::overlap::Held;

/// Prints a run's finished checks on a [`Console`].
pub(crate) struct ConsoleProgress<'a> {
    console: &'a Console,
    quiet: bool,
    held: Option<Held>,
}

impl<'a> ConsoleProgress<'a> {
    /// Progress on `console`; `quiet` prints only failed checks.
    pub(crate) fn new(console: &'a Console, quiet: bool) -> Self {
        Self {
            console,
            quiet,
            held: None,
        }
    }

    /// The same, its lines held by `held` until the corpus load's lines
    /// are written.
    pub(crate) fn held_by(self, held: Held) -> Self {
        Self {
            held: Some(held),
            ..self
        }
    }
}

impl RunObserver for ConsoleProgress<'_> {
    fn load_progress(&mut self, _: usize, _: usize) {}

    fn check_started(&mut self, _: CheckStarted<'_>) {}

    fn check_finished(&mut self, report: &mut CheckReport) {
        if !self.quiet || report.outcome.is_fail() {
            let line = CheckEntry::from(&*report).text_line(self.console.colour());
            match &self.held {
                Some(held) => held.line(self.console, line),
                None => self.console.line(&line),
            }
        }
    }
}
