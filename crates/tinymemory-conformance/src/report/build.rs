//! A [`Report`] from a [`RunSummary`].

use std::time::{Duration, SystemTime};

use super::{CheckEntry, Conformance, CounterexampleRecord, Counts, OutcomeKind, Report, RunMeta};
use crate::{CheckReport, Counterexample, Outcome, RunSummary};

/// The tool name reports carry.
pub const TOOL_NAME: &str = "tinymemory-conformance";

/// The version of this conformance suite, which reports carry as the tool
/// version.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

impl Report {
    /// The report of `summary`, a run that started at `started_at`.
    ///
    /// The driver spec and version are unknown until set with
    /// [`Report::with_driver_spec`] and [`Report::with_driver_version`].
    #[must_use]
    pub fn from_summary(summary: &RunSummary, started_at: SystemTime) -> Self {
        let checks: Vec<CheckEntry> = summary.reports.iter().map(CheckEntry::from).collect();
        Self {
            schema_version: super::SCHEMA_VERSION,
            run: RunMeta {
                tool: TOOL_NAME.to_owned(),
                tool_version: TOOL_VERSION.to_owned(),
                driver_id: summary.driver_id.clone(),
                driver_spec: None,
                driver_version: None,
                recall_profile: summary.profile,
                seed: summary.config.seed,
                cases: summary.config.cases,
                started_at: humantime::format_rfc3339_seconds(started_at).to_string(),
                duration_ms: millis(summary.duration),
                load_ms: None,
                filter: None,
                shard: None,
                corpus: None,
            },
            conformance: Conformance::of(&checks, summary.profile),
            counts: Counts::of(&checks),
            shared_errors: super::SharedError::of(&checks),
            checks,
        }
    }

    /// Records the `--driver` value that opens the same driver again.
    #[must_use]
    pub fn with_driver_spec(mut self, spec: impl Into<String>) -> Self {
        self.run.driver_spec = Some(spec.into());
        self
    }

    /// Records the wall time of the whole run (`run.duration_ms`), from the
    /// start of the command, and of the corpus load (`run.load_ms`) when
    /// one was loaded: the summary's duration covers the checks alone.
    #[must_use]
    pub fn with_durations(mut self, whole_run: Duration, corpus_load: Option<Duration>) -> Self {
        self.run.duration_ms = millis(whole_run);
        self.run.load_ms = corpus_load.map(millis);
        self
    }

    /// Records that the run selected some checks only: the filter goes
    /// into `run.filter`, and the level is never FULL
    /// ([`Conformance::filtered`]).
    #[must_use]
    pub fn with_filter(mut self, filter: super::RunFilter) -> Self {
        self.run.filter = Some(filter);
        self.conformance = self.conformance.filtered();
        self
    }

    /// Marks the report as shard `shard` of a run whose whole selection
    /// is `selection` (check ids in run order): never `FULL` on its own,
    /// as a filtered run; `merge` of every shard states the level.
    #[must_use]
    pub fn with_shard(mut self, shard: crate::Shard, selection: Vec<String>) -> Self {
        self.run.shard = Some(super::ShardMeta {
            index: shard.index,
            total: shard.total,
            selection,
        });
        self.conformance = self.conformance.filtered();
        self
    }

    /// Records the corpus the run loaded, or that it ran without one
    /// (`run.corpus`).
    #[must_use]
    pub fn with_corpus(mut self, corpus: super::RunCorpus) -> Self {
        self.run.corpus = Some(corpus);
        self
    }

    /// Records the driver's version.
    #[must_use]
    pub fn with_driver_version(mut self, version: impl Into<String>) -> Self {
        self.run.driver_version = Some(version.into());
        self
    }

    /// A copy with every duration set to zero and the start time set to
    /// the epoch, so two runs of the same build compare byte for byte (for
    /// snapshots).
    #[must_use]
    pub fn redacted(&self) -> Self {
        let mut r = self.clone();
        r.run.started_at = "1970-01-01T00:00:00Z".to_owned();
        r.run.duration_ms = 0.0;
        r.run.load_ms = r.run.load_ms.map(|_| 0.0);
        for c in &mut r.checks {
            c.duration_ms = 0.0;
        }
        r
    }

    /// The closing line of the run: `N passed, N failed[, N skipped]`.
    #[must_use]
    pub fn closing_line(&self) -> String {
        self.counts.closing_line()
    }

    /// The entries that fail the run, in run order.
    pub fn failures(&self) -> impl Iterator<Item = &CheckEntry> {
        self.checks.iter().filter(|c| c.outcome.is_fail())
    }
}

