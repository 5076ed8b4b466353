//! Sharding a run: a deterministic partition of the selected checks into
//! N shards balanced by cost, for CI systems that run one job per machine
//! (nextest's `--partition`, balanced by weight instead of count), and
//! the merge of the shards' reports into one.
//!
//! The partition is the longest-processing-time-first rule (Graham, 1969):
//! checks by cost, heaviest first (ties by registry position), each to the
//! shard with the least cost so far (ties to the lowest shard). It depends
//! on the selection and N alone, so every machine of a matrix computes the
//! same shards. Within a shard, checks keep registry order.

use std::fmt;
use std::str::FromStr;

use crate::{Check, Registry};

/// One shard of N, `K/N` on the command line: `index` is 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which shard, from 1 to `total`.
    pub index: u32,
    /// How many shards the run is split into, at least 1.
    pub total: u32,
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with `1 <= K <= N`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("{s:?} is not a shard: the form is K/N, 1 <= K <= N, such as 2/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, total) = (
            k.trim().parse::<u32>().map_err(|_| bad())?,
            n.trim().parse::<u32>().map_err(|_| bad())?,
        );
        if index == 0 || total == 0 || index > total {
            return Err(bad());
        }
        Ok(Self { index, total })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.total)
    }
}

/// A check's cost for the partition: its wall time in milliseconds on the
/// SQLite driver over the bundled corpus (debug build, `--jobs 1`, 64
/// cases, measured at this table's commit), at least 1. The property
/// checks and the 1 MiB round trips are two orders of magnitude above a
/// contract check, so a partition by count would be far from balanced. A
/// check missing from the table costs [`DEFAULT_COST`]: a test requires a
/// measurement for every property check and the model, which cost seconds,
/// and refuses entries of checks that no longer exist.
#[must_use]
pub fn cost(id: &str) -> u32 {
    COSTS
        .iter()
        .find(|(known, _)| *known == id)
        .map_or(DEFAULT_COST, |(_, c)| *c)
}

/// The cost of a check [`cost`] has no measurement for.
pub const DEFAULT_COST: u32 = 10;

/// Measured costs, in milliseconds ([`cost`]).
const COSTS: &[(&str, u32)] = &[
    ("store.upsert", 5),
    ("recall.none_means_global", 4),
    ("recall.hit_namespace", 7),
    ("recall.scores_finite_higher_better", 12),
    ("recall.limit", 28),
    ("recall.plain_text_query", 34),
    ("recall.min_score", 9),
    ("namespaces.exact_counts", 3),
    ("namespace.invalid_refused", 3),
    ("forget.idempotent", 3),
    ("recall.whole_words", 5),
    ("recall.deterministic", 25),
    ("recall.self_retrieval", 14),
    ("recall.reindexed_on_upsert", 13),
    ("recall.namespace_isolation", 952),
    ("store.bulk", 8),
    ("store.upsert_replaces_metadata", 13),
    ("store.timestamps", 17),
    ("namespaces.last_updated", 72),
    ("store.distinct_identities", 9),
    ("list.filters", 12),
    ("recall.filters", 33),
    ("recall.huge_limit", 4),
    ("store.hostile_text_round_trip", 59),
    ("store.big_content_round_trip", 792),
    ("recall.hostile_queries", 13),
    ("store.concurrent_writes", 50),
    ("namespace.case_sensitive", 13),
    ("namespace.no_wildcards", 11),
    ("namespace.reserved_words", 121),
    ("sections.custom_spelling", 17),
    ("sections.invalid_section_refused", 8),
    ("sections.across_merge_order", 15),
    ("sections.cap_and_truncation", 10),
    ("sections.namespace_filter_conflict", 2),
    ("sections.namespaces_listed_once", 9),
    ("sections.pinned_hits_only", 6),
    ("sections.view_recall_pinned", 3),
    ("corpus.namespace_counts", 26),
    ("corpus.recall_own_words", 107),
    ("portability.pages_partition", 38),
    ("portability.end_of_export", 11),
    ("portability.page_limits", 9),
    ("portability.unknown_cursor", 6),
    ("portability.cursor_stable", 9),
    ("portability.round_trip", 45),
    ("portability.taint_kept", 7),
    ("portability.import_hostile", 882),
    ("portability.import_failures", 13),
    ("properties.across_ordering", 887),
    ("properties.cap_determinism", 1583),
    ("properties.custom_spelling", 1726),
    ("properties.namespace_round_trip", 632),
    ("properties.pinning_cost", 1146),
    ("properties.truncation", 1222),
    ("properties.concurrent_equals_sequential", 1776),
    ("properties.export_partition", 868),
    ("properties.export_round_trip", 1034),
    ("model.differential", 573),
    ("recall.ranking_higher_better", 12),
    ("corpus.self_retrieval", 300),
];

