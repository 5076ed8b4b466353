//! The merge order of a section recall.

use std::cmp::Ordering;

use tinymemory_api::MemoryEntry;

/// The merge order of `across_section`: score descending; hits whose score
/// is absent or not finite (NaN of either sign, ±inf) after every finite
/// score, so one NaN cannot outrank real hits; ties, including among the
/// unscored, by `(namespace, key)` ascending (bytewise). `-0.0` and `0.0`
/// tie.
///
/// This is a total order on hits with distinct `(namespace, key)`, so a sort
/// by it gives one answer whatever the input order.
#[must_use]
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

/// How `across_section` merges the per-namespace hit lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MergeStrategy {
    /// By the drivers' scores ([`compare_hits`]). Right when a driver's
    /// scores compare across namespaces, as the reference driver's do.
    #[default]
    Score,
    /// Reciprocal rank fusion (Cormack, Clarke and Büttcher, "Reciprocal
    /// Rank Fusion outperforms Condorcet and individual Rank Learning
    /// Methods", SIGIR 2009): each hit's score becomes `1 / (k + rank)`,
    /// where `rank` is its 1-based place in its own namespace's list (that
    /// list ordered by [`compare_hits`]), and hits are merged by that fused
    /// score, ties by `(namespace, key)`.
    ///
    /// Use it when a driver's scores are not comparable across namespaces,
    /// for example bm25, whose IDF depends on each namespace's own document
    /// frequencies, so one namespace's 4.0 means nothing next to another's.
    /// Each hit appears in exactly one namespace's list, so the order is a
    /// round-robin by rank; `k` changes only the reported score values. The
    /// hit's `score` field holds the fused score, as Elasticsearch's RRF
    /// retriever reports it in `_score`.
    ReciprocalRank {
        /// The smoothing constant; the paper's 60 is
        /// [`DEFAULT_RRF_K`].
        k: u32,
    },
}

impl MergeStrategy {
    /// [`MergeStrategy::ReciprocalRank`] with [`DEFAULT_RRF_K`].
    #[must_use]
    pub const fn reciprocal_rank() -> Self {
        Self::ReciprocalRank { k: DEFAULT_RRF_K }
    }
}

/// The `k` of reciprocal rank fusion that Cormack, Clarke and Büttcher
/// (SIGIR 2009) found robust: 60.
pub const DEFAULT_RRF_K: u32 = 60;

/// The merge step of `across_section`, on its own: flattens the
/// per-namespace hit lists, orders them per `strategy` and keeps the first
/// `limit`. Exposed so benches time the real code and hosts that fan out
/// themselves merge the same way.
///
/// Cost: `O(total + limit · log limit)` comparisons for
/// [`MergeStrategy::Score`] (a selection of the first `limit`, then a sort
/// of only those), plus a sort of each namespace's list for
/// [`MergeStrategy::ReciprocalRank`].
#[must_use]
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

/// Flattens the per-namespace hits and keeps the first `limit` in
/// [`compare_hits`] order.
fn by_score(per_namespace: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    let all: Vec<MemoryEntry> = per_namespace.into_iter().flatten().collect();
    first_in_order(all, limit)
}

/// The first `limit` of `hits` in [`compare_hits`] order. Selecting before
/// sorting gives the same hits in the same order as a full sort, because
/// `compare_hits` is a total order on hits with distinct
/// `(namespace, key)`, and it sorts only `limit` of them.
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

#[cfg(test)]
mod tests {
    use super::*;
    use tinymemory_api::{MemoryCategory, MemoryTaint};

    fn hit(ns: &str, key: &str, score: Option<f64>) -> MemoryEntry {
        MemoryEntry {
            id: format!("{ns}/{key}"),
            key: key.to_owned(),
            content: String::new(),
            namespace: Some(ns.to_owned()),
            category: MemoryCategory::Core,
            timestamp: String::new(),
            session_id: None,
            score,
            taint: MemoryTaint::Internal,
        }
    }

