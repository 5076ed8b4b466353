//! Mutant for `recall.scores_finite_higher_better`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, Namespace, RecallOptions};

/// Breaks contract sentence 4 (`recall.scores_finite_higher_better`): every
/// recall score is negated, so the best hit has the *lowest* score, as a
/// driver reporting SQLite's raw `bm25()` would. Hits stay in the inner
/// driver's order (best first), so they come out in ascending score order.
///
/// To keep sentence 7 (`recall.min_score`) intact, `min_score` applies to
/// the reported, negated scores: the inner recall runs without it and the
/// hits with a negated score below it are dropped afterwards. (With a
/// `limit` below the number of matches, the dropped hits are not replaced.)
/// A `min_score` that is not finite is still refused.
#[derive(Debug, Clone, Default)]
pub struct NegatedScores<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(NegatedScores);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` negates scores as described on the type.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for NegatedScores<P> {
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
            for hit in &mut hits {
                hit.score = hit.score.map(|s| -s);
            }
            hits.retain(|hit| opts.admits(hit.score));
            Ok(hits)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "negated-scores",
        rule: "contract 4: scores are higher-is-better; an engine ranking lower-is-better converts",
        check: "recall.scores_finite_higher_better",
        also_caught_by: &["recall.min_score", "recall.self_retrieval", "model.differential"],
        description: "recall scores are negated: lower is better, like an unconverted bm25",
        wrap: NegatedScores::new(),
        profile: Lexical,
        witness: |d| { super::witness::two_scored_hits(d).await },
        reference: r#"[("full", Some(1.0)), ("half", Some(0.5))]"#,
        mutant: r#"[("full", Some(-1.0)), ("half", Some(-0.5))]"#,
    },
];
