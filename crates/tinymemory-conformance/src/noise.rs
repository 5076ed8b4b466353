//! Score noise: how far two answers to one call may differ when the same
//! entries sit in another layout, and the run's measure of it.
//!
//! A correct engine sums a score's terms in an order its layout decides:
//! numpy's dot product through OpenBLAS scores one document
//! `0.7329325225725953` or `0.7329325225725951` by its row in the matrix,
//! and a float32 engine's sum moves by a few float32 roundings. Checks
//! that compare two answers across stores, enumerations or data layouts
//! (`properties.cap_determinism`'s store written in reverse,
//! `recall.namespace_isolation`'s writes elsewhere) hold scores to
//! [`within_noise`] instead of bit equality: a difference within it is
//! recorded here, never a failure. The same recall repeated on unchanged
//! data is still compared bit for bit.
//!
//! The runner scopes each check's task with a [`NoiseLog`] (a tokio
//! task-local, as [`crate::CaseProgress`] is), which keeps the largest
//! difference the check saw; the check's report carries it
//! ([`CheckReport::score_noise`](crate::CheckReport::score_noise)).

use std::cmp::Ordering;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};

tokio::task_local! {
    static CURRENT: NoiseLog;
}

/// The relative tolerance of [`within_noise`]: 2^-19, thirty-two float32
/// unit roundoffs (u = 2^-24).
///
/// Its source: a dot product of n terms summed pairwise (or in the blocks
/// BLAS kernels use) is within γ_k·Σ|terms| of the exact value, where
/// γ_k = k·u / (1 - k·u) and k = ⌈log2 n⌉ + 1 (Higham, *Accuracy and
/// Stability of Numerical Algorithms*, 2nd ed., 2002, §3.1 and §4.2), so
/// two summation orders differ by at most 2·γ_k·Σ|terms|: 2^-19·Σ|terms|
/// (to one part in 10^6) in float32 for up to 2^15 dimensions (k = 16),
/// and some 2^-48 in float64. Σ|terms| is at most 1 for the cosine or dot
/// product of unit vectors (Cauchy-Schwarz) and is the score itself for a
/// sum of non-negative terms (BM25), hence the scale `max(1, |a|, |b|)`.
/// A fault that moves scores (collection-wide statistics, a stale vector,
/// a score that depends on where an entry is stored) moves them by far
/// more: the mutant `row-dependent-scores` by 10^-3.
pub const SCORE_TOLERANCE: f64 = 1.0 / 524_288.0;

/// `true` when the scores `a` and `b` of one entry are equal up to
/// summation order: bit for bit, or both finite and
/// `|a - b| <= 2^-19 * max(1, |a|, |b|)`
/// ([`SCORE_TOLERANCE`] gives the source). A non-finite score is within
/// noise of its own bits only.
#[must_use]
pub fn within_noise(a: f64, b: f64) -> bool {
    if a.to_bits() == b.to_bits() {
        return true;
    }
    if !a.is_finite() || !b.is_finite() {
        return false;
    }
    (a - b).abs() <= SCORE_TOLERANCE * 1_f64.max(a.abs()).max(b.abs())
}

/// The largest score difference within [`within_noise`] a check saw
/// between two answers to one call, and where.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScoreNoise {
    /// `|a - b|`, the absolute difference of the two scores.
    pub difference: f64,
    /// Where it was seen: the call, the hit and both scores, such as
    /// `recall("comet", limit 2) in learning:a, hit k1: 0.7329325225725953
    /// and 0.7329325225725951`.
    pub at: String,
}

/// Differences compare bit for bit, so that a report read back equals the
/// report written.
impl PartialEq for ScoreNoise {
    fn eq(&self, other: &Self) -> bool {
        self.difference.to_bits() == other.difference.to_bits() && self.at == other.at
    }
}

impl Eq for ScoreNoise {}

impl ScoreNoise {
    /// The larger of `self` and `other`: by difference, then the first
    /// `at` in byte order, so the figure of a check or a run does not
    /// depend on the order its cases finished in.
    #[must_use]
    pub fn max(self, other: Self) -> Self {
        match self.difference.total_cmp(&other.difference) {
            Ordering::Less => other,
            Ordering::Greater => self,
            Ordering::Equal if other.at < self.at => other,
            Ordering::Equal => self,
        }
    }
}

/// `2.2e-16 (at ...)`.
impl fmt::Display for ScoreNoise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1e} ({})", self.difference, self.at)
    }
}

