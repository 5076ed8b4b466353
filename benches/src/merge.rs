//! The score merge of `across_section`, as the benches run it, and the
//! candidate merges the `merge` bench times beside it.
//!
//! Every candidate takes the per-namespace lists by value and returns the
//! first `limit` hits in [`compare_hits`] order. On hits with distinct
//! `(namespace, key)` (what a fan-out hands over) they all give the same
//! output byte for byte; the tests below check that against
//! [`merge_before`] on random inputs, and the bench checks it again on its
//! own inputs before timing.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryTaint};
use tinymemory_sections::{compare_hits, merge_hits, MergeStrategy};

/// A merge: per-namespace hit lists and a limit in, merged hits out.
pub type Merge = fn(Vec<Vec<MemoryEntry>>, usize) -> Vec<MemoryEntry>;

/// The section API's score merge itself
/// ([`tinymemory_sections::merge_hits`] with [`MergeStrategy::Score`]): since
/// issue 16 a k-way merge of the lists as they come (each checked to be in
/// merge order, only an out-of-order one sorted), keyed on the fly, which
/// the `merge_candidates` bench measured fastest.
#[must_use]
pub fn merge_by_score(per_namespace: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    merge_hits(per_namespace, limit, MergeStrategy::Score)
}

/// The merge as it was first written: flatten, sort every hit by
/// [`compare_hits`], keep the first `limit`. `O(total · log total)`
/// comparisons, each on whole entries.
#[must_use]
pub fn merge_by_full_sort(per_namespace: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    let mut all: Vec<MemoryEntry> = per_namespace.into_iter().flatten().collect();
    all.sort_by(compare_hits);
    all.truncate(limit);
    all
}

/// `merge_hits` as it was before the keyed merge (issue 16), line for
/// line: flatten the entries, `select_nth_unstable_by` the first `limit`
/// by [`compare_hits`], sort only those. The baseline of the bench.
#[must_use]
pub fn merge_before(per_namespace: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    let mut hits: Vec<MemoryEntry> = per_namespace.into_iter().flatten().collect();
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

/// The score part of [`compare_hits`] as one integer, smaller is better:
/// finite scores descending, `-0.0` equal to `0.0`, then every absent or
/// non-finite score equal to each other (`u64::MAX`).
fn score_key(score: Option<f64>) -> u64 {
    match score {
        Some(s) if s.is_finite() => {
            // `+ 0.0` turns -0.0 into 0.0 and leaves every other value alone.
            let bits = (s + 0.0).to_bits();
            // The usual sign-flip that makes float order unsigned order.
            let ascending = if bits >> 63 == 1 {
                !bits
            } else {
                bits | 1 << 63
            };
            !ascending
        }
        _ => u64::MAX,
    }
}

/// Where a hit sits in the input, with its score key.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    list: usize,
    pos: usize,
}

/// [`compare_hits`] on slots, ties on `(namespace, key)` then input position.
fn slot_cmp(lists: &[Vec<MemoryEntry>], a: &Slot, b: &Slot) -> Ordering {
    a.key
        .cmp(&b.key)
        .then_with(|| {
            let (x, y) = (&lists[a.list][a.pos], &lists[b.list][b.pos]);
            x.namespace
                .cmp(&y.namespace)
                .then_with(|| x.key.cmp(&y.key))
        })
        .then_with(|| (a.list, a.pos).cmp(&(b.list, b.pos)))
}

/// Moves the hits at `slots`, in that order, out of `lists`.
fn take_slots(
    lists: &mut [Vec<MemoryEntry>],
    slots: impl Iterator<Item = (usize, usize)>,
) -> Vec<MemoryEntry> {
    slots
        .map(|(l, p)| std::mem::replace(&mut lists[l][p], placeholder()))
        .collect()
}

