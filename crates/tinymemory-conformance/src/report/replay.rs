//! Running a bundle's check again.

use std::sync::Arc;
use std::time::Duration;

use super::{Bundle, ReportError};
use crate::{
    CheckReport, DriverFactory, LoadedCorpus, Outcome, Registry, RunConfig, Runner,
    DEFAULT_CALL_TIMEOUT,
};
use tinymemory_api::shown::shown;

/// What a replay found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The check fails again with the recorded message.
    Reproduced,
    /// The check fails again, with another message.
    FailsDifferently,
    /// The check passes now (or fails only as declared).
    Fixed,
    /// The check was skipped; the report says why.
    NotRun,
    /// The check ran past its time budget: whether it passes is still
    /// unknown.
    TimedOut,
}

/// The result of [`Bundle::replay`].
#[derive(Debug, Clone)]
pub struct Replay {
    /// What it found.
    pub verdict: Verdict,
    /// The check's new result.
    pub report: CheckReport,
}

impl Replay {
    /// `true` when the check still fails the run ([`Verdict::Reproduced`],
    /// [`Verdict::FailsDifferently`] or [`Verdict::TimedOut`]).
    #[must_use]
    pub fn still_fails(&self) -> bool {
        matches!(
            self.verdict,
            Verdict::Reproduced | Verdict::FailsDifferently | Verdict::TimedOut
        )
    }

    /// Expected (recorded) against actual (now), then the verdict, one
    /// line each, every line ending with a newline.
    #[must_use]
    pub fn to_text(&self, bundle: &Bundle) -> String {
        let now = match &self.report.outcome {
            Outcome::Pass => "pass".to_owned(),
            other => format!(
                "{}: {}",
                other.label(),
                shown(other.message().unwrap_or_default())
            ),
        };
        let verdict = match self.verdict {
            Verdict::Reproduced => "reproduced: the check fails as recorded",
            Verdict::FailsDifferently => "still failing, with a different message",
            Verdict::Fixed => "fixed: the check passes now",
            Verdict::NotRun => "not run: the check was skipped",
            Verdict::TimedOut => {
                "timed out: the check ran past its budget, so whether it passes is unknown"
            }
        };
        format!(
            "expected: {}\nrecorded: {}\nnow:      {now}\n{verdict}\n",
            shown(&bundle.expected),
            shown(&bundle.actual)
        )
    }
}

impl Bundle {
    /// Runs the bundle's check again, with its seed, case count and recall
    /// profile, against `factory` (and `corpus`, for a corpus check),
    /// failing it after `timeout`.
    ///
    /// # Errors
    ///
    /// [`ReportError::UnknownCheck`] when `registry` has no check with the
    /// bundle's id, [`ReportError::CheckNotInProfile`] when that check does
    /// not apply to the bundle's recall profile.
    ///
    /// # Panics
    ///
    /// Must be called inside a tokio runtime with time enabled.
    pub async fn replay(
        &self,
        registry: &Registry,
        factory: Arc<dyn DriverFactory>,
        corpus: Option<Arc<LoadedCorpus>>,
        timeout: Duration,
    ) -> Result<Replay, ReportError> {
        self.replay_within(registry, factory, corpus, timeout, DEFAULT_CALL_TIMEOUT)
            .await
    }

    /// [`Bundle::replay`], holding every driver call to `call_timeout`
    /// ([`Runner::with_call_timeout`]): the limits the failing run had
    /// ([`Bundle::call_timeout_secs`]), or others.
    ///
    /// # Errors
    ///
    /// As [`Bundle::replay`].
    ///
    /// # Panics
    ///
    /// As [`Bundle::replay`].
    pub async fn replay_within(
        &self,
        registry: &Registry,
        factory: Arc<dyn DriverFactory>,
        corpus: Option<Arc<LoadedCorpus>>,
        timeout: Duration,
        call_timeout: Duration,
    ) -> Result<Replay, ReportError> {
        let one = registry.filter(|c| c.id == self.check);
        let Some(check) = one.checks().first() else {
            return Err(ReportError::UnknownCheck {
                id: self.check.clone(),
            });
        };
        if !check.profiles.contains(self.recall_profile) {
            return Err(ReportError::CheckNotInProfile {
                id: self.check.clone(),
                applies: check.profiles.to_string(),
                profile: self.recall_profile,
            });
        }
        let summary = Runner::new(one)
            .with_profile(self.recall_profile)
            .with_timeout(timeout)
            .with_call_timeout(call_timeout)
            .with_config(RunConfig {
                seed: self.seed,
                cases: self.cases,
            })
            .run(factory, corpus, |_| {})
            .await;
        let Some(report) = summary.reports.into_iter().next() else {
            return Err(ReportError::UnknownCheck {
                id: self.check.clone(),
            });
        };
        let verdict = match &report.outcome {
            Outcome::Pass | Outcome::ExpectedFailure { .. } => Verdict::Fixed,
            Outcome::Skip(_) | Outcome::NotServed => Verdict::NotRun,
            Outcome::Timeout(_) => Verdict::TimedOut,
            failed => {
                let actual = match failed {
                    Outcome::UnexpectedPass { reason } => {
                        format!("passed, but was declared an expected failure: {reason}")
                    }
                    other => other.message().unwrap_or_default().to_owned(),
                };
                if actual == self.actual {
                    Verdict::Reproduced
                } else {
                    Verdict::FailsDifferently
                }
            }
        };
        Ok(Replay { verdict, report })
    }
}
