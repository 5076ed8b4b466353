//! The score merge as it was before the keyed merge replaced it: a verbatim
//! copy of `compare_hits`, `merge_hits` and their helpers from
//! `src/recall/merge.rs` at commit 36a554c, kept as the oracle the new
//! merge must match byte for byte. Do not edit it to follow the new code.

use std::cmp::Ordering;

use tinymemory_api::MemoryEntry;
use tinymemory_sections::MergeStrategy;

pub fn compare_hits(a: &MemoryEntry, b: &MemoryEntry) -> Ordering {
    let rank = |e: &MemoryEntry| e.score.filter(|s| s.is_finite());
    let by_score = match (rank(a), rank(b)) {
        // Finite values always compare; `Equal` is unreachable for `None`.
        (Some(x), Some(y)) => y.partial_cmp(&x).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    by_score
        .then_with(|| a.namespace.cmp(&b.namespace))
        .then_with(|| a.key.cmp(&b.key))
}

pub fn merge_hits(
    per_namespace: Vec<Vec<MemoryEntry>>,
    limit: usize,
    strategy: MergeStrategy,
) -> Vec<MemoryEntry> {
    match strategy {
        MergeStrategy::Score => by_score(per_namespace, limit),
        MergeStrategy::ReciprocalRank { k } => by_reciprocal_rank(per_namespace, limit, k),
    }
}

fn by_reciprocal_rank(
    per_namespace: Vec<Vec<MemoryEntry>>,
    limit: usize,
    k: u32,
) -> Vec<MemoryEntry> {
    let mut fused = Vec::new();
    for mut list in per_namespace {
        list.sort_by(compare_hits);
        for (i, mut hit) in list.into_iter().enumerate() {
            #[expect(clippy::cast_precision_loss, reason = "ranks are far below 2^52")]
            let rank = (i + 1) as f64;
            hit.score = Some(1.0 / (f64::from(k) + rank));
            fused.push(hit);
        }
    }
    first_in_order(fused, limit)
}

fn by_score(per_namespace: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    let all: Vec<MemoryEntry> = per_namespace.into_iter().flatten().collect();
    first_in_order(all, limit)
}

fn first_in_order(mut hits: Vec<MemoryEntry>, limit: usize) -> Vec<MemoryEntry> {
    if limit == 0 {
        hits.clear();
        return hits;
    }
    if hits.len() > limit {
        hits.select_nth_unstable_by(limit - 1, compare_hits);
        hits.truncate(limit);
    }
    hits.sort_by(compare_hits);
    hits
}
