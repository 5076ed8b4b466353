//! Checks a driver is known to fail, each with a written reason.

use std::collections::BTreeMap;

use crate::{Outcome, Registry, RunSummary};

/// Why a set of expected failures is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExpectationError {
    /// Every expected failure needs a reason a reader can judge.
    #[error(
        "failed to expect check {id:?} to fail: the reason is empty; say why the driver fails it"
    )]
    MissingReason {
        /// The check id.
        id: String,
    },
    /// A check may be declared once.
    #[error("failed to expect check {id:?} to fail: it is already declared")]
    Duplicate {
        /// The check id.
        id: String,
    },
    /// A declaration for a check that does not exist would never be
    /// noticed going stale.
    #[error("failed to expect check {id:?} to fail: no check has this id (see `tinymemory-conformance list`)")]
    UnknownCheck {
        /// The id given.
        id: String,
    },
    /// A declaration for a check the run's recall profile does not apply
    /// would never be noticed going stale either.
    #[error(
        "failed to expect check {id:?} to fail: it applies to the {applies} recall profile, and this driver is {profile}, so it never runs"
    )]
    NotApplicable {
        /// The check id.
        id: String,
        /// The profiles the check applies to (`lexical`, `semantic`).
        applies: String,
        /// The run's profile.
        profile: tinymemory_api::RecallProfile,
    },
}

/// The checks a driver is declared to fail, each with its reason.
///
/// Applied to an outcome ([`ExpectedFailures::apply`]), a declared check
/// that fails becomes [`Outcome::ExpectedFailure`] (not counted as a
/// failure) and one that passes becomes [`Outcome::UnexpectedPass`]
/// (counted as a failure, so the stale declaration gets removed). A skip
/// stays a skip: it neither confirms nor refutes the declaration.
///
/// ```
/// use tinymemory_conformance::{ExpectedFailures, Failure, Outcome};
///
/// let expected = ExpectedFailures::new()
///     .expect("recall.limit", "the engine rounds the limit up to a page")
///     .unwrap();
/// let failed = Outcome::Fail(Failure::new("6 hits for limit 5"));
/// assert!(matches!(expected.apply("recall.limit", failed), Outcome::ExpectedFailure { .. }));
/// assert!(expected.apply("recall.limit", Outcome::Pass).is_fail());
/// assert!(ExpectedFailures::new().expect("recall.limit", " ").is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpectedFailures {
    reasons: BTreeMap<String, String>,
}

impl ExpectedFailures {
    /// No expected failure.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares that check `id` fails, because `reason`.
    ///
    /// # Errors
    ///
    /// [`ExpectationError::MissingReason`] for a blank reason,
    /// [`ExpectationError::Duplicate`] for an id already declared.
    pub fn expect(
        mut self,
        id: impl Into<String>,
        reason: impl Into<String>,
    ) -> Result<Self, ExpectationError> {
        let (id, reason) = (id.into(), reason.into());
        if reason.trim().is_empty() {
            return Err(ExpectationError::MissingReason { id });
        }
        if self.reasons.contains_key(&id) {
            return Err(ExpectationError::Duplicate { id });
        }
        self.reasons.insert(id, reason);
        Ok(self)
    }

    /// Checks that every declared id names a check of `registry`.
    ///
    /// # Errors
    ///
    /// [`ExpectationError::UnknownCheck`] for the first id that does not.
    pub fn validate(&self, registry: &Registry) -> Result<(), ExpectationError> {
        match self.reasons.keys().find(|id| registry.get(id).is_none()) {
            Some(id) => Err(ExpectationError::UnknownCheck { id: id.clone() }),
            None => Ok(()),
        }
    }

    /// [`ExpectedFailures::validate`], and every declared check applies to
    /// `profile`.
    ///
    /// # Errors
    ///
    /// [`ExpectationError::UnknownCheck`] or
    /// [`ExpectationError::NotApplicable`] for the first id that fails.
    pub fn validate_for(
        &self,
        registry: &Registry,
        profile: tinymemory_api::RecallProfile,
    ) -> Result<(), ExpectationError> {
        self.validate(registry)?;
        for id in self.reasons.keys() {
            if let Some(check) = registry.get(id) {
                if !check.profiles.contains(profile) {
                    return Err(ExpectationError::NotApplicable {
                        id: id.clone(),
                        applies: check.profiles.to_string(),
                        profile,
                    });
                }
            }
        }
        Ok(())
    }

