//! Applying a sequence to a driver and to the model.

use tinymemory_api::{MemoryProvider, RecallProfile};

use super::compare::step;
use super::spec::SpecModel;
use super::{Divergence, Op};

/// Applies `ops` in order to `driver` and to a fresh model of the
/// contract (written in this crate, no driver of the workspace), comparing
/// every answer.
///
/// `driver` must be fresh and empty, as the model is. Answers are compared
/// so that any conforming driver agrees with the model, whatever its
/// scoring formula:
///
/// - **errors**: by kind and rule id (`invalid (namespace.charset)`), never
///   by message;
/// - **`store`, `forget`**: the result exactly;
/// - **`get`, `list`**: the entries exactly (namespace, key, content,
///   category, session, taint, score), in order; ids and timestamps are the
///   driver's own and not compared;
/// - **`namespaces`**: the set of `(namespace, count)`, since the order is
///   unspecified; `last_updated` is not compared;
/// - **`scopes`**: `(scope, namespace, count)` in order;
/// - **`recall`**: with `M` the model's hits for an unlimited limit, the
///   driver returns `min(limit, |M|)` distinct hits, each an entry of `M`
///   with its stored fields and `namespace: Some(the one searched)`, scores
///   finite and non-increasing; all of `M` when `limit >= |M|`; and when
///   `limit < |M|`, hits scoring at least every entry of `M` left out (by
///   the driver's own scores, from a second, unlimited recall). With two
///   matches or more, the same recall with limit 1 is asked too, and its
///   one hit must score at least every other match. The
///   model's score values and its order are never required: a driver with
///   another formula (SQLite's bm25) may rank the same matches differently;
/// - **`across_section`**: `searched` and `truncated` exactly (they depend
///   on the stored data alone); hits in the merge order, `min(limit,
///   total)` of them, where `total` sums `min(limit, |M_ns|)` over the
///   searched namespaces, each an entry of its namespace's `M_ns`, and all
///   of them when no namespace had more than `limit` matches.
///
/// Every recall is asked twice, and both answers must be identical to the
/// score bits (`recall.deterministic`).
///
/// This is [`replay_as`] under [`RecallProfile::Lexical`].
///
/// # Errors
///
/// The first [`Divergence`]: its step, call and what differed.
pub async fn replay(driver: &dyn MemoryProvider, ops: &[Op]) -> Result<(), Divergence> {
    replay_as(driver, ops, RecallProfile::Lexical).await
}

/// [`replay`], comparing recall answers by what `profile` guarantees.
///
/// Under [`RecallProfile::Semantic`] a recall may return any entries of
/// the pinned namespace passing the filters (the model's `list`), not only
/// those sharing a word with the query: at most `min(limit, |P|)` distinct
/// entries of that pool `P`, as stored, carrying the namespace searched,
/// scores finite and non-increasing; and the same recall with limit `|P|`
/// returns a ranking of which these hits are the first `min(limit, its
/// length)`, scoring at least every hit they leave out. `across_section`
/// hits are then `min(limit, total)` with `total` the sum of the driver's
/// own pinned recalls, each an entry of its namespace's pool. Everything
/// else (stores, reads, counts, errors, `searched`, `truncated`, the merge
/// order, determinism) is compared as under the lexical profile.
///
/// # Errors
///
/// The first [`Divergence`]: its step, call and what differed.
pub async fn replay_as(
    driver: &dyn MemoryProvider,
    ops: &[Op],
    profile: RecallProfile,
) -> Result<(), Divergence> {
    let model = SpecModel::new();
    for (i, op) in ops.iter().enumerate() {
        step(driver, &model, op, profile)
            .await
            .map_err(|failure| Divergence {
                step: i + 1,
                op: op.clone(),
                message: failure.message,
                driver_error: failure.driver_error,
            })?;
    }
    Ok(())
}
