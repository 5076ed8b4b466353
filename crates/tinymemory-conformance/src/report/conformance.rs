//! The conformance level a driver's README can state.

use std::fmt;

use serde::{Deserialize, Serialize};
use tinymemory_api::RecallProfile;

use super::{CheckEntry, OutcomeKind};

/// `FULL`, `PARTIAL` or `NONE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Every check of the run passed: no failure, no skip, no expected
    /// failure.
    Full,
    /// Some families passed completely, not all.
    Partial,
    /// No family passed completely.
    None,
}

/// How one family fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FamilyStatus {
    /// Every check of the family passed.
    Pass,
    /// At least one check failed, unexpectedly passed or is an expected
    /// failure: the driver does not meet the family, declared or not.
    Fail,
    /// Nothing failed, but a check was skipped or timed out, so the
    /// family was not shown to pass.
    Incomplete,
}

/// One family's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyLevel {
    /// The family name (`contract`, `sections`, ...).
    pub family: String,
    /// How it fared.
    pub status: FamilyStatus,
}

/// The level of a run, the recall profile it was reached under, and the
/// status of each family in order of first appearance in the run.
///
/// A level is only ever stated with its profile: `FULL (semantic)` says
/// less than `FULL (lexical)` about which entries a recall returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conformance {
    /// The overall level.
    pub level: Level,
    /// The recall profile the run held the driver to; `lexical` in reports
    /// written before profiles existed.
    #[serde(default)]
    pub profile: RecallProfile,
    /// Per family, in order of first appearance.
    pub families: Vec<FamilyLevel>,
    /// `true` when the run selected some checks only (`run --check`,
    /// `--family`): the level is then never [`Level::Full`], whatever
    /// passed. Absent (false) in reports of unfiltered runs and in reports
    /// written before filters existed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub filtered: bool,
    /// The checks that ran past their time budget
    /// ([`OutcomeKind::Timeout`]), in run order: their families are
    /// [`FamilyStatus::Incomplete`] unless a rule failed too. Absent
    /// (empty) when none did, and in reports written before the outcome
    /// existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timed_out: Vec<String>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if
fn is_false(b: &bool) -> bool {
    !*b
}

impl Conformance {
    /// The level of a run under `profile` whose checks are `checks`.
    ///
    /// A family passes when every one of its checks passed. The level is
    /// [`Level::Full`] when every family passes (an empty run is `None`:
    /// nothing was shown), [`Level::Partial`] when some do.
    #[must_use]
    pub fn of(checks: &[CheckEntry], profile: RecallProfile) -> Self {
        let mut families: Vec<FamilyLevel> = Vec::new();
        for check in checks {
            let status = match &check.outcome {
                OutcomeKind::Pass => FamilyStatus::Pass,
                OutcomeKind::Skip | OutcomeKind::Timeout => FamilyStatus::Incomplete,
                OutcomeKind::Fail
                | OutcomeKind::ExpectedFailure
                | OutcomeKind::UnexpectedlyPassing
                // An outcome this build does not know fails the family.
                | OutcomeKind::Unknown(_) => FamilyStatus::Fail,
            };
            match families.iter_mut().find(|f| f.family == check.family) {
                None => families.push(FamilyLevel {
                    family: check.family.clone(),
                    status,
                }),
                Some(f) => f.status = worse(f.status, status),
            }
        }
        let passing = families
            .iter()
            .filter(|f| f.status == FamilyStatus::Pass)
            .count();
        let level = if passing == 0 {
            Level::None
        } else if passing == families.len() {
            Level::Full
        } else {
            Level::Partial
        };
        let timed_out = checks
            .iter()
            .filter(|c| c.outcome == OutcomeKind::Timeout)
            .map(|c| c.id.clone())
            .collect();
        Self {
            level,
            profile,
            families,
            filtered: false,
            timed_out,
        }
    }

    /// The level of a run that selected some checks only: a run that
    /// passed every check it ran is [`Level::Partial`], since the checks
    /// left out were not shown to pass.
    #[must_use]
    pub fn filtered(mut self) -> Self {
        self.filtered = true;
        if self.level == Level::Full {
            self.level = Level::Partial;
        }
        self
    }

    /// The families that passed completely, in order.
    pub fn passing(&self) -> impl Iterator<Item = &str> {
        self.families
            .iter()
            .filter(|f| f.status == FamilyStatus::Pass)
            .map(|f| f.family.as_str())
    }
}

