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
    /// The run's score noise: the largest score difference within noise
    /// any check saw between two answers to one call (docs/profiles.md,
    /// "Score noise"), never a failure. Absent when every score compared
    /// was bit-identical, and in reports written before the field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_noise: Option<NoiseFigure>,
}

/// The largest score difference within noise of a run, the check that
/// saw it and where.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NoiseFigure {
    /// `|a - b|` of the two scores.
    pub difference: f64,
    /// The id of the check that saw it (the first in run order of equal
    /// ones).
    pub check: String,
    /// Where: the call, the hit and both scores.
    pub at: String,
}

/// Differences compare bit for bit.
impl PartialEq for NoiseFigure {
    fn eq(&self, other: &Self) -> bool {
        self.difference.to_bits() == other.difference.to_bits()
            && (&self.check, &self.at) == (&other.check, &other.at)
    }
}

impl Eq for NoiseFigure {}

impl NoiseFigure {
    /// The largest [`CheckEntry::score_noise`] of `checks`, the first in
    /// order of equal ones.
    #[must_use]
    pub fn of(checks: &[CheckEntry]) -> Option<Self> {
        let mut largest: Option<(&CheckEntry, &crate::ScoreNoise)> = None;
        for check in checks {
            if let Some(n) = &check.score_noise {
                if largest.is_none_or(|(_, l)| n.difference > l.difference) {
                    largest = Some((check, n));
                }
            }
        }
        largest.map(|(check, n)| Self {
            difference: n.difference,
            check: check.id.clone(),
            at: n.at.clone(),
        })
    }
}

/// `score noise 2.2e-16 in properties.cap_determinism`.
impl fmt::Display for NoiseFigure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "score noise {:.1e} in {}",
            self.difference,
            super::visible(&self.check)
        )
    }
}

