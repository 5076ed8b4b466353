//! Mutant `collection-wide-statistics`, for `recall.namespace_isolation`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, Namespace, RecallOptions};

/// Breaks contract sentence 11 (check `recall.namespace_isolation`): a
/// recall's scores are weighted by statistics over **every** namespace,
/// as SQLite FTS5's `bm25()` computes them over the whole index, so a
/// write in another namespace changes the score bits of a recall pinned
/// to this one (and leaks how common its words are there).
///
/// A recall validates its namespace and options, recalls the wrapped
/// driver without `min_score`, then multiplies every score by the
/// collection-wide inverse document frequency of the query
///
/// ```text
/// idf = ln(1 + (N - n + 0.5) / (n + 0.5))
/// ```
///
/// (the IDF of Okapi BM25, Robertson and Zaragoza, "The Probabilistic
/// Relevance Framework: BM25 and Beyond", 2009, as FTS5 computes it),
/// where `N` is the number of entries in all namespaces and `n` the number
/// of them the reference formula ([`tinymemory_reference::score`]) finds
/// the query in. `idf` is finite and positive (`0 <= n <= N`), and the
/// same for every hit of one recall, so the hits keep the wrapped driver's
/// order, ties and finiteness, and a section recall merging several
/// namespaces' hits keeps its order; `min_score` then applies to the
/// weighted scores and the first `limit` are kept. Every other method is
/// forwarded unchanged, so only sentence 11 is broken.
///
/// It also serves as the purpose-built broken double for that check:
/// `CollectionWideStatistics::new(ReferenceDriver::new())`.
#[derive(Debug, Clone, Default)]
pub struct CollectionWideStatistics<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(CollectionWideStatistics);

/// The BM25 inverse document frequency of a term found in `n` of `total`
/// documents; positive and finite for `n <= total`.
#[allow(clippy::cast_precision_loss)] // counts of entries, far below 2^52
pub(crate) fn bm25_idf(n: usize, total: usize) -> f64 {
    let (n, total) = (n as f64, total as f64);
    ((total - n + 0.5) / (n + 0.5)).ln_1p()
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` weights scores by collection-wide
    /// statistics, as described on the type.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for CollectionWideStatistics<P> {
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
            if hits.is_empty() {
                return Ok(hits);
            }
            let collection = self.inner.list(None, None, None).await?;
            let containing = collection
                .iter()
                .filter(|e| tinymemory_reference::score(query, &e.content).is_some())
                .count();
            let idf = bm25_idf(containing, collection.len());
            for hit in &mut hits {
                hit.score = hit.score.map(|s| s * idf);
            }
            hits.retain(|h| opts.admits(h.score));
            Ok(hits)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "collection-wide-statistics",
        rule: "contract 11: a pinned recall returns the same hits and score bits whatever other namespaces hold",
        check: "recall.namespace_isolation",
        also_caught_by: &[],
        description: "scores are weighted by a BM25 IDF counted over every namespace, as FTS5's bm25() is, so a write elsewhere changes them",
        wrap: CollectionWideStatistics::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            use tinymemory_api::{MemoryEntry, RecallOptions};
            put(d, "global", "a", "rust borrow").await?;
            let pinned = RecallOptions::in_namespace("global");
            let bits = |hits: Vec<MemoryEntry>| hits.first().and_then(|h| h.score).map(f64::to_bits);
            let before = bits(d.recall("rust", 10, &pinned).await?);
            put(d, "learning:x", "b", "rust").await?;
            let after = bits(d.recall("rust", 10, &pinned).await?);
            Ok(format!("{}", before == after))
        },
        reference: "true",
        mutant: "false",
    },
];
