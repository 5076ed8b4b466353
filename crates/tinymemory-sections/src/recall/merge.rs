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

/// Flattens the per-namespace hits, sorts by [`compare_hits`] and keeps the
/// first `limit`.
pub(crate) fn by_score(per_namespace: Vec<Vec<MemoryEntry>>, limit: usize) -> Vec<MemoryEntry> {
    let mut all: Vec<MemoryEntry> = per_namespace.into_iter().flatten().collect();
    all.sort_by(compare_hits);
    all.truncate(limit);
    all
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
                "n:a/high", "n:a/tiny", "n:a/low", "n:a/inf", "n:a/nan", "n:a/neginf",
                "n:a/negnan", "n:a/none"
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
    fn keeps_the_first_limit() {
        let all = vec![
            vec![hit("n:a", "a", Some(1.0)), hit("n:a", "b", Some(3.0))],
            vec![hit("n:b", "c", Some(2.0))],
        ];
        let got: Vec<_> = by_score(all, 2).into_iter().map(|h| h.key).collect();
        assert_eq!(got, ["b", "c"]);
    }
}