impl From<&CheckReport> for CheckEntry {
    fn from(r: &CheckReport) -> Self {
        let (driver_error, notes) = match &r.outcome {
            Outcome::Fail(f) | Outcome::ExpectedFailure { failure: f, .. } => {
                (f.driver_error.clone(), f.notes.clone())
            }
            _ => (None, Vec::new()),
        };
        let (outcome, message, reason, counterexample) = match &r.outcome {
            Outcome::Pass => (OutcomeKind::Pass, None, None, None),
            Outcome::Fail(f) => (
                OutcomeKind::Fail,
                Some(f.message.clone()),
                None,
                f.counterexample.as_ref(),
            ),
            Outcome::Skip(why) => (OutcomeKind::Skip, Some(why.clone()), None, None),
            Outcome::NotServed => (
                OutcomeKind::Skip,
                r.outcome.message().map(str::to_owned),
                None,
                None,
            ),
            Outcome::Timeout(why) => (OutcomeKind::Timeout, Some(why.clone()), None, None),
            Outcome::ExpectedFailure { reason, failure } => (
                OutcomeKind::ExpectedFailure,
                Some(failure.message.clone()),
                Some(reason.clone()),
                failure.counterexample.as_ref(),
            ),
            Outcome::UnexpectedPass { reason } => (
                OutcomeKind::UnexpectedlyPassing,
                None,
                Some(reason.clone()),
                None,
            ),
        };
        Self {
            id: r.id.to_owned(),
            family: r.family.as_str().to_owned(),
            description: r.description.to_owned(),
            outcome,
            duration_ms: millis(r.duration),
            message,
            reason,
            counterexample: counterexample.map(CounterexampleRecord::from),
            driver_error,
            notes,
            score_noise: r.score_noise.clone(),
            // Written on every skip of a family that needs an interface,
            // so a reader never falls back to the message.
            not_served: match r.outcome {
                Outcome::NotServed => Some(true),
                Outcome::Skip(_) if r.family.needs_interface() => Some(false),
                _ => None,
            },
        }
    }
}

impl From<&Counterexample> for CounterexampleRecord {
    fn from(c: &Counterexample) -> Self {
        Self {
            seed: c.seed,
            input: c.input.clone(),
        }
    }
}

/// Milliseconds, rounded to the microsecond so reports do not carry
/// nanosecond noise.
pub(crate) fn millis(d: Duration) -> f64 {
    // Why u64 is enough: 2^64 microseconds is half a million years.
    let micros = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
    // Exact below 2^53 µs (285 years).
    micros as f64 / 1000.0
}

/// A duration in milliseconds as `Duration`, for display. Negative,
/// non-finite or absurd values (a hand-edited report) show as zero.
pub(crate) fn duration(ms: f64) -> Duration {
    if ms.is_finite() && ms >= 0.0 {
        Duration::try_from_secs_f64(ms / 1000.0).unwrap_or_default()
    } else {
        Duration::ZERO
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::Family;

    fn entry(family: Family, outcome: Outcome) -> CheckEntry {
        CheckEntry::from(&CheckReport {
            id: "x.y",
            family,
            description: "",
            outcome,
            duration: Duration::ZERO,
            score_noise: None,
        })
    }

    /// `not_served` is written on every skip of an interface check, so a
    /// reader never goes by the message, and on no other entry.
    #[test]
    fn not_served_is_written_on_every_interface_skip_and_nowhere_else() {
        let served_not = entry(Family::Interface, Outcome::NotServed);
        assert_eq!(served_not.outcome, OutcomeKind::Skip);
        assert_eq!(
            served_not.message.as_deref(),
            Some(crate::checks::interface::NOT_SERVED)
        );
        assert_eq!(served_not.not_served, Some(true));
        let json = serde_json::to_value(&served_not).unwrap();
        assert_eq!(json["not_served"], true);
        let lacking = entry(Family::Interface, Outcome::Skip("neither path".into()));
        assert_eq!(lacking.not_served, Some(false));
        assert_eq!(serde_json::to_value(&lacking).unwrap()["not_served"], false);
        for other in [
            entry(Family::Corpus, Outcome::Skip("no corpus".into())),
            entry(Family::Interface, Outcome::Pass),
        ] {
            assert_eq!(other.not_served, None);
            assert!(serde_json::to_value(&other)
                .unwrap()
                .get("not_served")
                .is_none());
        }
    }
}
