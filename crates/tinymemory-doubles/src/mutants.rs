//! A catalogue of mutants: one wrapper per contract sentence, each breaking
//! exactly that sentence.
//!
//! A conformance suite is only as good as the faults it catches. Each
//! [`Mutant`] wraps a conforming driver (the reference driver, in the
//! self-test) and breaks one sentence of the contract in a way a
//! straightforward check must notice; its [`Mutant::id`] is the id of that
//! check. The self-test runs every check against every mutant and expects
//! each mutant to be caught by the check it names.
//!
//! | id | wrapper | how it breaks the sentence |
//! | --- | --- | --- |
//! | `store.upsert` | [`DuplicatesOnStore`] | a second store under a key keeps the old entry too: both show in `list` and in the `namespaces()` count |
//! | `recall.none_means_global` | [`NoneMeansAll`](crate::NoneMeansAll) | an unpinned recall searches every namespace |
//! | `recall.hit_namespace` | [`TamperHits::strip`](crate::TamperHits::strip) | every recall hit has `namespace: None` |
//! | `recall.scores_finite_higher_better` | [`NegatedScores`] | scores are negated (lower is better), like an unconverted bm25 |
//! | `recall.limit` | [`LimitPlusOne`] | returns up to `limit + 1` hits; `limit == 0` gives one hit |
//! | `recall.plain_text_query` | [`EngineSyntaxErrors`] | query syntax (`"`, `*`, `(`, `AND`, ...) and blank queries are a backend error |
//! | `recall.min_score` | [`IgnoresMinScore`] | `min_score` is ignored |
//! | `namespaces.exact_counts` | [`InflatedCounts`] | every count in `namespaces()` is one too high |
//! | `namespace.invalid_refused` | [`SanitizesNamespaces`] | an invalid namespace is silently rewritten to a valid one |
//! | `forget.idempotent` | [`ForgetAlwaysTrue`] | `forget` always returns `true` |
//!
//! Each wrapper's documentation states what else a check could see
//! (overlap with other sentences), and every wrapper forwards `driver_id`,
//! so a mutant reports the id of the driver it wraps.

mod catalogue;
mod exact_counts;
mod forget;
mod invalid_refused;
mod limit;
mod min_score;
mod plain_text_query;
mod scores;
mod store_upsert;

pub use catalogue::{mutant, mutants, Mutant};
pub use exact_counts::InflatedCounts;
pub use forget::ForgetAlwaysTrue;
pub use invalid_refused::{sanitize_namespace, SanitizesNamespaces};
pub use limit::LimitPlusOne;
pub use min_score::IgnoresMinScore;
pub use plain_text_query::EngineSyntaxErrors;
pub use scores::NegatedScores;
pub use store_upsert::DuplicatesOnStore;
