//! The merge order of a section recall.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryTaint};

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

/// The merge step of `across_section`, on its own: takes the
/// per-namespace hit lists, orders their hits per `strategy` and keeps the
/// first `limit` (`min(limit, total hits)` of them). Exposed so benches
/// time the real code and hosts that fan out themselves merge the same
/// way.
///
/// - **Order**: [`compare_hits`] (or the fused scores of
///   [`MergeStrategy::ReciprocalRank`], ordered the same way). On hits with
///   distinct `(namespace, key)`, which is what a fan-out hands over, the
///   output is that order's first `limit` hits, whatever the order of the
///   lists and of the hits within them. Hits that share a `(namespace, key)`
///   and tie come in input order (by list, then by place in the list).
/// - **Output**: the input hits themselves, moved, byte for byte; only
///   [`MergeStrategy::ReciprocalRank`] rewrites `score`.
/// - **Cost** ([`MergeStrategy::Score`]): a k-way merge. One pass checks
///   that each list is already in merge order, as drivers return hits best
///   first (`total - lists` comparisons); a list out of order gets a sorted
///   vector of positions (`O(n log n)` for its `n` hits). Then a binary heap
///   of the lists' heads yields the first `limit`: `O(limit · log lists)`
///   comparisons. Only the kept hits are moved; the rest are dropped where
///   they lie. A single non-empty list is checked, sorted if out of order
///   and cut in place. [`MergeStrategy::ReciprocalRank`] first sorts each list by
///   [`compare_hits`] to rank it. The `merge_candidates` bench
///   (`docs/benchmarks.md`) times this against a selection on entries (the
///   merge before), a sort or selection on precomputed keys and a k-way
///   merge on per-hit keys.
#[must_use]
pub fn merge_hits(
    per_namespace: Vec<Vec<MemoryEntry>>,
    limit: usize,
    strategy: MergeStrategy,
) -> Vec<MemoryEntry> {
    match strategy {
        MergeStrategy::Score => first_in_order(per_namespace, limit),
        MergeStrategy::ReciprocalRank { k } => by_reciprocal_rank(per_namespace, limit, k),
    }
}

fn by_reciprocal_rank(
    mut per_namespace: Vec<Vec<MemoryEntry>>,
    limit: usize,
    k: u32,
) -> Vec<MemoryEntry> {
    for list in &mut per_namespace {
        list.sort_by(compare_hits);
        for (i, hit) in list.iter_mut().enumerate() {
            #[expect(clippy::cast_precision_loss, reason = "ranks are far below 2^52")]
            let rank = (i + 1) as f64;
            hit.score = Some(1.0 / (f64::from(k) + rank));
        }
    }
    first_in_order(per_namespace, limit)
}

/// The score part of [`compare_hits`] as one integer, smaller first:
/// finite scores descending with `-0.0` equal to `0.0`, then every absent
/// or non-finite score, all equal (`u64::MAX`). Computing it is a few
/// integer operations, so the merge derives it whenever it compares.
fn score_key(score: Option<f64>) -> u64 {
    match score {
        Some(s) if s.is_finite() => {
            // `+ 0.0` turns -0.0 into 0.0 and leaves every other value alone.
            let bits = (s + 0.0).to_bits();
            // The sign flip that makes float order unsigned integer order
            // (as `f64::total_cmp` does), then reversed: best first.
            let ascending = if bits >> 63 == 1 {
                !bits
            } else {
                bits | 1 << 63
            };
            // Never `u64::MAX`: that needs all 64 bits set, a NaN.
            !ascending
        }
        _ => u64::MAX,
    }
}

/// [`compare_hits`], through [`score_key`].
fn merge_cmp(a: &MemoryEntry, b: &MemoryEntry) -> Ordering {
    score_key(a.score)
        .cmp(&score_key(b.score))
        .then_with(|| a.namespace.cmp(&b.namespace))
        .then_with(|| a.key.cmp(&b.key))
}

