//! Mutant `row-dependent-scores`, for `properties.cap_determinism`, and
//! its conforming twin: scores that move with where an entry is stored.

use std::sync::{Mutex, MutexGuard, PoisonError};

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace, NewEntry,
    RecallOptions,
};

/// How far [`RowDependentScores`] moves the score of an entry in an odd
/// row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowStep {
    /// Up by this many units in the last place (`f64::next_up`, so many
    /// times): the noise of a sum whose order follows the row, as numpy's
    /// dot product through OpenBLAS gives `0.7329325225725953` or
    /// `0.7329325225725951` by a document's row. A correct engine.
    Ulps(u32),
    /// Up by this much: far beyond any summation noise, a score that
    /// depends on where the entry is stored. A broken engine.
    By(f64),
}

/// Scores that depend on an entry's row: the wrapped driver's score of an
/// entry in an odd row (its 0-based place among the store's entries in
/// the order they were first written, later rows moving up one when an
/// entry is forgotten, as a matrix of vectors is compacted) is moved up
/// by a [`RowStep`], and the hits are ranked again by the moved scores
/// (highest first, ties in the wrapped driver's order), then filtered by
/// `min_score` and cut at the limit, so each answer is a correct ranking
/// of its own scores.
///
/// With [`RowStep::Ulps`]`(1)` it is the conforming double of an engine
/// whose sums follow the row: it passes every check, and the same data
/// stored in another order scores up to one ulp apart
/// (`properties.cap_determinism` reports that as the run's score noise).
/// With [`RowStep::By`]`(1e-3)` it is the mutant that check must catch.
/// The same recall on unchanged data gives the same bits either way.
#[derive(Debug)]
pub struct RowDependentScores<P: ?Sized> {
    step: RowStep,
    /// `(namespace, key)` of every entry, in row order.
    rows: Mutex<Vec<(String, String)>>,
    inner: P,
}

impl<P> RowDependentScores<P> {
    /// Wraps `inner`, moving odd rows' scores by `step`.
    #[must_use]
    pub fn new(step: RowStep, inner: P) -> Self {
        Self {
            step,
            rows: Mutex::new(Vec::new()),
            inner,
        }
    }

    /// Unwraps the provider.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> RowDependentScores<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    fn rows(&self) -> MutexGuard<'_, Vec<(String, String)>> {
        self.rows.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Gives `(namespace, key)` a row, the next one, unless it has one.
    fn written(&self, namespace: &str, key: &str) {
        let mut rows = self.rows();
        if !rows.iter().any(|(n, k)| n == namespace && k == key) {
            rows.push((namespace.to_owned(), key.to_owned()));
        }
    }

    /// `score` moved as the row of `hit` says.
    fn moved(&self, hit: &MemoryEntry, score: f64) -> f64 {
        let ns = hit.namespace.as_deref().unwrap_or_default();
        let row = self
            .rows()
            .iter()
            .position(|(n, k)| n == ns && *k == hit.key);
        if row.is_none_or(|r| r % 2 == 0) || !score.is_finite() {
            return score;
        }
        match self.step {
            RowStep::Ulps(n) => (0..n).fold(score, |s, _| s.next_up()),
            RowStep::By(by) => score + by,
        }
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; writes give rows, a forget takes one away,
    /// and `recall` moves and re-ranks scores as described on the type.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for RowDependentScores<P> {
        forward(inner): driver_id, get, list, namespaces, export_page, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await?;
            self.written(namespace, key);
            Ok(())
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            self.inner.store_many(entries).await?;
            for e in entries {
                self.written(&e.namespace, &e.key);
            }
            Ok(())
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let outcome = self.inner.import(records).await?;
            for (i, r) in records.iter().enumerate() {
                if outcome.failures.iter().all(|f| f.index != i) {
                    self.written(&r.namespace, &r.key);
                }
            }
            Ok(outcome)
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            let gone = self.inner.forget(namespace, key).await?;
            self.rows().retain(|(n, k)| !(n == namespace && k == key));
            Ok(gone)
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            Namespace::parse(opts.effective_namespace())?;
            opts.validate()?;
            if limit == 0 {
                return Ok(Vec::new());
            }
            let every = RecallOptions {
                min_score: None,
                ..opts.clone()
            };
            let mut hits = self.inner.recall(query, usize::MAX, &every).await?;
            for hit in &mut hits {
                hit.score = hit.score.map(|s| self.moved(hit, s));
            }
            // Stable: equal moved scores keep the wrapped driver's order.
            hits.sort_by(|a, b| match (a.score, b.score) {
                (Some(a), Some(b)) => b.total_cmp(&a),
                (a, b) => b.is_some().cmp(&a.is_some()),
            });
            hits.retain(|h| opts.admits(h.score));
            hits.truncate(limit);
            Ok(hits)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[entry! {
    name: "row-dependent-scores",
    rule: "properties: the same data stored in any order scores the same, up to summation noise (2^-19 of max(1, |score|))",
    check: "properties.cap_determinism",
    also_caught_by: &[],
    description: "an entry's score moves up by 0.001 when it is stored in an odd row, so the same data stored in another order scores and ranks otherwise",
    wrap: RowDependentScores::new(RowStep::By(1e-3)),
    profile: Lexical,
    witness: |d| {
        super::witness::put(d, "global", "a", "rust async").await?;
        super::witness::put(d, "global", "b", "rust async").await?;
        let hits = d.recall("rust", 10, &RecallOptions::default()).await?;
        Ok(format!("{:?}", super::witness::scored(&hits)))
    },
    reference: r#"[("a", Some(1.0)), ("b", Some(1.0))]"#,
    mutant: r#"[("b", Some(1.001)), ("a", Some(1.0))]"#,
}];