/// The message builds before [`CheckEntry::not_served`] wrote on a skip
/// of an interface check for a driver serving no framework interface, or
/// another: a report without the field is read by it, as those builds
/// read it. Frozen: the message of this build's skip may change, this may
/// not.
pub const LEGACY_NOT_SERVED: &str =
    "the driver serves no framework interface, or not this check's (its hello declares none or another)";

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
            // A check of a family that needs an interface, skipped because
            // the driver serves another interface or none: like a check of
            // another recall profile, it does not apply, so it neither
            // completes nor holds back the family (a driver serving no
            // interface shows no such family at all). Skipped for any
            // other reason (the store lacks what its scenario needs), it
            // holds the family back as any skip does.
            if check.is_not_served() {
                continue;
            }
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
            score_noise: NoiseFigure::of(checks),
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
/// `PARTIAL (lexical: contract; timed out: corpus.self_retrieval)`; the
/// run's score noise follows: `FULL (semantic), score noise 2.2e-16 in
/// properties.cap_determinism`.
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
        }?;
        match &self.score_noise {
            Some(noise) => write!(f, ", {noise}"),
            None => Ok(()),
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
            score_noise: None,
        }
    }

    #[test]
    fn the_level_line_and_the_json_carry_the_run_noise() {
        let mut c = of(&[("property", FamilyStatus::Pass)]);
        c.level = Level::Full;
        c.profile = RecallProfile::Semantic;
        c.score_noise = Some(NoiseFigure {
            difference: 2.220_446_049_250_313e-16,
            check: "properties.cap_determinism".to_owned(),
            at: "hit learning:a/k0: 0.7329325225725953 on one store".to_owned(),
        });
        assert_eq!(
            c.to_string(),
            "FULL (semantic), score noise 2.2e-16 in properties.cap_determinism"
        );
        let json = serde_json::to_string(&c).unwrap();
        assert!(
            json.ends_with(
                r#","score_noise":{"difference":2.220446049250313e-16,"check":"properties.cap_determinism","at":"hit learning:a/k0: 0.7329325225725953 on one store"}}"#
            ),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Conformance>(&json).unwrap(), c);
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

    /// A driver declaring an interface whose store implements none of a
    /// scenario (every interface check skipped, not for serving another
    /// interface) reached FULL with the interface never checked.
    #[test]
    fn an_interface_check_skipped_for_what_the_store_lacks_holds_the_family_back() {
        let entry = |id: &str, family: &str, outcome: &str, message: Option<&str>| -> CheckEntry {
            serde_json::from_value(serde_json::json!({
                "id": id, "family": family, "description": "", "outcome": outcome,
                "duration_ms": 1.0, "message": message
            }))
            .unwrap()
        };
        let checks = [
            entry("store.upsert", "contract", "pass", None),
            entry(
                "interface.langgraph.put_none_deletes",
                "interface",
                "skip",
                Some(crate::checks::interface::NOT_SERVED),
            ),
            entry("interface.langchain.empty_store", "interface", "pass", None),
            entry(
                "interface.langchain.delete",
                "interface",
                "skip",
                Some("the store implements neither path of its scenario: ..."),
            ),
        ];
        let c = Conformance::of(&checks, RecallProfile::Semantic);
        assert_eq!(c.level, Level::Partial);
        let statuses: Vec<(&str, FamilyStatus)> = c
            .families
            .iter()
            .map(|f| (f.family.as_str(), f.status))
            .collect();
        assert_eq!(
            statuses,
            vec![
                ("contract", FamilyStatus::Pass),
                ("interface", FamilyStatus::Incomplete)
            ]
        );
    }

    #[test]
    fn a_skip_holds_back_its_family_unless_the_family_needs_an_interface() {
        for family in crate::Family::ALL {
            let checks: Vec<CheckEntry> = [("store.upsert", "contract", "pass"), ("x.y", family.as_str(), "skip")]
                .into_iter()
                .map(|(id, family, outcome)| {
                    serde_json::from_value(serde_json::json!({
                        "id": id, "family": family, "description": "", "outcome": outcome, "duration_ms": 1.0,
                        "message": (outcome == "skip").then_some(crate::checks::interface::NOT_SERVED)
                    }))
                    .unwrap()
                })
                .collect();
            let c = Conformance::of(&checks, RecallProfile::Lexical);
            let statuses: Vec<(&str, FamilyStatus)> = c
                .families
                .iter()
                .map(|f| (f.family.as_str(), f.status))
                .collect();
            let expected = if family.needs_interface() {
                vec![("contract", FamilyStatus::Pass)]
            } else if family == crate::Family::Contract {
                vec![("contract", FamilyStatus::Incomplete)]
            } else {
                vec![
                    ("contract", FamilyStatus::Pass),
                    (family.as_str(), FamilyStatus::Incomplete),
                ]
            };
            assert_eq!(statuses, expected, "{family}");
        }
    }

    /// The statuses of `checks` (JSON entries of interface skips beside a
    /// passing contract check), as a report reads them.
    fn statuses_of(checks: &[serde_json::Value]) -> Vec<(String, FamilyStatus)> {
        let mut entries: Vec<CheckEntry> = vec![serde_json::from_value(serde_json::json!({
            "id": "store.upsert", "family": "contract", "description": "", "outcome": "pass",
            "duration_ms": 1.0, "message": null, "reason": null, "counterexample": null
        }))
        .unwrap()];
        for check in checks {
            let mut entry = serde_json::json!({"id": "interface.langchain.delete",
                "family": "interface", "description": "", "outcome": "skip", "duration_ms": 1.0,
                "reason": null, "counterexample": null});
            for (k, v) in check.as_object().unwrap() {
                entry[k] = v.clone();
            }
            entries.push(serde_json::from_value(entry).unwrap());
        }
        Conformance::of(&entries, RecallProfile::Lexical)
            .families
            .into_iter()
            .map(|f| (f.family, f.status))
            .collect()
    }

    /// Whether the driver serves the interface is the entry's typed
    /// `not_served`, never its message: a skip of another cause whose
    /// text reads as the not-served one holds the family back, and a
    /// not-served skip whose message was reworded does not.
    #[test]
    fn not_served_is_read_from_the_typed_field_not_the_message() {
        let pass = ("contract".to_owned(), FamilyStatus::Pass);
        let incomplete = ("interface".to_owned(), FamilyStatus::Incomplete);
        let reworded = serde_json::json!({"message": "no interface here", "not_served": true});
        assert_eq!(statuses_of(&[reworded]), vec![pass.clone()]);
        let alike = serde_json::json!({"message": crate::checks::interface::NOT_SERVED,
            "not_served": false});
        assert_eq!(
            statuses_of(&[alike]),
            vec![pass.clone(), incomplete.clone()]
        );
        // A report written before the field existed: its skip's message
        // is the text those builds wrote, and reads as before.
        let old = serde_json::json!({"message": LEGACY_NOT_SERVED});
        assert_eq!(statuses_of(&[old]), vec![pass.clone()]);
        let old_other = serde_json::json!({"message": "the store implements neither path .."});
        assert_eq!(statuses_of(&[old_other]), vec![pass, incomplete]);
    }

    #[test]
    fn interface_checks_skipped_as_not_served_count_for_no_family() {
        let entry = |id: &str, family: &str, outcome: &str| -> CheckEntry {
            serde_json::from_value(serde_json::json!({
                "id": id, "family": family, "description": "", "outcome": outcome, "duration_ms": 1.0,
                "message": (outcome == "skip").then_some(crate::checks::interface::NOT_SERVED)
            }))
            .unwrap()
        };
        let pass = entry("store.upsert", "contract", "pass");
        let skipped = entry("interface.langchain.delete", "interface", "skip");
        let none = Conformance::of(&[pass.clone(), skipped.clone()], RecallProfile::Lexical);
        assert_eq!((none.level, none.families.len()), (Level::Full, 1));
        let failed = entry("interface.langchain.upsert", "interface", "fail");
        let one = Conformance::of(&[pass, skipped, failed], RecallProfile::Lexical);
        assert_eq!(one.level, Level::Partial);
        assert_eq!(
            one.families[1],
            FamilyLevel {
                family: "interface".to_owned(),
                status: FamilyStatus::Fail
            }
        );
    }
}
