//! The merge order of doubles that gather hits from several recalls.

use std::cmp::Ordering;

use tinymemory_api::MemoryEntry;

/// Score descending by [`f64::total_cmp`], hits without a score last, ties
/// by `(namespace, key)` ascending: a total order, so merged output does
/// not depend on the order the recalls ran in.
pub(crate) fn merge_order(a: &MemoryEntry, b: &MemoryEntry) -> Ordering {
    let by_score = match (a.score, b.score) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    by_score
        .then_with(|| a.namespace.cmp(&b.namespace))
        .then_with(|| a.key.cmp(&b.key))
}
