//! The serialisable report: what a run did, in a form every renderer and
//! the baseline comparison read.

use serde::{Deserialize, Serialize};
use tinymemory_api::RecallProfile;

use super::conformance::Conformance;
use super::note::FailureNote;
use super::seed;
use super::shared::SharedError;
use crate::{DriverError, ScoreNoise};

/// The version of the JSON report schema this build writes and reads.
///
/// Bumped whenever a field is removed or changes meaning; adding an optional
/// field keeps the version. A report with a higher version is refused
/// ([`ReportError::UnsupportedVersion`](super::ReportError::UnsupportedVersion)),
/// never half-read. The schema is documented in `docs/reports.md`.
pub const SCHEMA_VERSION: u32 = 1;

/// A whole run: metadata, the conformance level, counts, and one entry per
/// check in run order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`SCHEMA_VERSION`] when written by this build.
    pub schema_version: u32,
    /// How, when and against what the run went.
    pub run: RunMeta,
    /// Which families passed completely.
    pub conformance: Conformance,
    /// Checks per outcome kind.
    pub counts: Counts,
    /// One entry per check, in run order.
    pub checks: Vec<CheckEntry>,
    /// The driver errors that two or more failed checks share, each with
    /// those checks, in order of first appearance
    /// ([`SharedError::of`]): what the console prints as `N checks failed
    /// on the same error`. Absent (empty) when none do, and in reports
    /// written before the field existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_errors: Vec<SharedError>,
}

/// Run metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    /// The tool that ran the checks: `tinymemory-conformance`.
    pub tool: String,
    /// Its version, such as `0.1.0`.
    pub tool_version: String,
    /// The driver id the factory reported, such as `sqlite`.
    pub driver_id: String,
    /// The `--driver` value that opens the same driver again (`sqlite`,
    /// `mutant:recall.limit`), when the run came from the command line.
    pub driver_spec: Option<String>,
    /// The driver's version, when known.
    pub driver_version: Option<String>,
    /// The recall profile the run held the driver to: `lexical` or
    /// `semantic`. Reports written before profiles existed lack the field
    /// and read as `lexical`, which is what they ran.
    #[serde(default)]
    pub recall_profile: RecallProfile,
    /// The run seed; written as a decimal string because JSON readers lose
    /// precision on integers above 2^53.
    #[serde(with = "seed")]
    pub seed: u64,
    /// Cases per property check.
    pub cases: u32,
    /// When the run started, RFC 3339 in UTC with seconds
    /// (`2025-01-31T12:00:00Z`).
    pub started_at: String,
    /// Wall time of the whole run, in milliseconds: from the start of the
    /// command (driver start-up and the corpus load included) to the end
    /// of the last check, when the CLI wrote the report
    /// ([`Report::with_durations`]); the checks alone for a report built
    /// from a library run.
    pub duration_ms: f64,
    /// Wall time of loading the corpus into the driver, in milliseconds,
    /// part of `duration_ms`; absent when no corpus was loaded (or the
    /// report was written before the field existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_ms: Option<f64>,
    /// The selection of a run that ran some checks only (`run --check`,
    /// `--family`); absent for a run of every check of its profile (and in
    /// reports written before filters existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<RunFilter>,
    /// The shard of a sharded run (`run --shard K/N`), with the whole
    /// selection it is a part of; absent for an unsharded run (and in
    /// reports written before shards existed). `merge` joins the shards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardMeta>,
    /// The corpus the run measured, or `--no-corpus`; absent when the run
    /// selected no corpus check (and in reports written before the field
    /// existed). `merge` refuses shards of different corpora.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corpus: Option<super::RunCorpus>,
}

/// Which part of a sharded run a report holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardMeta {
    /// `K` of `K/N`, from 1.
    pub index: u32,
    /// `N` of `K/N`.
    pub total: u32,
    /// Every check id of the run's selection (all shards), in run order.
    pub selection: Vec<String>,
}

/// The checks a filtered run selected: those whose id or family matches
/// one of `checks` (globs) or whose family is one of `families`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunFilter {
    /// The `--check` patterns, as given.
    #[serde(default)]
    pub checks: Vec<String>,
    /// The `--family` names, as given.
    #[serde(default)]
    pub families: Vec<String>,
}