/// An entry that owns no heap memory, left behind where a hit was moved out.
fn placeholder() -> MemoryEntry {
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

fn slots(lists: &[Vec<MemoryEntry>]) -> Vec<Slot> {
    let total = lists.iter().map(Vec::len).sum();
    let mut slots = Vec::with_capacity(total);
    for (list, hits) in lists.iter().enumerate() {
        for (pos, hit) in hits.iter().enumerate() {
            slots.push(Slot {
                key: score_key(hit.score),
                list,
                pos,
            });
        }
    }
    slots
}

/// Candidate (a): select, then sort, 24-byte slots (score key, list,
/// position) instead of entries, ties looked up in the lists; only the
/// `limit` kept hits are moved.
#[must_use]
pub fn merge_keyed_select(mut lists: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    if limit == 0 {
        return Vec::new();
    }
    let mut slots = slots(&lists);
    let cmp = |a: &Slot, b: &Slot| slot_cmp(&lists, a, b);
    if slots.len() > limit {
        slots.select_nth_unstable_by(limit - 1, cmp);
        slots.truncate(limit);
    }
    slots.sort_unstable_by(cmp);
    take_slots(&mut lists, slots.iter().map(|s| (s.list, s.pos)))
}

/// Candidate (a'): like [`merge_keyed_select`] with the tie-break strings
/// borrowed into the key (a 64-byte derived-`Ord` tuple), so a comparison
/// never indexes the lists.
#[must_use]
pub fn merge_keyed_refs(mut lists: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    if limit == 0 {
        return Vec::new();
    }
    let picked: Vec<(usize, usize)> = {
        let mut keys: Vec<(u64, Option<&str>, &str, usize, usize)> = lists
            .iter()
            .enumerate()
            .flat_map(|(l, hits)| {
                hits.iter().enumerate().map(move |(p, h)| {
                    (
                        score_key(h.score),
                        h.namespace.as_deref(),
                        h.key.as_str(),
                        l,
                        p,
                    )
                })
            })
            .collect();
        if keys.len() > limit {
            keys.select_nth_unstable(limit - 1);
            keys.truncate(limit);
        }
        keys.sort_unstable();
        keys.into_iter().map(|k| (k.3, k.4)).collect()
    };
    take_slots(&mut lists, picked.into_iter())
}

/// Candidate (b): a k-way merge. Each list's slots are sorted (skipped
/// when already in order, as a driver returns them best first), then a
/// binary heap of the lists' heads pops the first `limit`:
/// `O(total + limit · log lists)` when the lists come sorted.
#[must_use]
pub fn merge_kway(mut lists: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    if limit == 0 {
        return Vec::new();
    }
    let mut order: Vec<Vec<Slot>> = lists
        .iter()
        .enumerate()
        .map(|(list, hits)| {
            let mut s: Vec<Slot> = hits
                .iter()
                .enumerate()
                .map(|(pos, h)| Slot {
                    key: score_key(h.score),
                    list,
                    pos,
                })
                .collect();
            let cmp = |a: &Slot, b: &Slot| slot_cmp(&lists, a, b);
            if !s.is_sorted_by(|a, b| cmp(a, b).is_le()) {
                s.sort_unstable_by(cmp);
            }
            s
        })
        .collect();
    let picked: Vec<(usize, usize)> = {
        let head = |s: &Slot, cursor: usize| {
            let h = &lists[s.list][s.pos];
            Reverse((
                s.key,
                h.namespace.as_deref(),
                h.key.as_str(),
                s.list,
                cursor,
            ))
        };
        let mut heap: BinaryHeap<_> = order
            .iter()
            .filter_map(|o| o.first().map(|s| head(s, 0)))
            .collect();
        let mut picked = Vec::with_capacity(limit.min(order.iter().map(Vec::len).sum()));
        while picked.len() < limit {
            let Some(Reverse((_, _, _, list, cursor))) = heap.pop() else {
                break;
            };
            picked.push((list, order[list][cursor].pos));
            if let Some(next) = order[list].get(cursor + 1) {
                heap.push(head(next, cursor + 1));
            }
        }
        picked
    };
    order.clear();
    take_slots(&mut lists, picked.into_iter())
}

/// Every candidate the bench times, by bench id, the baseline first.
pub const CANDIDATES: [(&str, Merge); 6] = [
    ("before", merge_before),
    ("full_sort", merge_by_full_sort),
    ("keyed_select", merge_keyed_select),
    ("keyed_refs", merge_keyed_refs),
    ("kway", merge_kway),
    ("merge", merge_by_score),
];

/// Every field of every hit, scores as bits: two merges agree byte for
/// byte when their fingerprints are equal.
#[must_use]
pub fn fingerprint(hits: &[MemoryEntry]) -> Vec<String> {
    hits.iter()
        .map(|h| {
            format!(
                "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
                h.id,
                h.key,
                h.content,
                h.namespace,
                h.category,
                h.timestamp,
                h.session_id,
                h.score.map(f64::to_bits),
                h.taint
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{hit_lists, scores, shuffled, ScoreMix, SplitMix64};

    #[test]
    fn score_keys_follow_compare_hits() {
        let order = [
            Some(f64::MAX),
            Some(1.0),
            Some(f64::MIN_POSITIVE),
            Some(0.0),
            Some(-1.0),
            Some(f64::MIN),
        ];
        let keys: Vec<u64> = order.iter().map(|&s| score_key(s)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:x?}");
        assert_eq!(score_key(Some(-0.0)), score_key(Some(0.0)));
        for odd in [
            None,
            Some(f64::NAN),
            Some(-f64::NAN),
            Some(f64::INFINITY),
            Some(f64::NEG_INFINITY),
        ] {
            assert_eq!(score_key(odd), u64::MAX);
        }
        assert!(score_key(Some(f64::MIN)) < u64::MAX);
    }

    /// Random lists with distinct `(namespace, key)`, hard scores, lists
    /// sorted or not, against the baseline for many limits.
    #[test]
    fn every_candidate_matches_the_baseline_byte_for_byte() {
        let special = [
            None,
            Some(f64::NAN),
            Some(-f64::NAN),
            Some(f64::from_bits(0x7ff8_0000_0000_0001)),
            Some(f64::INFINITY),
            Some(f64::NEG_INFINITY),
            Some(0.0),
            Some(-0.0),
            Some(1.0),
            Some(0.5),
        ];
        let mut rng = SplitMix64::new(16);
        for case in 0..400u64 {
            let n = usize::try_from(rng.next_u64() % 80).unwrap_or(0);
            let per = usize::try_from(rng.next_u64() % 12 + 1).unwrap_or(1);
            let s: Vec<Option<f64>> = (0..n)
                .map(|_| special[usize::try_from(rng.next_u64() % 10).unwrap_or(0)])
                .collect();
            let mut lists = hit_lists(&s, per);
            // Keys shared across lists; every other case, lists out of order.
            if case % 2 == 1 {
                lists = lists.into_iter().map(|l| shuffled(l, case)).collect();
            }
            lists.insert(lists.len() / 2, Vec::new());
            for limit in [0, 1, 2, per, n.saturating_sub(1), n, n + 1, usize::MAX] {
                let want = fingerprint(&merge_before(lists.clone(), limit));
                for (name, merge) in CANDIDATES {
                    assert_eq!(
                        fingerprint(&merge(lists.clone(), limit)),
                        want,
                        "{name} case {case} limit {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_bench_inputs_agree_too() {
        for mix in ScoreMix::ALL {
            let lists = hit_lists(&scores(mix, 1_000, 11), 16);
            for limit in [0, 1, 16, 999, 1_000, 5_000] {
                let want = fingerprint(&merge_before(lists.clone(), limit));
                assert_eq!(want.len(), limit.min(1_000));
                for (name, merge) in CANDIDATES {
                    assert_eq!(
                        fingerprint(&merge(lists.clone(), limit)),
                        want,
                        "{name} {mix:?} {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn merge_puts_non_finite_last() {
        let lists = hit_lists(
            &[
                Some(f64::NAN),
                Some(1.0),
                None,
                Some(2.0),
                Some(f64::INFINITY),
            ],
            2,
        );
        let got: Vec<Option<f64>> = merge_by_score(lists, 2)
            .into_iter()
            .map(|h| h.score)
            .collect();
        assert_eq!(got, [Some(2.0), Some(1.0)]);
    }
}
