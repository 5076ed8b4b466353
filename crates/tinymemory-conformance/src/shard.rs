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

/// `match id { "check.id" => cost_ms, ... }` over the rows of the table.
macro_rules! costs_of {
    ($id:ident; $($test:ident => $check:literal $def:tt { cost_ms: $cost:literal, $($docs:tt)* };)*) => {
        match $id {
            $($check => $cost,)*
            _ => DEFAULT_COST,
        }
    };
}

/// A check's cost for the partition and for the order checks start in
/// at more than one job (costliest first): its wall time in milliseconds
/// on the SQLite driver over the bundled corpus (debug build, `--jobs 1`,
/// 64 cases, the median `duration_ms` of five `--format json` reports;
/// `benches/check_costs.py --write` rewrites the table from them), at
/// least 1. The
/// property checks and the 1 MiB round trips are two orders of magnitude
/// above a contract check, so a partition by count would be far from
/// balanced. Each standard check's cost is the `cost_ms` of its row in the
/// table of standard checks (`src/checks.rs`), so a new check cannot be
/// added without one; any other id costs [`DEFAULT_COST`].
#[must_use]
pub fn cost(id: &str) -> u32 {
    crate::__tinymemory_standard_checks!([costs_of] id)
}

/// The cost of a check that is not a standard one ([`cost`]).
pub const DEFAULT_COST: u32 = 10;

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

    /// Every standard check's cost is its own measurement, a positive
    /// one, and not the fallback by accident of a mistyped row.
    #[test]
    fn every_standard_check_costs_its_rows_measurement() {
        assert_eq!(cost("store.upsert"), 17);
        assert_eq!(cost("properties.concurrent_equals_sequential"), 1248);
        assert_eq!(cost("model.differential"), 1131);
        assert_eq!(cost("no.such_check"), DEFAULT_COST);
        for c in Registry::standard().checks() {
            assert!(cost(c.id) >= 1, "{}: a cost of at least 1 ms", c.id);
        }
    }
}