/// How many checks ended in each outcome kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Every check in the report.
    pub total: usize,
    /// [`OutcomeKind::Pass`].
    pub pass: usize,
    /// [`OutcomeKind::Fail`], and any [`OutcomeKind::Unknown`] (read as
    /// failing).
    pub fail: usize,
    /// [`OutcomeKind::Skip`].
    pub skip: usize,
    /// [`OutcomeKind::ExpectedFailure`].
    pub expected_failure: usize,
    /// [`OutcomeKind::UnexpectedlyPassing`].
    pub unexpectedly_passing: usize,
    /// [`OutcomeKind::Timeout`]; 0 in reports written before the outcome
    /// existed.
    #[serde(default)]
    pub timeout: usize,
}

impl Counts {
    /// Counts the outcome kinds of `checks`.
    #[must_use]
    pub fn of(checks: &[CheckEntry]) -> Self {
        let mut c = Self {
            total: checks.len(),
            ..Self::default()
        };
        for check in checks {
            match check.outcome {
                OutcomeKind::Pass => c.pass += 1,
                // An outcome this build does not know fails the run.
                OutcomeKind::Fail | OutcomeKind::Unknown(_) => c.fail += 1,
                OutcomeKind::Skip => c.skip += 1,
                OutcomeKind::ExpectedFailure => c.expected_failure += 1,
                OutcomeKind::UnexpectedlyPassing => c.unexpectedly_passing += 1,
                OutcomeKind::Timeout => c.timeout += 1,
            }
        }
        c
    }

    /// Checks that went as declared: passes and expected failures (the
    /// `N passed` of the closing line).
    #[must_use]
    pub fn passed(&self) -> usize {
        self.pass + self.expected_failure
    }

    /// Checks that fail the run: failures, unexpected passes and timeouts.
    #[must_use]
    pub fn failed(&self) -> usize {
        self.fail + self.unexpectedly_passing + self.timeout
    }

    /// `N passed, N failed`, then `, N timed out` and `, N skipped` when
    /// any were (`N failed` without the timeouts): the same line as
    /// [`RunSummary::closing_line`](crate::RunSummary::closing_line).
    #[must_use]
    pub fn closing_line(&self) -> String {
        let mut line = format!(
            "{} passed, {} failed",
            self.passed(),
            self.fail + self.unexpectedly_passing
        );
        if self.timeout > 0 {
            line.push_str(&format!(", {} timed out", self.timeout));
        }
        if self.skip > 0 {
            line.push_str(&format!(", {} skipped", self.skip));
        }
        line
    }
}

/// The kind of a check's outcome, as the JSON spells it.
///
/// An outcome a reader does not know (written by a newer build) reads as
/// [`OutcomeKind::Unknown`], which fails the run (docs/reports.md,
/// "Versioning") and is written back as the same string.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OutcomeKind {
    /// `pass`.
    Pass,
    /// `fail`.
    Fail,
    /// `skip`.
    Skip,
    /// `expected-failure`: failed as declared; not counted as a failure.
    ExpectedFailure,
    /// `unexpectedly-passing`: declared an expected failure, but passed;
    /// counted as a failure.
    UnexpectedlyPassing,
    /// `timeout`: ran past its time budget while the driver kept
    /// answering, so neither passed nor failed a rule; fails the run.
    Timeout,
    /// An outcome this build does not know, with its text as read: a
    /// reader treats it as failing the run (counted with `fail`, a family
    /// holding it does not pass), and writes it back unchanged. This build
    /// never makes one.
    Unknown(String),
}