    /// The reason given for `id`, if it is declared.
    #[must_use]
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.reasons.get(id).map(String::as_str)
    }

    /// The declared ids and reasons, ordered by id.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.reasons.iter().map(|(id, r)| (id.as_str(), r.as_str()))
    }

    /// `true` when nothing is declared.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.reasons.is_empty()
    }

    /// The outcome of check `id` in the light of the declarations (see the
    /// type's documentation).
    #[must_use]
    pub fn apply(&self, id: &str, outcome: Outcome) -> Outcome {
        let Some(reason) = self.reason(id) else {
            return outcome;
        };
        match outcome {
            Outcome::Fail(failure) => Outcome::ExpectedFailure {
                reason: reason.to_owned(),
                failure,
            },
            Outcome::Pass => Outcome::UnexpectedPass {
                reason: reason.to_owned(),
            },
            other => other,
        }
    }

    /// Applies the declarations to every report of a run.
    pub fn apply_to(&self, summary: &mut RunSummary) {
        for report in &mut summary.reports {
            let outcome = std::mem::replace(&mut report.outcome, Outcome::Pass);
            report.outcome = self.apply(report.id, outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Failure;

    #[test]
    fn declarations_need_a_reason_and_a_real_check() {
        assert_eq!(
            ExpectedFailures::new().expect("recall.limit", ""),
            Err(ExpectationError::MissingReason {
                id: "recall.limit".into()
            })
        );
        let one = ExpectedFailures::new()
            .expect("recall.limit", "pages")
            .unwrap();
        assert_eq!(
            one.clone().expect("recall.limit", "again"),
            Err(ExpectationError::Duplicate {
                id: "recall.limit".into()
            })
        );
        assert_eq!(one.validate(&Registry::standard()), Ok(()));
        let typo = ExpectedFailures::new()
            .expect("recall.limits", "pages")
            .unwrap();
        assert_eq!(
            typo.validate(&Registry::standard()),
            Err(ExpectationError::UnknownCheck {
                id: "recall.limits".into()
            })
        );
    }

    #[test]
    fn a_declaration_for_a_check_of_another_profile_is_refused() {
        use tinymemory_api::RecallProfile;
        let expected = ExpectedFailures::new()
            .expect("recall.scores_finite_higher_better", "a distance")
            .unwrap();
        let registry = Registry::standard();
        assert_eq!(
            expected.validate_for(&registry, RecallProfile::Lexical),
            Ok(())
        );
        let refused = expected
            .validate_for(&registry, RecallProfile::Semantic)
            .unwrap_err();
        assert_eq!(
            refused.to_string(),
            "failed to expect check \"recall.scores_finite_higher_better\" to fail: it applies to the lexical \
             recall profile, and this driver is semantic, so it never runs"
        );
    }

    #[test]
    fn apply_turns_failures_expected_and_passes_stale() {
        let e = ExpectedFailures::new()
            .expect("recall.limit", "pages")
            .unwrap();
        let failure = Failure::new("6 hits");
        assert_eq!(
            e.apply("recall.limit", Outcome::Fail(failure.clone())),
            Outcome::ExpectedFailure {
                reason: "pages".into(),
                failure: failure.clone()
            }
        );
        assert_eq!(
            e.apply("recall.limit", Outcome::Pass),
            Outcome::UnexpectedPass {
                reason: "pages".into()
            }
        );
        assert_eq!(
            e.apply("recall.limit", Outcome::Skip("no corpus".into())),
            Outcome::Skip("no corpus".into())
        );
        // A timeout broke no rule, so it is not the declared failure.
        assert_eq!(
            e.apply("recall.limit", Outcome::Timeout("ran past".into())),
            Outcome::Timeout("ran past".into())
        );
        assert_eq!(
            e.apply("store.upsert", Outcome::Fail(failure.clone())),
            Outcome::Fail(failure)
        );
    }
}
