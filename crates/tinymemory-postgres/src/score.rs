//! Converting PostgreSQL `ts_rank` values into contract scores.
//!
//! `ts_rank(body, query)` (normalization 0) returns a `real` that grows with
//! how often, and how many of, the query's lexemes occur in the entry:
//! higher is better, and every match is positive. The contract's scores
//! (finite, higher-is-better, sentence 4) are that value widened to `f64`,
//! which is exact, so hits order by score exactly as the server ordered
//! them by rank, and two hits have equal scores exactly when their ranks are
//! equal (ties are then ordered by key). Source: PostgreSQL documentation,
//! section 12.3.3 "Ranking Search Results"
//! (<https://www.postgresql.org/docs/current/textsearch-controls.html#TEXTSEARCH-RANKING>).
//!
//! Unlike BM25 (the SQLite driver's score), `ts_rank` has no inverse
//! document frequency: a score depends on the entry and the query alone,
//! so scores from different namespaces, or different databases, compare.
//! Scores are small positive numbers (about 0.03 to 1 for ordinary text);
//! they do not compare with the SQLite driver's.

/// The contract score for a `ts_rank` value, or `None` when it is not
/// finite (which PostgreSQL does not produce, but the contract forbids
/// passing on).
pub(crate) fn score_from_rank(rank: f32) -> Option<f64> {
    // `+ 0.0` turns a negative zero into a plain zero.
    let score = f64::from(rank) + 0.0;
    score.is_finite().then_some(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_is_exact_and_finite_only() {
        assert_eq!(
            score_from_rank(0.060_792_71),
            Some(f64::from(0.060_792_71_f32))
        );
        assert_eq!(score_from_rank(0.5), Some(0.5));
        let zero = score_from_rank(-0.0).unwrap();
        assert!(zero == 0.0 && zero.is_sign_positive());
        assert_eq!(score_from_rank(f32::NAN), None);
        assert_eq!(score_from_rank(f32::INFINITY), None);
        let ranks = [0.09_f32, 0.06, 0.06, 0.03];
        let scores: Vec<f64> = ranks.iter().filter_map(|r| score_from_rank(*r)).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(scores[1], scores[2]);
    }
}