fn worse(a: FamilyStatus, b: FamilyStatus) -> FamilyStatus {
    use FamilyStatus::{Fail, Incomplete, Pass};
    match (a, b) {
        (Fail, _) | (_, Fail) => Fail,
        (Incomplete, _) | (_, Incomplete) => Incomplete,
        (Pass, Pass) => Pass,
    }
}

/// `FULL (lexical)`, `PARTIAL (semantic: contract, sections)` (the
/// families that passed), or `NONE (lexical)`; a filtered run says so:
/// `PARTIAL (lexical, filtered: contract)`, `NONE (lexical, filtered)`;
/// checks that timed out are named after the level:
/// `PARTIAL (lexical: contract; timed out: corpus.self_retrieval)`.
impl fmt::Display for Conformance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let profile = self.profile;
        let filtered = if self.filtered { ", filtered" } else { "" };
        let timed_out = if self.timed_out.is_empty() {
            String::new()
        } else {
            format!(
                "; timed out: {}",
                super::visible(&self.timed_out.join(", "))
            )
        };
        match self.level {
            Level::Full => write!(f, "FULL ({profile}{filtered}{timed_out})"),
            Level::None => write!(f, "NONE ({profile}{filtered}{timed_out})"),
            Level::Partial => {
                let passing: Vec<&str> = self.passing().collect();
                write!(
                    f,
                    "PARTIAL ({profile}{filtered}: {}{timed_out})",
                    passing.join(", ")
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(families: &[(&str, FamilyStatus)]) -> Conformance {
        Conformance {
            level: Level::None,
            profile: RecallProfile::Lexical,
            families: families
                .iter()
                .map(|(f, s)| FamilyLevel {
                    family: (*f).to_owned(),
                    status: *s,
                })
                .collect(),
            filtered: false,
            timed_out: Vec::new(),
        }
    }

    #[test]
    fn the_level_names_the_checks_that_timed_out() {
        let mut c = of(&[
            ("contract", FamilyStatus::Pass),
            ("corpus", FamilyStatus::Incomplete),
        ]);
        c.level = Level::Partial;
        c.timed_out = vec![
            "corpus.self_retrieval".to_owned(),
            "corpus.recall_own_words".to_owned(),
        ];
        assert_eq!(
            c.to_string(),
            "PARTIAL (lexical: contract; timed out: corpus.self_retrieval, corpus.recall_own_words)"
        );
        let json = serde_json::to_string(&c).unwrap();
        assert!(
            json.ends_with(r#","timed_out":["corpus.self_retrieval","corpus.recall_own_words"]}"#),
            "{json}"
        );
        c.level = Level::None;
        c.timed_out.truncate(1);
        assert_eq!(
            c.to_string(),
            "NONE (lexical; timed out: corpus.self_retrieval)"
        );
    }

    #[test]
    fn a_filtered_run_is_never_full_and_says_so() {
        let mut all_pass = of(&[("contract", FamilyStatus::Pass)]);
        all_pass.level = Level::Full;
        assert_eq!(all_pass.to_string(), "FULL (lexical)");
        let filtered = all_pass.filtered();
        assert_eq!(filtered.level, Level::Partial);
        assert_eq!(
            filtered.to_string(),
            "PARTIAL (lexical, filtered: contract)"
        );

        let mut none = of(&[("contract", FamilyStatus::Fail)]);
        none.level = Level::None;
        assert_eq!(none.filtered().to_string(), "NONE (lexical, filtered)");

        let mut partial = of(&[
            ("contract", FamilyStatus::Pass),
            ("sections", FamilyStatus::Fail),
        ]);
        partial.level = Level::Partial;
        assert_eq!(partial.to_string(), "PARTIAL (lexical: contract)");
        assert_eq!(
            partial.filtered().to_string(),
            "PARTIAL (lexical, filtered: contract)"
        );
    }

    #[test]
    fn filtered_is_written_only_when_true_and_defaults_to_false() {
        let mut c = of(&[("contract", FamilyStatus::Pass)]);
        c.level = Level::Full;
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"level":"full","profile":"lexical","families":[{"family":"contract","status":"pass"}]}"#
        );
        let read: Conformance = serde_json::from_str(&json).unwrap();
        assert!(!read.filtered);
        let json = serde_json::to_string(&c.filtered()).unwrap();
        assert!(json.ends_with(r#","filtered":true}"#), "{json}");
    }
}