/// The largest [`ScoreNoise`] of the running check, shared by its clones.
#[derive(Debug, Clone, Default)]
pub struct NoiseLog {
    largest: Arc<Mutex<Option<ScoreNoise>>>,
}

impl NoiseLog {
    /// An empty log.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The largest difference recorded so far, if any.
    #[must_use]
    pub fn largest(&self) -> Option<ScoreNoise> {
        self.largest
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn add(&self, noise: ScoreNoise) {
        let mut largest = self.largest.lock().unwrap_or_else(PoisonError::into_inner);
        *largest = Some(match largest.take() {
            None => noise,
            Some(kept) => kept.max(noise),
        });
    }
}

/// Records `noise` in the current check's log; nothing outside a runner's
/// scope. A zero difference is not noise and is not recorded.
pub(crate) fn record(noise: ScoreNoise) {
    if noise.difference > 0.0 {
        let _ = CURRENT.try_with(|log| log.add(noise));
    }
}

/// Runs `f` with `log` as the current check's log.
pub(crate) fn scope<F: Future>(log: NoiseLog, f: F) -> impl Future<Output = F::Output> {
    CURRENT.scope(log, f)
}

/// How two answers to one call, on the same entries in another layout,
/// differ beyond noise; `None` when they do not.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Beyond {
    /// Another number of hits.
    Length,
    /// Hits one answer has and the other lacks.
    Hits,
    /// One hit's scores differ beyond noise (or one is absent): its name.
    Score(String),
    /// Two hits in another order that their scores do not explain: both
    /// names, in the first answer's order.
    Order(String, String),
}

impl fmt::Display for Beyond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length => f.write_str("another number of hits"),
            Self::Hits => f.write_str("other hits"),
            Self::Score(hit) => write!(
                f,
                "the score of {hit} differs by more than summation order explains (2^-19 of \
                 max(1, |score|), docs/profiles.md, \"Score noise\")"
            ),
            Self::Order(a, b) => write!(
                f,
                "{a} and {b} come in the other order although their scores did not change \
                 places"
            ),
        }
    }
}

/// Compares `first` and `other`, two answers to one call on the same
/// entries in another layout, each hit as who it is (`namespace/key`) and
/// its score: equal up to score noise when they hold the same hits with
/// scores [`within_noise`] of each other, in the same order or in an order
/// the scores' own changes explain (two hits whose scores changed
/// places). Two answers cut by a limit through hits within noise of each
/// other may hold different hits: a caller that can, asks both stores for
/// their whole ranking, compares those, and holds each hit kept by one
/// answer only and each kept by the other only to [`swap_explained`].
///
/// Gives the largest difference seen (`(difference, hit, first score,
/// other score)`, `None` when every score is bit-identical).
///
/// # Errors
///
/// [`Beyond`]: how they differ beyond noise.
pub(crate) fn compare<S: AsRef<str>>(
    first: &[(S, Option<f64>)],
    other: &[(S, Option<f64>)],
) -> Result<Option<(f64, String, f64, f64)>, Beyond> {
    if first.len() != other.len() {
        return Err(Beyond::Length);
    }
    let find = |answer: &[(S, Option<f64>)], id: &S| {
        answer.iter().position(|h| h.0.as_ref() == id.as_ref())
    };
    if first.iter().any(|h| find(other, &h.0).is_none()) {
        return Err(Beyond::Hits);
    }
    let mut largest: Option<(f64, String, f64, f64)> = None;
    for (i, hit) in first.iter().enumerate() {
        let Some(j) = find(other, &hit.0) else {
            continue;
        };
        match (hit.1, other[j].1) {
            (None, None) => {}
            (Some(a), Some(b)) if within_noise(a, b) => {
                let difference = if a.to_bits() == b.to_bits() {
                    0.0
                } else {
                    (a - b).abs()
                };
                if difference > 0.0 && largest.as_ref().is_none_or(|l| difference > l.0) {
                    largest = Some((difference, hit.0.as_ref().to_owned(), a, b));
                }
            }
            _ => return Err(Beyond::Score(hit.0.as_ref().to_owned())),
        }
        for later in &first[i + 1..] {
            let Some(k) = find(other, &later.0) else {
                continue;
            };
            if k < j && !swap_explained((hit.1, later.1), (other[j].1, other[k].1)) {
                return Err(Beyond::Order(
                    hit.0.as_ref().to_owned(),
                    later.0.as_ref().to_owned(),
                ));
            }
        }
    }
    Ok(largest)
}

