//! A run as the console shows it: the corpus load's status, a line per
//! check as it finishes, and the status line naming the check the next
//! line waits for.

use std::collections::BTreeMap;
use std::time::Instant;

use tinymemory_conformance::report::CheckEntry;
use tinymemory_conformance::{CheckReport, CheckStarted, RunObserver};

use crate::console::{Console, LoadProgress};

/// Prints a run's events on a [`Console`].
pub(crate) struct ConsoleProgress<'a> {
    console: &'a Console,
    quiet: bool,
    /// The corpus load's status, from its first progress event.
    load: Option<LoadProgress<'a>>,
    /// The checks started and not yet reported: position, id, start.
    running: BTreeMap<usize, (&'static str, Instant)>,
    /// How many checks the run executes.
    total: usize,
}

impl<'a> ConsoleProgress<'a> {
    /// Progress on `console`; `quiet` prints only failed checks.
    pub(crate) fn new(console: &'a Console, quiet: bool) -> Self {
        Self {
            console,
            quiet,
            load: None,
            running: BTreeMap::new(),
            total: 0,
        }
    }

    /// The status line names the first check not yet reported: the one
    /// the next line waits for (with one job, the running check).
    fn show_first(&self) {
        match self.running.iter().next() {
            Some((position, (id, since))) => {
                self.console.running(position + 1, self.total, id, *since);
            }
            None => self.console.idle(),
        }
    }
}

impl RunObserver for ConsoleProgress<'_> {
    fn load_progress(&mut self, done: usize, total: usize) {
        let console = self.console;
        self.load
            .get_or_insert_with(|| console.load_progress())
            .update(done, total);
    }

    fn check_started(&mut self, started: CheckStarted<'_>) {
        self.total = started.total;
        self.running
            .insert(started.position, (started.check.id, Instant::now()));
        self.show_first();
    }

    fn check_finished(&mut self, report: &mut CheckReport) {
        if let Some(first) = self.running.keys().next().copied() {
            self.running.remove(&first);
        }
        if !self.quiet || report.outcome.is_fail() {
            self.console
                .line(&CheckEntry::from(&*report).text_line(self.console.colour()));
        }
        self.show_first();
    }
}
