//! The score merge of `across_section`, as the benches run it.

use tinymemory_api::MemoryEntry;
use tinymemory_sections::{compare_hits, merge_hits, MergeStrategy};

/// The section API's score merge itself
/// ([`tinymemory_sections::merge_hits`] with [`MergeStrategy::Score`]):
/// flatten, select the first `limit` by [`compare_hits`], sort only those.
#[must_use]
pub fn merge_by_score(per_namespace: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    merge_hits(per_namespace, limit, MergeStrategy::Score)
}

/// The merge as it was first written, for comparison: flatten, sort every
/// hit by [`compare_hits`], keep the first `limit`. Same output as
/// [`merge_by_score`] in `O(total · log total)` comparisons.
#[must_use]
pub fn merge_by_full_sort(per_namespace: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    let mut all: Vec<MemoryEntry> = per_namespace.into_iter().flatten().collect();
    all.sort_by(compare_hits);
    all.truncate(limit);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{hit_lists, scores, ScoreMix};

    fn keys(hits: &[MemoryEntry]) -> Vec<(Option<String>, String)> {
        hits.iter()
            .map(|h| (h.namespace.clone(), h.key.clone()))
            .collect()
    }

    #[test]
    fn the_full_sort_gives_the_merge_exactly() {
        for mix in ScoreMix::ALL {
            let lists = hit_lists(&scores(mix, 1_000, 11), 16);
            for limit in [0, 1, 16, 999, 1_000, 5_000] {
                let merged = merge_by_score(lists.clone(), limit);
                assert_eq!(merged.len(), limit.min(1_000));
                assert_eq!(
                    keys(&merge_by_full_sort(lists.clone(), limit)),
                    keys(&merged),
                    "{mix:?} {limit}"
                );
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
