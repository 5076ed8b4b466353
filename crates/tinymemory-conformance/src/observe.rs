//! What a run tells its observers as it goes: the corpus load's progress,
//! each check as it starts and as it finishes. A console, a trace and a
//! report writer each watch the same run through [`RunObserver`].

use crate::{Check, CheckReport};

/// A check the runner has just started.
#[derive(Debug, Clone, Copy)]
pub struct CheckStarted<'a> {
    /// Its place in the run, from 0, in registry order.
    pub position: usize,
    /// How many checks the run executes.
    pub total: usize,
    /// The check.
    pub check: &'a Check,
}

/// Watches a run ([`Runner::run_observed`](crate::Runner::run_observed)).
///
/// With one job, every [`check_started`](RunObserver::check_started) is
/// followed by its [`check_finished`](RunObserver::check_finished) before
/// the next check starts. With more, checks start as slots free up, and
/// finish in registry order, each once every check before it has
/// finished.
pub trait RunObserver {
    /// The corpus load has stored `done` of `total` entries (for a
    /// progress display; called once per entry, so keep it cheap).
    fn load_progress(&mut self, done: usize, total: usize);

    /// A check has started.
    fn check_started(&mut self, started: CheckStarted<'_>);

    /// A check has finished: its report, before the run keeps it. An
    /// observer may add to it (a trace naming where its records are).
    fn check_finished(&mut self, report: &mut CheckReport);
}

/// Two observers, told of each event in turn: the first, then the second.
impl<A: RunObserver, B: RunObserver> RunObserver for (A, B) {
    fn load_progress(&mut self, done: usize, total: usize) {
        self.0.load_progress(done, total);
        self.1.load_progress(done, total);
    }

    fn check_started(&mut self, started: CheckStarted<'_>) {
        self.0.check_started(started);
        self.1.check_started(started);
    }

    fn check_finished(&mut self, report: &mut CheckReport) {
        self.0.check_finished(report);
        self.1.check_finished(report);
    }
}

/// An observer that may not be there: told of each event when it is.
impl<T: RunObserver> RunObserver for Option<T> {
    fn load_progress(&mut self, done: usize, total: usize) {
        if let Some(o) = self {
            o.load_progress(done, total);
        }
    }

    fn check_started(&mut self, started: CheckStarted<'_>) {
        if let Some(o) = self {
            o.check_started(started);
        }
    }

    fn check_finished(&mut self, report: &mut CheckReport) {
        if let Some(o) = self {
            o.check_finished(report);
        }
    }
}

impl<T: RunObserver + ?Sized> RunObserver for &mut T {
    fn load_progress(&mut self, done: usize, total: usize) {
        (**self).load_progress(done, total);
    }

    fn check_started(&mut self, started: CheckStarted<'_>) {
        (**self).check_started(started);
    }

    fn check_finished(&mut self, report: &mut CheckReport) {
        (**self).check_finished(report);
    }
}

/// An observer that sees every report as it finishes and nothing else:
/// [`Runner::run`](crate::Runner::run)'s `on_report`.
pub(crate) struct OnReport<F>(pub(crate) F);

impl<F: FnMut(&CheckReport)> RunObserver for OnReport<F> {
    fn load_progress(&mut self, _: usize, _: usize) {}

    fn check_started(&mut self, _: CheckStarted<'_>) {}

    fn check_finished(&mut self, report: &mut CheckReport) {
        (self.0)(report);
    }
}
