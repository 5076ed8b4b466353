//! Converting FTS5 `bm25()` ranks into contract scores.
//!
//! FTS5's `bm25()` auxiliary function returns the Okapi BM25 relevance of a
//! row *multiplied by -1*, so that `ORDER BY bm25(t)` lists the best match
//! first: lower is better, and every real match is negative. Its IDF term is
//! clamped to a tiny positive value (10⁻⁶) for words in more than half the
//! rows, so a match always contributes a positive relevance. Source: SQLite
//! FTS5 documentation, section 5.1.1 "The bm25() function"
//! (<https://www.sqlite.org/fts5.html#the_bm25_function>).
//!
//! The contract wants finite, higher-is-better scores (sentence 4). The
//! conversion is plain negation, `score = -bm25`: it is exact (negating an
//! `f64` never rounds), so hits order by score exactly as by `bm25`, and two
//! hits have equal scores exactly when they have equal `bm25`. A bounded map
//! such as `s / (1 + s)` would round distinct large ranks to one value and so
//! make ties appear that `bm25` does not have.
//!
//! Scores are positive and unbounded, in BM25 units (typically 10⁻⁶ to a
//! few tens). Because FTS5 computes the statistics over the whole index, not
//! one namespace, scores from different namespaces of one database are
//! comparable; scores from different databases are not.

/// The contract score for an FTS5 `bm25()` value: `-bm25`, or `None` when
/// that is not finite (which SQLite does not produce for a real match, but
/// the contract forbids passing on).
pub(crate) fn score_from_bm25(bm25: f64) -> Option<f64> {
    // `+ 0.0` turns a negated zero into a plain zero.
    let score = -bm25 + 0.0;
    score.is_finite().then_some(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_preserves_order_and_finiteness() {
        assert_eq!(score_from_bm25(-2.5), Some(2.5));
        assert_eq!(score_from_bm25(-1e-6), Some(1e-6));
        let zero = score_from_bm25(0.0).unwrap();
        assert!(zero == 0.0 && zero.is_sign_positive());
        assert_eq!(score_from_bm25(f64::NAN), None);
        assert_eq!(score_from_bm25(f64::NEG_INFINITY), None);
        let ranks = [-3.0, -2.0, -2.0, -0.5];
        let scores: Vec<f64> = ranks.iter().filter_map(|r| score_from_bm25(*r)).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    }
}
