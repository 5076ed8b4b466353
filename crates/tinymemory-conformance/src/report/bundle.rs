//! Regression bundles: one failing check, with everything needed to run it
//! again.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tinymemory_api::RecallProfile;

use super::json::{from_versioned, to_pretty};
use super::seed;
use super::{CheckEntry, CounterexampleRecord, OutcomeKind, Report, ReportError, RunCorpus};

/// The version of the bundle schema this build writes and reads.
pub const BUNDLE_SCHEMA_VERSION: u32 = 1;

/// One failing check, self-contained: which driver, which build, which
/// seed and case count, what the check requires and what happened.
///
/// Replaying ([`Bundle::replay`](super::Bundle::replay)) runs the same check
/// with the same seed and cases; the counterexample is for people (the
/// property re-derives it from the seed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    /// Always [`BUNDLE_SCHEMA_VERSION`] when written by this build.
    pub schema_version: u32,
    /// The tool that recorded it: `tinymemory-conformance`.
    pub tool: String,
    /// Its version.
    pub tool_version: String,
    /// The driver id of the run.
    pub driver_id: String,
    /// The `--driver` value that opens the same driver again, when known;
    /// `replay` uses it unless given another.
    pub driver_spec: Option<String>,
    /// The driver's version, when known.
    pub driver_version: Option<String>,
    /// The recall profile the failing run held the driver to; replay holds
    /// it to the same one. Bundles written before profiles existed read as
    /// `lexical`, which is what they ran.
    #[serde(default)]
    pub recall_profile: RecallProfile,
    /// The check id, such as `recall.limit`.
    pub check: String,
    /// Its family.
    pub family: String,
    /// The run seed (a decimal string in JSON).
    #[serde(with = "seed")]
    pub seed: u64,
    /// Cases per property check.
    pub cases: u32,
    /// When the failing run started (RFC 3339, UTC).
    pub recorded_at: String,
    /// How the check ended: `fail`, `unexpectedly-passing` or `timeout`
    /// (replay then runs it again under the replay's budget).
    pub outcome: OutcomeKind,
    /// What the driver must do: the check's description.
    pub expected: String,
    /// What happened: the failure message (with the expected and actual
    /// values the check saw).
    pub actual: String,
    /// For property checks: the shrunk input and its seed.
    pub counterexample: Option<CounterexampleRecord>,
    /// The failing run's per-check budget in seconds (`run --timeout`),
    /// which `replay` runs the check under unless told another; absent
    /// (and then the default) in bundles written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
    /// The failing run's limit on one driver call in seconds (`run
    /// --call-timeout`), which `replay` holds every call to unless told
    /// another; absent (and then the default) in bundles written before it
    /// was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_timeout_secs: Option<u64>,
    /// For a check of the `corpus` family, the corpus it failed over (the
    /// report's `run.corpus`): its verdict holds for that corpus only, so
    /// `replay` refuses to judge it over another. Absent for other checks
    /// and in bundles written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corpus: Option<RunCorpus>,
}

impl Bundle {
    /// The bundle of `entry`, a check of `report`; `None` unless the check
    /// failed the run.
    #[must_use]
    pub fn from_entry(report: &Report, entry: &CheckEntry) -> Option<Self> {
        if !entry.outcome.is_fail() {
            return None;
        }
        let actual = match entry.outcome {
            OutcomeKind::UnexpectedlyPassing => format!(
                "passed, but was declared an expected failure: {}",
                entry.reason.as_deref().unwrap_or_default()
            ),
            _ => entry.message.clone().unwrap_or_default(),
        };
        let r = &report.run;
        Some(Self {
            schema_version: BUNDLE_SCHEMA_VERSION,
            tool: r.tool.clone(),
            tool_version: r.tool_version.clone(),
            driver_id: r.driver_id.clone(),
            driver_spec: r.driver_spec.clone(),
            driver_version: r.driver_version.clone(),
            recall_profile: r.recall_profile,
            check: entry.id.clone(),
            family: entry.family.clone(),
            seed: r.seed,
            cases: r.cases,
            recorded_at: r.started_at.clone(),
            outcome: entry.outcome.clone(),
            expected: entry.description.clone(),
            actual,
            counterexample: entry.counterexample.clone(),
            // The report does not record the limits; the command writing
            // the bundle knows them ([`Bundle::with_limits`]).
            timeout_secs: None,
            call_timeout_secs: None,
            corpus: if entry.family == "corpus" {
                r.corpus.clone()
            } else {
                None
            },
        })
    }

    /// The bundle with the limits its check ran under recorded: the
    /// per-check budget and the limit on one driver call.
    #[must_use]
    pub fn with_limits(mut self, timeout: Duration, call_timeout: Duration) -> Self {
        self.timeout_secs = Some(timeout.as_secs());
        self.call_timeout_secs = Some(call_timeout.as_secs());
        self
    }

    /// One bundle per check that failed the run, in run order.
    #[must_use]
    pub fn all_from(report: &Report) -> Vec<Self> {
        report
            .failures()
            .filter_map(|e| Self::from_entry(report, e))
            .collect()
    }

    /// A file name for the bundle: `DRIVER--CHECK.json`, with every
    /// character other than ASCII letters, digits, `.`, `-` and `_`
    /// replaced by `_` (so `mutant:recall.limit` becomes
    /// `mutant_recall.limit`). Unique per driver and check. A driver part
    /// longer than [`MAX_DRIVER_NAME`] bytes (a long `exec:` command line)
    /// is cut there and followed by 16 hex digits of the FNV-1a hash of the
    /// whole driver spec, so the name stays unique and under file-system
    /// limits (255 bytes).
    #[must_use]
    pub fn file_name(&self) -> String {
        Self::file_name_for(
            self.driver_spec.as_deref().unwrap_or(&self.driver_id),
            &self.check,
        )
    }

    /// [`Bundle::file_name`] of the bundle of `check` run against the
    /// driver spelt `driver` (its spec, or its id when it has none): known
    /// before the run, so a command can refuse an output that a bundle
    /// would replace.
    #[must_use]
    pub fn file_name_for(driver: &str, check: &str) -> String {
        let mut name = safe(driver);
        if name.len() > MAX_DRIVER_NAME {
            name.truncate(MAX_DRIVER_NAME);
            name = format!("{name}-{:016x}", fnv1a(driver.as_bytes()));
        }
        format!("{name}--{}.json", safe(check))
    }

    /// The bundle as pretty-printed JSON with a trailing newline.
    #[must_use]
    pub fn to_json(&self) -> String {
        to_pretty(self)
    }

    /// Reads a bundle written by [`Bundle::to_json`].
    ///
    /// # Errors
    ///
    /// [`ReportError::UnsupportedVersion`] for a bundle from a newer schema;
    /// [`ReportError::Malformed`] for anything that is not a bundle.
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        from_versioned(text, "bundle", BUNDLE_SCHEMA_VERSION)
    }
}

fn safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Longest driver part of a bundle file name, in bytes, before it is cut
/// and hashed (see [`Bundle::file_name`]).
pub const MAX_DRIVER_NAME: usize = 96;

/// 64-bit FNV-1a (Fowler, Noll, Vo): stable across Rust versions, unlike
/// the standard library's hasher, so a bundle's name never changes.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}
