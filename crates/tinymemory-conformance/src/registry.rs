//! The set of checks a run executes.

use tinymemory_api::RecallProfile;

use crate::{Check, Family};

/// An ordered set of checks with unique ids.
#[derive(Debug, Clone)]
pub struct Registry {
    checks: Vec<Check>,
}

impl Registry {
    /// Every standard check, in the order of the table in `src/checks.rs`:
    /// contract sentences 1 to 10 in the order `MemoryProvider` states them, the rest of the contract
    /// family (sentence 11, `recall.namespace_isolation`, among them), the
    /// section checks, the corpus checks, the portability family, the
    /// properties and the model.
    #[must_use]
    pub fn standard() -> Self {
        Self {
            checks: crate::checks::all(),
        }
    }

    /// A registry of exactly these checks, in this order; for driver
    /// authors' own checks.
    ///
    /// # Panics
    ///
    /// When two checks share an id: reports key on ids.
    #[must_use]
    pub fn from_checks(checks: Vec<Check>) -> Self {
        for (i, c) in checks.iter().enumerate() {
            assert!(
                checks[..i].iter().all(|d| d.id != c.id),
                "duplicate check id {:?}",
                c.id
            );
        }
        Self { checks }
    }

    /// The checks, in run order.
    #[must_use]
    pub fn checks(&self) -> &[Check] {
        &self.checks
    }

    /// The check with this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.id == id)
    }

    /// The checks of one family, in run order.
    #[must_use]
    pub fn family(&self, family: Family) -> Self {
        self.filter(|c| c.family == family)
    }

    /// The checks that apply to `profile` ([`Check::profiles`]), in run
    /// order: what a run against a driver of that profile executes.
    #[must_use]
    pub fn for_profile(&self, profile: RecallProfile) -> Self {
        self.filter(|c| c.profiles.contains(profile))
    }

    /// The checks for which `keep` is true, in run order.
    #[must_use]
    pub fn filter(&self, keep: impl Fn(&Check) -> bool) -> Self {
        Self {
            checks: self.checks.iter().copied().filter(|c| keep(c)).collect(),
        }
    }

    /// Number of checks.
    #[must_use]
    pub fn len(&self) -> usize {
        self.checks.len()
    }

    /// `true` when there are no checks.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.checks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_well_formed() {
        let r = Registry::standard();
        let mut ids: Vec<_> = r.checks().iter().map(|c| c.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), r.len());
        for id in ids {
            assert!(
                id.split_once('.')
                    .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty()),
                "{id}"
            );
        }
        let sentences: Vec<_> = r.checks()[..10].iter().map(|c| c.id).collect();
        assert_eq!(
            sentences,
            [
                "store.upsert",
                "recall.none_means_global",
                "recall.hit_namespace",
                "recall.scores_finite_higher_better",
                "recall.limit",
                "recall.plain_text_query",
                "recall.min_score",
                "namespaces.exact_counts",
                "namespace.invalid_refused",
                "forget.idempotent",
            ],
            "the ten contract sentences come first, in the order MemoryProvider states them"
        );
    }
}
