//! Seeded hit lists for the merge bench.

use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryTaint};

use crate::{scope_name, HITS_PER_NAMESPACE};

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): a seed gives the same sequence everywhere, so
/// bench inputs are the same in every run.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform float in `[0, 1)`, from the top 53 bits.
    pub fn next_f64(&mut self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "53 bits fit an f64 exactly")]
        let x = (self.next_u64() >> 11) as f64;
        x / (1u64 << 53) as f64
    }
}

/// `items` in a random order fixed by `seed` (Fisher–Yates with
/// [`SplitMix64`]).
#[must_use]
pub fn shuffled<T>(mut items: Vec<T>, seed: u64) -> Vec<T> {
    let mut rng = SplitMix64::new(seed);
    for i in (1..items.len()).rev() {
        let j = usize::try_from(rng.next_u64() % (i as u64 + 1)).unwrap_or(0);
        items.swap(i, j);
    }
    items
}

/// Which scores the hits of a merge bench carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMix {
    /// Distinct finite scores in `[0, 30)`, as bm25 gives.
    Finite,
    /// Three values, 1/3, 2/3 and 1, as the reference driver gives for a
    /// three-word query: most comparisons fall through to `(namespace, key)`.
    Ties,
    /// Half finite, the other half NaN, `-NaN`, `+inf`, `-inf` and `None`
    /// in equal shares: the inputs the merge must put last.
    NanNoneHeavy,
}

impl ScoreMix {
    /// Every mix, in report order.
    pub const ALL: [ScoreMix; 3] = [ScoreMix::Finite, ScoreMix::Ties, ScoreMix::NanNoneHeavy];

    /// The name used in bench ids: `finite`, `ties`, `nan_none_heavy`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Finite => "finite",
            Self::Ties => "ties",
            Self::NanNoneHeavy => "nan_none_heavy",
        }
    }
}

/// `n` scores of `mix`, fixed by `seed`.
#[must_use]
pub fn scores(mix: ScoreMix, n: usize, seed: u64) -> Vec<Option<f64>> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| match mix {
            ScoreMix::Finite => Some(rng.next_f64() * 30.0),
            ScoreMix::Ties => Some(match rng.next_u64() % 3 {
                0 => 1.0 / 3.0,
                1 => 2.0 / 3.0,
                _ => 1.0,
            }),
            ScoreMix::NanNoneHeavy => match rng.next_u64() % 10 {
                0 => Some(f64::NAN),
                1 => Some(-f64::NAN),
                2 => Some(f64::INFINITY),
                3 => Some(f64::NEG_INFINITY),
                4 => None,
                _ => Some(rng.next_f64() * 30.0),
            },
        })
        .collect()
}

/// How a fan-out that returned `total` hits was shaped: `(lists, limit)`,
/// where each of the namespaces answered with up to `limit` hits (the
/// recall's `limit`). Namespaces hold [`HITS_PER_NAMESPACE`] hits each
/// until the cap of `cap` namespaces is reached; past it, each holds more
/// and the limit grows: `limit = ceil(total / lists)`, with
/// `lists = min(cap, ceil(total / 10))`.
///
/// So 100 hits are 10 lists of 10 with `limit` 10, and 100,000 hits are 64
/// lists of 1,563 with `limit` 1,563: what `across_section` at the default
/// cap merges before keeping `limit` hits.
#[must_use]
pub fn fan_out_shape(total: usize, cap: usize) -> (usize, usize) {
    let lists = total.div_ceil(HITS_PER_NAMESPACE).clamp(1, cap.max(1));
    let limit = total.div_ceil(lists).max(1);
    (total.div_ceil(limit), limit)
}

