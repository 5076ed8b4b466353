//! Okapi BM25 over one namespace, computed exactly as FTS5's `bm25()`
//! computes it over a table, but with the namespace's own statistics.
//!
//! For a query of phrases `q_1 … q_n` (in query order) and an entry `D`:
//!
//! ```text
//! score(D) = Σ_i IDF(q_i) · f(q_i, D) · (k1 + 1) / (f(q_i, D) + k1 · (1 − b + b · |D| / avgdl))
//! IDF(q_i) = ln((N − n(q_i) + 0.5) / (n(q_i) + 0.5)), or 10⁻⁶ when that is ≤ 0
//! ```
//!
//! with `k1 = 1.2`, `b = 0.75`, `f(q_i, D)` the occurrences of `q_i` in `D`,
//! `|D|` the entry's length in tokens, and — the difference from FTS5 — `N`
//! the entries of the namespace, `avgdl` their mean length and `n(q_i)` the
//! entries *of the namespace* holding `q_i`. Nothing outside the namespace
//! enters the formula, so a recall's scores are the same bits whatever other
//! namespaces hold (contract sentence 11).
//!
//! Sources: S. Robertson and H. Zaragoza, "The Probabilistic Relevance
//! Framework: BM25 and Beyond", Foundations and Trends in Information
//! Retrieval 3(4), 2009, eq. 3.15 with the Robertson–Spärck Jones IDF
//! without relevance information (§3.3); the clamped IDF, the parameters
//! and the order of the floating-point operations are those of SQLite's FTS5
//! (`fts5Bm25Function` in `fts5_aux.c`; documentation
//! <https://www.sqlite.org/fts5.html#the_bm25_function>). FTS5 returns the
//! negated sum so that lower is better; this driver returns the sum itself,
//! higher is better, which is the same ordering (negation is exact).
//! `tests/contract.rs` checks the scores bit for bit against FTS5's
//! `bm25()` on a table holding only the namespace.

/// FTS5's `k1`.
pub(crate) const K1: f64 = 1.2;
/// FTS5's `b`.
pub(crate) const B: f64 = 0.75;

/// The statistics of one namespace.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stats {
    /// Entries in the namespace (`N`).
    pub(crate) entries: i64,
    /// Their total length in tokens.
    pub(crate) tokens: i64,
}

impl Stats {
    /// The IDF of a phrase held by `holding` entries of the namespace.
    #[allow(clippy::cast_precision_loss)] // counts far below 2^53
    pub(crate) fn idf(self, holding: usize) -> f64 {
        let n = self.entries as f64;
        let hit = holding as f64;
        let idf = ((n - hit + 0.5) / (hit + 0.5)).ln();
        if idf <= 0.0 {
            1e-6
        } else {
            idf
        }
    }

    /// The mean entry length, `avgdl`.
    #[allow(clippy::cast_precision_loss)]
    pub(crate) fn avgdl(self) -> f64 {
        self.tokens as f64 / self.entries as f64
    }
}

/// The BM25 score of an entry of length `length` whose phrase `i`
/// occurs `freq[i]` times, with the phrases' `idf` in query order. `None`
/// when the result is not finite (an empty namespace's `avgdl`), which
/// no entry that matched can produce.
pub(crate) fn bm25(idf: &[f64], freq: &[u32], length: u32, avgdl: f64) -> Option<f64> {
    let d = f64::from(length);
    let mut score = 0.0;
    for (w, &f) in idf.iter().zip(freq) {
        if f == 0 {
            // FTS5 adds `idf · 0 / (…)`, a zero: skipping it keeps the bits.
            continue;
        }
        let f = f64::from(f);
        score += w * ((f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * d / avgdl)));
    }
    score.is_finite().then_some(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idf_is_clamped_for_common_phrases() {
        let s = Stats {
            entries: 6,
            tokens: 17,
        };
        assert_eq!(s.idf(1), (5.5_f64 / 1.5).ln());
        assert_eq!(s.idf(3), 1e-6);
        assert_eq!(s.idf(5), 1e-6);
        assert_eq!(s.avgdl(), 17.0 / 6.0);
    }

    #[test]
    fn scores_follow_the_formula() {
        let avg = 17.0 / 6.0;
        let got = bm25(&[2.0, 0.5], &[1, 2], 4, avg).unwrap();
        let one = |w: f64, f: f64| w * (f * 2.2) / (f + 1.2 * (0.25 + 0.75 * 4.0 / avg));
        assert_eq!(got, one(2.0, 1.0) + one(0.5, 2.0));
        assert_eq!(bm25(&[2.0], &[0], 4, avg), Some(0.0));
        assert_eq!(bm25(&[2.0], &[1], 0, 0.0), None);
    }
}