    fn order(hits: Vec<MemoryEntry>) -> Vec<String> {
        by_score(vec![hits], usize::MAX)
            .into_iter()
            .map(|h| format!("{}/{}", h.namespace.unwrap(), h.key))
            .collect()
    }

    #[test]
    fn nan_and_none_come_after_every_finite_score() {
        let got = order(vec![
            hit("n:a", "nan", Some(f64::NAN)),
            hit("n:a", "negnan", Some(-f64::NAN)),
            hit("n:a", "none", None),
            hit("n:a", "inf", Some(f64::INFINITY)),
            hit("n:a", "neginf", Some(f64::NEG_INFINITY)),
            hit("n:a", "low", Some(-1e300)),
            hit("n:a", "high", Some(2.0)),
            hit("n:a", "tiny", Some(f64::MIN_POSITIVE / 2.0)),
        ]);
        assert_eq!(
            got,
            [
                "n:a/high",
                "n:a/tiny",
                "n:a/low",
                "n:a/inf",
                "n:a/nan",
                "n:a/neginf",
                "n:a/negnan",
                "n:a/none"
            ]
        );
    }

    #[test]
    fn ties_break_by_namespace_then_key() {
        let got = order(vec![
            hit("n:b", "a", Some(1.0)),
            hit("n:a", "z", Some(1.0)),
            hit("n:a", "b", Some(1.0)),
            hit("n:a", "zero", Some(0.0)),
            hit("n:a", "negzero", Some(-0.0)),
        ]);
        assert_eq!(got, ["n:a/b", "n:a/z", "n:b/a", "n:a/negzero", "n:a/zero"]);
    }

    #[test]
    fn reciprocal_rank_interleaves_by_rank() {
        let all = vec![
            vec![
                hit("n:a", "a1", Some(100.0)),
                hit("n:a", "a2", Some(90.0)),
                hit("n:a", "a3", Some(80.0)),
            ],
            vec![hit("n:b", "b2", Some(0.1)), hit("n:b", "b1", Some(0.2))],
        ];
        let got: Vec<_> = merge_hits(all, 4, MergeStrategy::ReciprocalRank { k: 60 })
            .into_iter()
            .map(|h| (h.key, h.score))
            .collect();
        assert_eq!(
            got,
            [
                ("a1".to_owned(), Some(1.0 / 61.0)),
                ("b1".to_owned(), Some(1.0 / 61.0)),
                ("a2".to_owned(), Some(1.0 / 62.0)),
                ("b2".to_owned(), Some(1.0 / 62.0)),
            ]
        );
    }

    #[test]
    fn selection_equals_a_full_sort_for_every_limit() {
        let scores = [
            Some(1.0),
            None,
            Some(f64::NAN),
            Some(3.0),
            Some(1.0),
            Some(-0.0),
            Some(0.0),
            Some(f64::INFINITY),
            Some(2.5),
            None,
            Some(1.0),
        ];
        let all: Vec<MemoryEntry> = scores
            .iter()
            .enumerate()
            .map(|(i, s)| hit(&format!("n:{}", i % 3), &format!("k{i:02}"), *s))
            .collect();
        let mut sorted = all.clone();
        sorted.sort_by(compare_hits);
        for limit in 0..=all.len() + 2 {
            let want: Vec<_> = sorted.iter().take(limit).map(|h| h.id.clone()).collect();
            let got: Vec<_> = first_in_order(all.clone(), limit)
                .into_iter()
                .map(|h| h.id)
                .collect();
            assert_eq!(got, want, "limit {limit}");
        }
    }

    #[test]
    fn keeps_the_first_limit() {
        let all = vec![
            vec![hit("n:a", "a", Some(1.0)), hit("n:a", "b", Some(3.0))],
            vec![hit("n:b", "c", Some(2.0))],
        ];
        let got: Vec<_> = by_score(all, 2).into_iter().map(|h| h.key).collect();
        assert_eq!(got, ["b", "c"]);
    }
}
