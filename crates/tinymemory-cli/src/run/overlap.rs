//! What lets a run's checks start while its corpus loads
//! (`Runner::run_loading`) and still read as a run that loaded first: the
//! signal that the corpus store has answered, and the check lines held
//! back until the load's own lines are written.
//!
//! The console's text does not change: the load's lines (`loaded ..`, the
//! sections, the example recall) come before the first check's line, as
//! when the load ran alone first, since a check's line waits for the
//! load's. The bars, the log lines and the `--events` stream show the load
//! and the checks as they happen, interleaved (docs/cli.md, docs/reports.md).

use std::sync::{Arc, Mutex, PoisonError};

use tinymemory_conformance::{CheckReport, CheckStarted, RunObserver};
use tokio::sync::oneshot;

use crate::console::Console;

/// Check lines written before the load's lines, held until
/// [`Held::release`]: shared by the console's observer of the checks and
/// the load.
#[derive(Clone)]
pub(crate) struct Held(Arc<Mutex<Option<Vec<String>>>>);

impl Held {
    /// Holding every line until [`Held::release`].
    pub(crate) fn holding() -> Self {
        Self(Arc::new(Mutex::new(Some(Vec::new()))))
    }

    /// Writes `text` on `console`, or keeps it while the load's lines are
    /// still to come.
    pub(crate) fn line(&self, console: &Console, text: String) {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match &mut *held {
            Some(lines) => lines.push(text),
            None => console.line(&text),
        }
    }

    /// The load's lines are written: writes the lines held, in the order
    /// they came, and every later one at once. A run whose load failed
    /// never releases them: its checks were stopped, and the console reads
    /// as a failed load did before checks ran during it.
    pub(crate) fn release(&self, console: &Console) {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for line in held.take().into_iter().flatten() {
            console.line(&line);
        }
    }
}

/// An observer of the load that tells the runner, once, that the corpus
/// store has answered: its first batch is stored (or the load ended, when
/// the sender is dropped).
pub(crate) struct Answered(Option<oneshot::Sender<()>>);

impl Answered {
    /// The observer, and what the runner waits on before its first check.
    pub(crate) fn new() -> (Self, impl std::future::Future<Output = ()>) {
        let (tx, rx) = oneshot::channel();
        (Self(Some(tx)), async {
            // A dropped sender is a load that ended: the runner sees the
            // end itself.
            let _ = rx.await;
        })
    }
}

impl RunObserver for Answered {
    fn load_progress(&mut self, done: usize, _: usize) {
        if done > 0 {
            if let Some(tx) = self.0.take() {
                let _ = tx.send(());
            }
        }
    }

    fn check_started(&mut self, _: CheckStarted<'_>) {}

    fn check_finished(&mut self, _: &mut CheckReport) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;

    #[test]
    fn answered_once_the_first_entries_are_stored() {
        let (mut observer, answered) = Answered::new();
        let mut answered = Box::pin(answered);
        observer.load_progress(0, 3000);
        assert!(
            (&mut answered).now_or_never().is_none(),
            "nothing stored yet"
        );
        observer.load_progress(1, 3000);
        observer.load_progress(2, 3000);
        assert!(answered.now_or_never().is_some());
    }

    #[test]
    fn a_load_that_ends_answers() {
        let (observer, answered) = Answered::new();
        drop(observer);
        assert!(Box::pin(answered).now_or_never().is_some());
    }
}
