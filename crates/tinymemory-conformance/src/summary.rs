//! What a run produced.

use std::fmt;
use std::time::Duration;

use tinymemory_api::RecallProfile;

use crate::{Family, Outcome, RunConfig, ScoreNoise};

/// One check's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// The check id.
    pub id: &'static str,
    /// Its family.
    pub family: Family,
    /// Its one-line description.
    pub description: &'static str,
    /// What happened.
    pub outcome: Outcome,
    /// Wall time the check took.
    pub duration: Duration,
    /// The largest score difference within noise the check saw between
    /// two answers to one call ([`crate::noise`]), never a failure; `None`
    /// when every score it compared was bit-identical, or it compared none
    /// across layouts.
    pub score_noise: Option<ScoreNoise>,
}

/// One line for a terminal: `PASS  store.upsert (contract, 1.2ms)`, with the
/// failure message or skip reason after a colon.
impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.outcome {
            Outcome::Pass => "PASS",
            Outcome::Fail(_) => "FAIL",
            Outcome::Skip(_) | Outcome::NotServed => "SKIP",
            Outcome::ExpectedFailure { .. } => "XFAIL",
            Outcome::UnexpectedPass { .. } => "XPASS",
            Outcome::Timeout(_) => "TIMEOUT",
        };
        write!(
            f,
            "{label}  {} ({}, {:.1?})",
            self.id, self.family, self.duration
        )?;
        match self.outcome.message() {
            None => Ok(()),
            Some(m) => write!(f, ": {m}"),
        }
    }
}

/// Every check's result, in run order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSummary {
    /// The driver the run was against.
    pub driver_id: String,
    /// The recall profile the run held the driver to.
    pub profile: RecallProfile,
    /// One report per check, in run order.
    pub reports: Vec<CheckReport>,
    /// The seed and case count the run used.
    pub config: RunConfig,
    /// Wall time of the whole run.
    pub duration: Duration,
}

impl RunSummary {
    fn count(&self, label: &str) -> usize {
        self.reports
            .iter()
            .filter(|r| r.outcome.label() == label)
            .count()
    }

    /// Checks that passed, expected failures included (they went as
    /// declared).
    #[must_use]
    pub fn passed(&self) -> usize {
        self.count("pass") + self.count("expected-failure")
    }

    /// Checks that fail the run: failures, unexpected passes and
    /// timeouts ([`RunSummary::timed_out`] counts those alone), so that
    /// `failed() == 0` still means every check went as declared.
    #[must_use]
    pub fn failed(&self) -> usize {
        self.reports.iter().filter(|r| r.outcome.is_fail()).count()
    }

    /// Checks that ran past their time budget ([`Outcome::Timeout`]).
    #[must_use]
    pub fn timed_out(&self) -> usize {
        self.count("timeout")
    }

    /// Checks that were skipped.
    #[must_use]
    pub fn skipped(&self) -> usize {
        self.count("skip")
    }

    /// The ids of the checks that fail the run (timeouts included), in run
    /// order.
    #[must_use]
    pub fn failed_ids(&self) -> Vec<&'static str> {
        self.reports
            .iter()
            .filter(|r| r.outcome.is_fail())
            .map(|r| r.id)
            .collect()
    }

    /// The closing line: `N passed, N failed`, then `, N timed out` and
    /// `, N skipped` when any were; `N failed` counts the rule failures
    /// (and unexpected passes) alone, not the timeouts.
    #[must_use]
    pub fn closing_line(&self) -> String {
        let failed = self.failed() - self.timed_out();
        let mut line = format!("{} passed, {failed} failed", self.passed());
        if self.timed_out() > 0 {
            line.push_str(&format!(", {} timed out", self.timed_out()));
        }
        if self.skipped() > 0 {
            line.push_str(&format!(", {} skipped", self.skipped()));
        }
        line
    }
}