/// The per-namespace hit lists a fan-out would hand to the merge: the
/// scores in lists of `per_list` (the last may be shorter; `0` is read as
/// 1), namespace `learning:`[`scope_name`]`(list)`, keys `k000000`..
/// within a list, each list ordered best first as a driver returns it
/// (finite scores descending, then the rest as drawn).
#[must_use]
pub fn hit_lists(scores: &[Option<f64>], per_list: usize) -> Vec<Vec<MemoryEntry>> {
    let per_list = per_list.max(1);
    scores
        .chunks(per_list)
        .enumerate()
        .map(|(i, chunk)| {
            let ns = format!("learning:{}", scope_name(i));
            let mut list: Vec<MemoryEntry> = chunk
                .iter()
                .enumerate()
                .map(|(k, &score)| MemoryEntry {
                    id: format!("{}", i * per_list + k),
                    key: format!("k{k:06}"),
                    content: "What is the name of the game? The game is chess.".to_owned(),
                    namespace: Some(ns.clone()),
                    category: MemoryCategory::Core,
                    timestamp: "2025-01-01T00:00:00.000000Z".to_owned(),
                    session_id: None,
                    score,
                    taint: MemoryTaint::Internal,
                })
                .collect();
            let finite = |e: &MemoryEntry| e.score.filter(|s| s.is_finite());
            list.sort_by(|a, b| match (finite(a), finite(b)) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            list
        })
        .collect()
}

/// The scores of `lists` as plain floats, in the same order, `None` as
/// NaN: the input of the merge bench's floor.
#[must_use]
pub fn flatten_floats(lists: &[Vec<MemoryEntry>]) -> Vec<f64> {
    lists
        .iter()
        .flatten()
        .map(|e| e.score.unwrap_or(f64::NAN))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // The well-known first output of SplitMix64 seeded with 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn shapes_follow_the_cap() {
        assert_eq!(fan_out_shape(10, 64), (1, 10));
        assert_eq!(fan_out_shape(100, 64), (10, 10));
        assert_eq!(fan_out_shape(640, 64), (64, 10));
        assert_eq!(fan_out_shape(1_000, 64), (63, 16));
        assert_eq!(fan_out_shape(100_000, 64), (64, 1_563));
        assert_eq!(fan_out_shape(7, 64), (1, 7));
        assert_eq!(fan_out_shape(0, 64), (0, 1));
        assert_eq!(hit_lists(&scores(ScoreMix::Finite, 1_000, 1), 16).len(), 63);
    }

    #[test]
    fn shuffles_are_seeded_permutations() {
        let a = shuffled((0..100).collect::<Vec<u32>>(), 3);
        assert_eq!(a, shuffled((0..100).collect::<Vec<u32>>(), 3));
        assert_ne!(a, (0..100).collect::<Vec<u32>>());
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<u32>>());
        assert_eq!(shuffled(Vec::<u32>::new(), 3), Vec::<u32>::new());
    }

    #[test]
    fn mixes_have_their_shape() {
        let n = 10_000;
        let finite = scores(ScoreMix::Finite, n, 7);
        assert!(finite
            .iter()
            .all(|s| s.is_some_and(|x| (0.0..30.0).contains(&x))));
        let ties = scores(ScoreMix::Ties, n, 7);
        assert!(ties
            .iter()
            .all(|s| [1.0 / 3.0, 2.0 / 3.0, 1.0].contains(&s.unwrap())));
        let heavy = scores(ScoreMix::NanNoneHeavy, n, 7);
        let odd = heavy
            .iter()
            .filter(|s| !s.is_some_and(f64::is_finite))
            .count();
        // 5 of 10 outcomes are non-finite or None: about half.
        assert!((4_500..5_500).contains(&odd), "{odd}");
        assert_eq!(scores(ScoreMix::Finite, 5, 7), finite[..5]);
    }

    #[test]
    fn lists_split_by_namespace_best_first() {
        let s = [
            Some(1.0),
            None,
            Some(3.0),
            Some(f64::NAN),
            Some(2.0),
            Some(0.5),
            Some(0.1),
            Some(0.2),
            Some(0.3),
            Some(0.4),
            Some(9.0),
            Some(8.0),
        ];
        let lists = hit_lists(&s, 10);
        assert_eq!(lists.len(), 2);
        assert_eq!(lists[0].len(), 10);
        assert_eq!(lists[1].len(), 2);
        assert_eq!(
            lists[1][0].namespace.as_deref(),
            Some("learning:topic-000001")
        );
        assert_eq!(lists[1][1].key, "k000001");
        let firsts: Vec<Option<f64>> = lists[0].iter().take(3).map(|e| e.score).collect();
        assert_eq!(firsts, [Some(3.0), Some(2.0), Some(1.0)]);
        assert!(lists[0][8].score.is_none_or(f64::is_nan));
        let floats = flatten_floats(&lists);
        assert_eq!(floats.len(), 12);
        assert_eq!(floats[..2], [3.0, 2.0]);
        assert_eq!(floats[10..], [9.0, 8.0]);
        assert!(floats[8].is_nan() && floats[9].is_nan());
    }
}
