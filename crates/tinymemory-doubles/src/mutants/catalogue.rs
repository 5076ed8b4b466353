//! The list of mutants.

use std::fmt;

use tinymemory_api::MemoryProvider;

use super::{
    DuplicatesOnStore, EngineSyntaxErrors, ForgetAlwaysTrue, IgnoresMinScore, InflatedCounts,
    LimitPlusOne, NegatedScores, SanitizesNamespaces,
};
use crate::{BoxedProvider, NoneMeansAll, TamperHits};

/// One entry of the catalogue: a way to break one contract sentence.
#[derive(Clone, Copy)]
pub struct Mutant {
    /// The id of the conformance check that must catch this mutant, such
    /// as `recall.limit`.
    pub id: &'static str,
    /// One line: how the wrapped driver misbehaves.
    pub description: &'static str,
    /// Wraps a (conforming) driver into the mutant.
    pub wrap: fn(Box<dyn MemoryProvider>) -> Box<dyn MemoryProvider>,
}

/// Shows `id` and `description`.
impl fmt::Debug for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mutant")
            .field("id", &self.id)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

static MUTANTS: [Mutant; 10] = [
    Mutant {
        id: "store.upsert",
        description: "a second store under the same key keeps the old entry too (duplicates in list and namespaces)",
        wrap: |p| Box::new(DuplicatesOnStore::new(BoxedProvider::new(p))),
    },
    Mutant {
        id: "recall.none_means_global",
        description: "recall with namespace None searches every namespace",
        wrap: |p| Box::new(NoneMeansAll::new(BoxedProvider::new(p))),
    },
    Mutant {
        id: "recall.hit_namespace",
        description: "recall hits carry namespace None",
        wrap: |p| Box::new(TamperHits::strip(BoxedProvider::new(p))),
    },
    Mutant {
        id: "recall.scores_finite_higher_better",
        description: "recall scores are negated: lower is better, like an unconverted bm25",
        wrap: |p| Box::new(NegatedScores::new(BoxedProvider::new(p))),
    },
    Mutant {
        id: "recall.limit",
        description: "recall returns up to limit + 1 hits, and one hit for limit 0",
        wrap: |p| Box::new(LimitPlusOne::new(BoxedProvider::new(p))),
    },
    Mutant {
        id: "recall.plain_text_query",
        description: "query syntax (quotes, *, (, AND, ...) and blank queries fail with an fts5 syntax error",
        wrap: |p| Box::new(EngineSyntaxErrors::new(BoxedProvider::new(p))),
    },
    Mutant {
        id: "recall.min_score",
        description: "recall ignores min_score",
        wrap: |p| Box::new(IgnoresMinScore::new(BoxedProvider::new(p))),
    },
    Mutant {
        id: "namespaces.exact_counts",
        description: "namespaces() reports every count one too high",
        wrap: |p| Box::new(InflatedCounts::new(BoxedProvider::new(p))),
    },
    Mutant {
        id: "namespace.invalid_refused",
        description: "an invalid namespace is silently rewritten to a valid one instead of refused",
        wrap: |p| Box::new(SanitizesNamespaces::new(BoxedProvider::new(p))),
    },
    Mutant {
        id: "forget.idempotent",
        description: "forget always returns true, even when nothing was there",
        wrap: |p| Box::new(ForgetAlwaysTrue::new(BoxedProvider::new(p))),
    },
];

/// Every mutant, one per contract sentence, in the order of the sentences
/// (`store.upsert` first, `forget.idempotent` last). Ids are unique.
#[must_use]
pub fn mutants() -> &'static [Mutant] {
    &MUTANTS
}

/// The mutant whose [`Mutant::id`] is `id`, if any.
#[must_use]
pub fn mutant(id: &str) -> Option<&'static Mutant> {
    MUTANTS.iter().find(|m| m.id == id)
}