/// Whether hits x and y, x before y in the first answer (scores `first`)
/// and y before x in the other (scores `other`), changed places because
/// their scores did: x scored at least y in the first, y at least x in the
/// other, and not tied in both (a tie's order is the engine's tie rule,
/// which no layout may change).
pub(crate) fn swap_explained(
    first: (Option<f64>, Option<f64>),
    other: (Option<f64>, Option<f64>),
) -> bool {
    match (first, other) {
        ((Some(x1), Some(y1)), (Some(x2), Some(y2))) => {
            x1 >= y1 && y2 >= x2 && !(x1.to_bits() == y1.to_bits() && x2.to_bits() == y2.to_bits())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two scores LangChain's InMemoryVectorStore gives one document
    /// by its row (numpy through OpenBLAS): one ulp apart.
    const ROW_A: f64 = 0.732_932_522_572_595_3;
    const ROW_B: f64 = 0.732_932_522_572_595_1;

    #[test]
    fn a_few_ulp_and_float32_rounding_are_noise_a_thousandth_is_not() {
        assert!(within_noise(ROW_A, ROW_B));
        assert!(within_noise(0.5, 0.5 + f64::from(f32::EPSILON)));
        assert!(within_noise(20.0, 20.0 * (1.0 + 2e-7)), "relative above 1");
        assert!(!within_noise(0.5, 0.501));
        assert!(!within_noise(0.0, 4e-6), "absolute below 1");
        assert!(within_noise(0.0, 1e-6));
        assert!(!within_noise(f64::NAN, 0.0));
        assert!(within_noise(f64::INFINITY, f64::INFINITY));
        assert!(!within_noise(f64::INFINITY, f64::MAX));
    }

    #[test]
    fn the_same_hits_with_scores_one_ulp_apart_give_the_difference() {
        let first = [("a", Some(0.9)), ("b", Some(ROW_A))];
        let other = [("a", Some(0.9)), ("b", Some(ROW_B))];
        assert_eq!(
            compare(&first, &other),
            Ok(Some(((ROW_A - ROW_B).abs(), "b".to_owned(), ROW_A, ROW_B)))
        );
        assert_eq!(compare(&first, &first), Ok(None));
    }

    #[test]
    fn scores_beyond_noise_or_lost_fail() {
        let first = [("a", Some(0.9)), ("b", Some(0.5))];
        assert_eq!(
            compare(&first, &[("a", Some(0.9)), ("b", Some(0.501))]),
            Err(Beyond::Score("b".to_owned()))
        );
        assert_eq!(
            compare(&first, &[("a", Some(0.9)), ("b", None)]),
            Err(Beyond::Score("b".to_owned()))
        );
        assert_eq!(compare(&first, &first[..1]), Err(Beyond::Length));
        assert_eq!(
            compare(&first, &[("a", Some(0.9)), ("c", Some(0.5))]),
            Err(Beyond::Hits)
        );
    }

    #[test]
    fn a_near_tie_swapped_is_noise_a_tie_or_a_gap_swapped_is_not() {
        let up = f64::from_bits(0.5_f64.to_bits() + 1);
        // Swapped because the scores changed places.
        assert_eq!(
            compare(
                &[("a", Some(up)), ("b", Some(0.5))],
                &[("b", Some(up)), ("a", Some(0.5))],
            )
            .map(|n| n.map(|n| n.1)),
            Ok(Some("a".to_owned()))
        );
        // An exact tie in both, in another order: the tie rule, not noise.
        assert_eq!(
            compare(
                &[("a", Some(0.5)), ("b", Some(0.5))],
                &[("b", Some(0.5)), ("a", Some(0.5))],
            ),
            Err(Beyond::Order("a".to_owned(), "b".to_owned()))
        );
        // Swapped with scores apart: no noise explains it.
        assert_eq!(
            compare(
                &[("a", Some(0.9)), ("b", Some(0.5))],
                &[("b", Some(0.5)), ("a", Some(0.9))],
            ),
            Err(Beyond::Order("a".to_owned(), "b".to_owned()))
        );
    }

    #[tokio::test]
    async fn the_log_keeps_the_largest_then_the_first_place() {
        let log = NoiseLog::new();
        let noise = |difference, at: &str| ScoreNoise {
            difference,
            at: at.to_owned(),
        };
        record(noise(1.0, "outside"));
        scope(log.clone(), async {
            record(noise(1e-16, "b"));
            record(noise(2e-16, "z"));
            record(noise(2e-16, "c"));
            record(noise(0.0, "zero"));
        })
        .await;
        assert_eq!(log.largest(), Some(noise(2e-16, "c")));
    }
}