/// The first `limit` hits of all `lists` in [`compare_hits`] order, by a
/// k-way merge of the lists (see [`merge_hits`] for the cost).
fn first_in_order(mut lists: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    if limit == 0 {
        return Vec::new();
    }
    if lists.iter().filter(|l| !l.is_empty()).count() <= 1 {
        // One list (a section of one namespace): ordered and cut in place,
        // with no allocation. `sort_by` is stable, as the k-way merge is.
        let mut only = lists
            .into_iter()
            .find(|l| !l.is_empty())
            .unwrap_or_default();
        if !only.is_sorted_by(|a, b| merge_cmp(a, b).is_le()) {
            only.sort_by(merge_cmp);
        }
        only.truncate(limit);
        return only;
    }
    // Per list, `None` when it is already in merge order, else its
    // positions in that order (a stable sort: equal hits keep input order).
    let orders: Vec<Option<Vec<usize>>> = lists
        .iter()
        .map(|hits| {
            if hits.windows(2).all(|w| merge_cmp(&w[0], &w[1]).is_le()) {
                return None;
            }
            let mut order: Vec<usize> = (0..hits.len()).collect();
            order.sort_by(|&a, &b| merge_cmp(&hits[a], &hits[b]));
            Some(order)
        })
        .collect();
    let picked: Vec<(usize, usize)> = {
        // The heap entry of a list's `cursor`-th hit in merge order. The
        // list index breaks the last ties, so equal hits leave in input
        // order.
        let head = |list: usize, cursor: usize| {
            let pos = orders[list]
                .as_ref()
                .map_or(Some(cursor), |o| o.get(cursor).copied())?;
            let hit = lists[list].get(pos)?;
            Some(Reverse((
                score_key(hit.score),
                hit.namespace.as_deref(),
                hit.key.as_str(),
                list,
                cursor,
                pos,
            )))
        };
        let mut heap: BinaryHeap<_> = (0..lists.len()).filter_map(|l| head(l, 0)).collect();
        let total: usize = lists.iter().map(Vec::len).sum();
        let mut picked = Vec::with_capacity(limit.min(total));
        while picked.len() < limit {
            let Some(Reverse((_, _, _, list, cursor, pos))) = heap.pop() else {
                break;
            };
            picked.push((list, pos));
            if let Some(next) = head(list, cursor + 1) {
                heap.push(next);
            }
        }
        picked
    };
    picked
        .into_iter()
        .map(|(list, pos)| std::mem::replace(&mut lists[list][pos], vacated()))
        .collect()
}

/// What a moved-out hit leaves behind: an entry owning no heap memory, so
/// dropping the lists afterwards frees only the hits not kept.
fn vacated() -> MemoryEntry {
    MemoryEntry {
        id: String::new(),
        key: String::new(),
        content: String::new(),
        namespace: None,
        category: MemoryCategory::Core,
        timestamp: String::new(),
        session_id: None,
        score: None,
        taint: MemoryTaint::Internal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        first_in_order(vec![hits], usize::MAX)
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
            let got: Vec<_> = first_in_order(all.chunks(4).map(<[_]>::to_vec).collect(), limit)
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
        let got: Vec<_> = first_in_order(all, 2).into_iter().map(|h| h.key).collect();
        assert_eq!(got, ["b", "c"]);
    }

    #[test]
    fn score_keys_order_like_compare_hits() {
        let best_first = [
            Some(f64::MAX),
            Some(1.0),
            Some(f64::MIN_POSITIVE),
            Some(f64::from_bits(1)),
            Some(0.0),
            Some(-f64::from_bits(1)),
            Some(-1.0),
            Some(f64::MIN),
        ];
        let keys: Vec<u64> = best_first.iter().map(|&s| score_key(s)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:x?}");
        assert_eq!(score_key(Some(-0.0)), score_key(Some(0.0)));
        assert_eq!(score_key(Some(f64::MIN)), 0xffef_ffff_ffff_ffff);
        for last in [
            None,
            Some(f64::NAN),
            Some(-f64::NAN),
            Some(f64::INFINITY),
            Some(f64::NEG_INFINITY),
        ] {
            assert_eq!(score_key(last), u64::MAX);
        }
    }

    #[test]
    fn lists_out_of_order_are_merged_in_order() {
        let all = vec![
            vec![hit("n:b", "y", Some(1.0)), hit("n:b", "x", Some(3.0))],
            vec![],
            vec![
                hit("n:a", "c", None),
                hit("n:a", "b", Some(2.0)),
                hit("n:a", "a", Some(2.0)),
            ],
        ];
        let got: Vec<_> = merge_hits(all, 4, MergeStrategy::Score)
            .into_iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(got, ["n:b/x", "n:a/a", "n:a/b", "n:b/y"]);
    }

    #[test]
    fn equal_hits_keep_input_order() {
        let mut first = hit("n:a", "k", Some(1.0));
        first.content = "first".to_owned();
        let mut second = first.clone();
        second.content = "second".to_owned();
        let mut third = first.clone();
        third.content = "third".to_owned();
        third.score = Some(-0.0);
        let mut fourth = first.clone();
        fourth.content = "fourth".to_owned();
        fourth.score = Some(0.0);
        let all = vec![
            vec![fourth.clone(), first.clone()],
            vec![third.clone(), second.clone()],
        ];
        let got: Vec<_> = merge_hits(all, 10, MergeStrategy::Score)
            .into_iter()
            .map(|h| h.content)
            .collect();
        assert_eq!(got, ["first", "second", "fourth", "third"]);
    }
}
