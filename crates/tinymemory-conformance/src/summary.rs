//! What a run produced.

use std::fmt;
use std::time::Duration;

use tinymemory_api::RecallProfile;

use crate::{Family, Outcome, RunConfig};

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
}

/// One line for a terminal: `PASS  store.upsert (contract, 1.2ms)`, with the
/// failure message or skip reason after a colon.
impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.outcome {
            Outcome::Pass => "PASS",
            Outcome::Fail(_) => "FAIL",
            Outcome::Skip(_) => "SKIP",
            Outcome::ExpectedFailure { .. } => "XFAIL",
            Outcome::UnexpectedPass { .. } => "XPASS",
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

    /// Checks that failed, unexpected passes included.
    #[must_use]
    pub fn failed(&self) -> usize {
        self.reports.iter().filter(|r| r.outcome.is_fail()).count()
    }

    /// Checks that were skipped.
    #[must_use]
    pub fn skipped(&self) -> usize {
        self.count("skip")
    }

    /// The ids of the failed checks, in run order.
    #[must_use]
    pub fn failed_ids(&self) -> Vec<&'static str> {
        self.reports
            .iter()
            .filter(|r| r.outcome.is_fail())
            .map(|r| r.id)
            .collect()
    }

    /// The closing line: `N passed, N failed`, then `, N skipped` when any
    /// were skipped.
    #[must_use]
    pub fn closing_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed(), self.failed());
        if self.skipped() > 0 {
            line.push_str(&format!(", {} skipped", self.skipped()));
        }
        line
    }
}
