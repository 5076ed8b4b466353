//! Mutant `nan-scores`, for `recall.scores_finite_higher_better`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, Namespace, RecallOptions};

/// Breaks contract sentence 4's "finite" (check
/// `recall.scores_finite_higher_better`): the best hit of every recall
/// (the first one the inner driver returns, when it has a score) scores
/// `NaN`, as a score normalised by `0.0 / 0.0` for a perfect match would.
/// The other hits keep their scores, and the order is unchanged.
///
/// To keep sentence 7 (`recall.min_score`) intact, `min_score` applies to
/// the reported scores: the inner recall runs without it, and the hits that
/// [`RecallOptions::admits`] refuses are dropped afterwards, so with
/// `min_score` set the `NaN` hit is always dropped (and not replaced). A
/// `min_score` that is not finite is still refused.
#[derive(Debug, Clone, Default)]
pub struct NanScores<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(NanScores);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` gives its best hit a `NaN` score.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for NanScores<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            Namespace::parse(opts.effective_namespace())?;
            opts.validate()?;
            let unfiltered = RecallOptions {
                min_score: None,
                ..opts.clone()
            };
            let mut hits = self.inner.recall(query, limit, &unfiltered).await?;
            if let Some(best) = hits.first_mut() {
                best.score = best.score.map(|_| f64::NAN);
            }
            hits.retain(|hit| opts.admits(hit.score));
            Ok(hits)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "nan-scores",
        rule: "contract 4: scores, when present, are finite",
        check: "recall.scores_finite_higher_better",
        also_caught_by: &["recall.plain_text_query", "recall.min_score", "recall.self_retrieval", "recall.hostile_queries", "model.differential"],
        description: "the best hit of every recall scores NaN, as a 0/0 normalisation would give",
        wrap: NanScores::new(),
        profile: Lexical,
        witness: |d| { super::witness::two_scored_hits(d).await },
        reference: r#"[("full", Some(1.0)), ("half", Some(0.5))]"#,
        mutant: r#"[("full", Some(NaN)), ("half", Some(0.5))]"#,
    },
];