impl OutcomeKind {
    /// The JSON spelling: `pass`, `fail`, `skip`, `expected-failure`,
    /// `unexpectedly-passing`, `timeout` (the same as
    /// [`Outcome::label`](crate::Outcome::label)), or an unknown
    /// outcome's text as read.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Self::Pass => "pass",
            Self::Fail => "fail",
            Self::Skip => "skip",
            Self::ExpectedFailure => "expected-failure",
            Self::UnexpectedlyPassing => "unexpectedly-passing",
            Self::Timeout => "timeout",
            Self::Unknown(text) => text,
        }
    }

    /// The outcome spelt `text` in JSON: a known kind, else
    /// [`OutcomeKind::Unknown`] holding it.
    #[must_use]
    pub fn from_json_str(text: &str) -> Self {
        match text {
            "pass" => Self::Pass,
            "fail" => Self::Fail,
            "skip" => Self::Skip,
            "expected-failure" => Self::ExpectedFailure,
            "unexpectedly-passing" => Self::UnexpectedlyPassing,
            "timeout" => Self::Timeout,
            other => Self::Unknown(other.to_owned()),
        }
    }

    /// For an unknown outcome, what a reader says of it: `outcome
    /// "TEXT", which this build does not know, read as failing` (the text
    /// as read: escape it to show it); `None` for the known kinds.
    #[must_use]
    pub fn unknown_note(&self) -> Option<String> {
        match self {
            Self::Unknown(text) => Some(format!(
                "outcome \"{text}\", which this build does not know, read as failing"
            )),
            _ => None,
        }
    }

    /// The tag of text reports: `PASS`, `FAIL`, `SKIP`, `XFAIL`, `XPASS`,
    /// `TIMEOUT`, and `UNKNOWN` for an outcome this build does not know.
    #[must_use]
    pub fn tag(&self) -> &'static str {
        match self {
            Self::Pass => "PASS",
            Self::Fail => "FAIL",
            Self::Skip => "SKIP",
            Self::ExpectedFailure => "XFAIL",
            Self::UnexpectedlyPassing => "XPASS",
            Self::Timeout => "TIMEOUT",
            Self::Unknown(_) => "UNKNOWN",
        }
    }

    /// `true` for the kinds that fail a run: `fail`,
    /// `unexpectedly-passing`, `timeout` and an unknown outcome.
    #[must_use]
    pub fn is_fail(&self) -> bool {
        matches!(
            self,
            Self::Fail | Self::UnexpectedlyPassing | Self::Timeout | Self::Unknown(_)
        )
    }

    /// `true` for the kinds that say a rule was broken: `fail` and
    /// `unexpectedly-passing` (a stale declaration), and an unknown outcome
    /// (read as a failure); not `timeout`.
    #[must_use]
    pub fn is_rule_failure(&self) -> bool {
        matches!(
            self,
            Self::Fail | Self::UnexpectedlyPassing | Self::Unknown(_)
        )
    }
}

impl Serialize for OutcomeKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for OutcomeKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(Self::from_json_str(&text))
    }
}

/// One check's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckEntry {
    /// The check id, such as `recall.limit`.
    pub id: String,
    /// Its family: `contract`, `sections`, `corpus`, ...
    pub family: String,
    /// One line: what the driver must do.
    pub description: String,
    /// How it ended.
    pub outcome: OutcomeKind,
    /// Wall time of the check, in milliseconds.
    pub duration_ms: f64,
    /// What was expected and what happened (fail, expected-failure), why
    /// the check was skipped (skip), or how far it got before its budget
    /// ran out (timeout: requests answered, their rate, the budget and the
    /// option raising it); `None` for pass and unexpectedly-passing.
    pub message: Option<String>,
    /// The declared reason of an expected failure (expected-failure,
    /// unexpectedly-passing); `None` otherwise.
    pub reason: Option<String>,
    /// For property checks that failed: the shrunk input and its seed.
    pub counterexample: Option<CounterexampleRecord>,
    /// The driver error the check failed on ([`Failure::driver_error`]),
    /// for fail and expected-failure: kind, rule, family and message, the
    /// error as the driver returned it, by which failures are grouped
    /// ([`Report::shared_errors`]). Absent when the driver answered
    /// wrongly rather than failing, and in reports written before the
    /// field existed. Bundles do not carry it.
    ///
    /// [`Failure::driver_error`]: crate::Failure::driver_error
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver_error: Option<DriverError>,
    /// What the run added to a failure after its check ended
    /// ([`Failure::notes`](crate::Failure::notes)): the trace lines of its
    /// last records, what a rerun alone found. The text, JUnit and
    /// Markdown reports print them after the message
    /// ([`CheckEntry::message_with_notes`]); `message` is the check's own.
    /// Absent (empty) when there are none, and in reports written before
    /// the field existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<FailureNote>,
    /// The largest score difference within noise the check saw
    /// ([`CheckReport::score_noise`](crate::CheckReport::score_noise)):
    /// the difference and where. Absent when it saw none, and in reports
    /// written before the field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_noise: Option<ScoreNoise>,
    /// On a skip of a check whose family needs a framework interface
    /// ([`Family::needs_interface`](crate::Family::needs_interface)):
    /// `true` when the driver serves no interface or another
    /// ([`Outcome::NotServed`](crate::Outcome::NotServed)), so the check
    /// does not apply to it, `false` when it was skipped for another cause
    /// (the store implements neither path of the scenario). Absent on every
    /// other entry, and in reports written before the field existed, which
    /// [`CheckEntry::is_not_served`] reads by their message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_served: Option<bool>,
}