impl Registry {
    /// The checks of `shard` ([`cost`]-balanced, see the module docs), in
    /// registry order.
    #[must_use]
    pub fn shard(&self, shard: Shard) -> Self {
        let assigned = partition(self.checks(), shard.total);
        let keep: Vec<&'static str> = self
            .checks()
            .iter()
            .zip(assigned)
            .filter(|(_, s)| s + 1 == shard.index)
            .map(|(c, _)| c.id)
            .collect();
        self.filter(|c| keep.contains(&c.id))
    }
}

/// For each check of `checks`, the 0-based shard it goes to of `total`.
fn partition(checks: &[Check], total: u32) -> Vec<u32> {
    // More shards than checks leave the rest empty: no load is kept for
    // them (a `K/4294967295` must not allocate 32 GB).
    let total = total.clamp(1, u32::try_from(checks.len().max(1)).unwrap_or(u32::MAX));
    let mut order: Vec<usize> = (0..checks.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(cost(checks[i].id)), i));
    let mut load = vec![0_u64; total as usize];
    let mut assigned = vec![0_u32; checks.len()];
    for i in order {
        let (lightest, _) = load
            .iter()
            .enumerate()
            .min_by_key(|&(shard, l)| (*l, shard))
            .unwrap_or((0, &0));
        load[lightest] += u64::from(cost(checks[i].id));
        assigned[i] = u32::try_from(lightest).unwrap_or(0);
    }
    assigned
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_what_is_not_k_of_n() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, total: 4 }));
        assert_eq!("1/1".parse::<Shard>().unwrap().to_string(), "1/1");
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/2"] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(format!(
                    "{bad:?} is not a shard: the form is K/N, 1 <= K <= N, such as 2/4"
                ))
            );
        }
    }

    #[test]
    fn the_shards_partition_the_selection_and_balance_its_cost() {
        let all = Registry::standard();
        for total in 1..=6 {
            let shards: Vec<Registry> = (1..=total)
                .map(|index| all.shard(Shard { index, total }))
                .collect();
            let mut ids: Vec<&str> = shards
                .iter()
                .flat_map(|s| s.checks().iter().map(|c| c.id))
                .collect();
            assert_eq!(ids.len(), all.checks().len(), "{total} shards");
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), all.checks().len(), "{total} shards overlap");
            let loads: Vec<u64> = shards
                .iter()
                .map(|s| s.checks().iter().map(|c| u64::from(cost(c.id))).sum())
                .collect();
            let heaviest = all
                .checks()
                .iter()
                .map(|c| u64::from(cost(c.id)))
                .max()
                .unwrap();
            let (lo, hi) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
            // LPT's bound: no shard exceeds another by more than one check.
            assert!(hi - lo <= heaviest, "{total} shards: loads {loads:?}");
            // Registry order within a shard.
            for s in &shards {
                let pos: Vec<usize> = s
                    .checks()
                    .iter()
                    .map(|c| all.checks().iter().position(|d| d.id == c.id).unwrap())
                    .collect();
                assert!(pos.windows(2).all(|w| w[0] < w[1]));
            }
        }
    }

    /// A check of the contract, section, corpus or portability families
    /// costs 3 to 400 ms, close enough to [`DEFAULT_COST`] for a new one to
    /// go unmeasured at first; a property check or the model costs seconds,
    /// so a missing one would unbalance every shard it lands in.
    #[test]
    fn every_generated_check_has_a_measured_cost_and_no_other_is_listed() {
        let registry = Registry::standard();
        let missing: Vec<&str> = registry
            .checks()
            .iter()
            .filter(|c| c.family == crate::Family::Property)
            .map(|c| c.id)
            .filter(|id| !COSTS.iter().any(|(k, _)| k == id))
            .collect();
        assert!(
            missing.is_empty(),
            "no cost for {missing:?}: measure them (module docs)"
        );
        let stale: Vec<&str> = COSTS
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| registry.get(k).is_none())
            .collect();
        assert!(
            stale.is_empty(),
            "costs of checks that no longer exist: {stale:?}"
        );
    }
}