impl CheckEntry {
    /// `true` for a skip of a check of an interface the driver does not
    /// serve: [`not_served`](Self::not_served) when the entry has it;
    /// for an entry written before the field existed, a skip of a family
    /// that needs an interface whose message is the one those builds
    /// wrote ([`LEGACY_NOT_SERVED`](super::LEGACY_NOT_SERVED)).
    #[must_use]
    pub fn is_not_served(&self) -> bool {
        self.outcome == OutcomeKind::Skip
            && crate::Family::named(&self.family).is_some_and(crate::Family::needs_interface)
            && self
                .not_served
                .unwrap_or_else(|| self.message.as_deref() == Some(super::LEGACY_NOT_SERVED))
    }

    /// The message followed by the [`notes`](Self::notes), as the text,
    /// JUnit and Markdown reports show it: a trace span in brackets on
    /// the message's line, any other note on lines of its own
    /// ([`FailureNote::push_to`]). `None` when there is no message.
    #[must_use]
    pub fn message_with_notes(&self) -> Option<std::borrow::Cow<'_, str>> {
        let message = self.message.as_deref()?;
        if self.notes.is_empty() {
            return Some(std::borrow::Cow::Borrowed(message));
        }
        Some(std::borrow::Cow::Owned(super::note::with_notes(
            message,
            &self.notes,
        )))
    }
}

/// The smallest failing input of a property check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterexampleRecord {
    /// The seed that reproduces it, as a decimal string in JSON.
    #[serde(with = "seed")]
    pub seed: u64,
    /// The shrunk input, as the property rendered it.
    pub input: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: [(&str, OutcomeKind); 6] = [
        ("pass", OutcomeKind::Pass),
        ("fail", OutcomeKind::Fail),
        ("skip", OutcomeKind::Skip),
        ("expected-failure", OutcomeKind::ExpectedFailure),
        ("unexpectedly-passing", OutcomeKind::UnexpectedlyPassing),
        ("timeout", OutcomeKind::Timeout),
    ];

    #[test]
    fn known_outcomes_read_and_write_as_before() {
        for (text, kind) in KNOWN {
            let json = format!("\"{text}\"");
            let read: OutcomeKind = serde_json::from_str(&json).unwrap();
            assert_eq!(read, kind);
            assert_eq!(serde_json::to_string(&kind).unwrap(), json);
            assert_eq!(kind.as_str(), text);
        }
    }

    #[test]
    fn an_unknown_outcome_fails_and_is_written_back_unchanged() {
        let read: OutcomeKind = serde_json::from_str("\"weird\\u001b\"").unwrap();
        assert_eq!(read, OutcomeKind::Unknown("weird\u{1b}".to_owned()));
        assert!(read.is_fail() && read.is_rule_failure());
        assert_eq!(read.tag(), "UNKNOWN");
        assert_eq!(serde_json::to_string(&read).unwrap(), "\"weird\\u001b\"");
        assert_eq!(
            read.unknown_note().as_deref(),
            Some("outcome \"weird\u{1b}\", which this build does not know, read as failing")
        );
        let entry = |outcome| CheckEntry {
            id: "recall.limit".to_owned(),
            family: "contract".to_owned(),
            description: String::new(),
            outcome,
            duration_ms: 1.0,
            message: None,
            reason: None,
            counterexample: None,
            driver_error: None,
            notes: Vec::new(),
            score_noise: None,
            not_served: None,
        };
        assert_eq!(
            entry(read.clone()).text_line(false),
            "UNKNOWN  recall.limit (contract, 1.0ms): outcome \"weird\\u{1b}\", which this \
             build does not know, read as failing"
        );
        let counts = Counts::of(&[entry(read), entry(OutcomeKind::Pass)]);
        assert_eq!((counts.total, counts.pass, counts.fail), (2, 1, 1));
        assert_eq!(counts.failed(), 1);
        assert!(serde_json::from_str::<OutcomeKind>("3").is_err());
    }
}
