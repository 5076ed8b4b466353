//! Mutants of a ranking engine: the faults vector-store drivers were seen
//! to have, each breaking one rule that holds for any recall profile.

use std::sync::atomic::{AtomicU64, Ordering};

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// The one fault a [`RankingFault`] injects into `recall`; every other
/// method, and every other part of a recall, is the wrapped driver's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RankingFaultKind {
    /// Each score `s` becomes the cosine distance `1 - s` (lower = nearer),
    /// in the wrapped driver's order, nearest first: a vector store's
    /// distance passed through unconverted (`recall.ranking_higher_better`).
    DistanceScores,
    /// The `n`-th recall adds `n * 1e-12` to every score, as a client that
    /// recomputes approximate distances on every call
    /// (`recall.deterministic`).
    JitteredScores,
    /// Each score is multiplied by the content's length in characters and
    /// the hits re-ranked: an inner product over unnormalised embeddings,
    /// where a longer neighbour outranks the entry itself
    /// (`recall.self_retrieval`).
    LengthScaledScores,
    /// `min_score` drops hits scoring exactly `min_score` too (`>` instead
    /// of `>=`) (`recall.min_score`).
    MinScoreExclusive,
    /// A recall with two hits or more loses its last one: a top-k off by
    /// one (`recall.limit`).
    ShortTopK,
    /// A pinned recall ranks the entries of every namespace, each hit
    /// carrying its own namespace: a collection-wide search with the
    /// namespace filter left out (`sections.pinned_hits_only`).
    IgnoresPin,
}

/// Wraps a driver and injects one [`RankingFaultKind`] into `recall`.
#[derive(Debug)]
pub struct RankingFault<P: ?Sized> {
    kind: RankingFaultKind,
    calls: AtomicU64,
    inner: P,
}

impl<P> RankingFault<P> {
    /// Wraps `inner`, injecting `kind`.
    #[must_use]
    pub fn new(kind: RankingFaultKind, inner: P) -> Self {
        Self {
            kind,
            calls: AtomicU64::new(0),
            inner,
        }
    }
}

impl<P: ?Sized> RankingFault<P> {
    /// The fault injected.
    #[must_use]
    pub fn kind(&self) -> RankingFaultKind {
        self.kind
    }

    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

impl<P: MemoryProvider + ?Sized> RankingFault<P> {
    async fn every_namespace(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.inner.recall(query, 0, opts).await?;
        let mut hits = Vec::new();
        for summary in self.inner.namespaces().await? {
            let pinned = RecallOptions {
                namespace: Some(summary.namespace),
                ..opts.clone()
            };
            hits.extend(self.inner.recall(query, limit, &pinned).await?);
        }
        sort_by_score(&mut hits);
        hits.truncate(limit);
        Ok(hits)
    }

    async fn length_scaled(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let unfiltered = RecallOptions {
            min_score: None,
            ..opts.clone()
        };
        let mut hits = self.inner.recall(query, usize::MAX, &unfiltered).await?;
        for h in &mut hits {
            #[expect(clippy::cast_precision_loss, reason = "test contents are short")]
            let length = h.content.chars().count() as f64;
            h.score = h.score.map(|s| s * length);
        }
        hits.retain(|h| opts.admits(h.score));
        sort_by_score(&mut hits);
        hits.truncate(limit);
        Ok(hits)
    }
}

/// Score descending (stable, so ties keep their order).
fn sort_by_score(hits: &mut [MemoryEntry]) {
    let score = |h: &MemoryEntry| h.score.unwrap_or(f64::NEG_INFINITY);
    hits.sort_by(|a, b| score(b).total_cmp(&score(a)));
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` carries the fault.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for RankingFault<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let n = self.calls.fetch_add(1, Ordering::Relaxed);
            match self.kind {
                RankingFaultKind::IgnoresPin => {
                    return self.every_namespace(query, limit, opts).await
                }
                RankingFaultKind::LengthScaledScores => {
                    return self.length_scaled(query, limit, opts).await
                }
                _ => {}
            }
            let mut hits = self.inner.recall(query, limit, opts).await?;
            match self.kind {
                RankingFaultKind::DistanceScores => {
                    for h in &mut hits {
                        h.score = h.score.map(|s| 1.0 - s);
                    }
                }
                RankingFaultKind::JitteredScores => {
                    #[expect(clippy::cast_precision_loss, reason = "a call count")]
                    let jitter = n as f64 * 1e-12;
                    for h in &mut hits {
                        h.score = h.score.map(|s| s + jitter);
                    }
                }
                RankingFaultKind::MinScoreExclusive => {
                    if let Some(min) = opts.min_score {
                        hits.retain(|h| h.score != Some(min));
                    }
                }
                RankingFaultKind::ShortTopK => {
                    if hits.len() >= 2 {
                        hits.pop();
                    }
                }
                RankingFaultKind::IgnoresPin | RankingFaultKind::LengthScaledScores => {}
            }
            Ok(hits)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "distance-scores",
        rule: "contract 4: scores are higher-is-better; a distance (lower = nearer) converts",
        check: "recall.ranking_higher_better",
        also_caught_by: &["recall.min_score", "recall.self_retrieval", "recall.reindexed_on_upsert", "model.differential"],
        description: "scores are the cosine distance 1 - s, nearest first, as a vector store returns them",
        wrap: RankingFault::new(RankingFaultKind::DistanceScores),
        profile: Semantic,
        witness: |d| {
            use super::witness::{put, ranked};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "self", "comet tail").await?;
            put(d, "global", "far", "granite river").await?;
            Ok(ranked(&d.recall("comet tail", 10, &any()).await?))
        },
        reference: r#"[("self", "1.000"), ("far", "0.000")]"#,
        mutant: r#"[("self", "0.000"), ("far", "1.000")]"#,
    },
    entry! {
        name: "jittered-scores",
        rule: "ranking: the same recall on unchanged data returns identical hits and score bits",
        check: "recall.deterministic",
        also_caught_by: &["recall.limit", "recall.min_score", "properties.across_ordering", "properties.cap_determinism", "properties.custom_spelling", "properties.concurrent_equals_sequential", "model.differential"],
        description: "the n-th recall adds n * 1e-12 to every score",
        wrap: RankingFault::new(RankingFaultKind::JitteredScores),
        profile: Semantic,
        witness: |d| {
            use super::witness::put;
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "comet tail").await?;
            let a = d.recall("comet", 10, &any()).await?;
            let b = d.recall("comet", 10, &any()).await?;
            Ok(format!(
                "{}",
                a.first().and_then(|h| h.score).map(f64::to_bits)
                    == b.first().and_then(|h| h.score).map(f64::to_bits)
            ))
        },
        reference: "true",
        mutant: "false",
    },
    entry! {
        name: "length-scaled-scores",
        rule: "ranking: an entry's own content ranks that entry first",
        check: "recall.self_retrieval",
        also_caught_by: &[],
        description: "scores are multiplied by the content's length, like an inner product over unnormalised embeddings",
        wrap: RankingFault::new(RankingFaultKind::LengthScaledScores),
        profile: Semantic,
        witness: |d| {
            use super::witness::{keys, put};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "a", "comet tail").await?;
            put(d, "global", "b", "comet dust over northern hills at dusk").await?;
            Ok(format!(
                "{:?}",
                keys(&d.recall("comet tail", 10, &any()).await?)
            ))
        },
        reference: r#"["a", "b"]"#,
        mutant: r#"["b", "a"]"#,
    },
    entry! {
        name: "min-score-exclusive",
        rule: "contract 7: min_score keeps exactly the hits scoring >= it",
        check: "recall.min_score",
        also_caught_by: &[],
        description: "a hit scoring exactly min_score is dropped (> instead of >=)",
        wrap: RankingFault::new(RankingFaultKind::MinScoreExclusive),
        profile: Semantic,
        witness: |d| {
            use super::witness::{keys, put};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "comet").await?;
            let opts = RecallOptions {
                min_score: Some(1.0),
                ..any()
            };
            Ok(format!("{:?}", keys(&d.recall("comet", 10, &opts).await?)))
        },
        reference: r#"["k"]"#,
        mutant: "[]",
    },
    entry! {
        name: "short-top-k",
        rule: "contract 5: a recall returns min(limit, entries passing the filters) hits",
        check: "recall.limit",
        also_caught_by: &["recall.hit_namespace", "recall.min_score", "recall.ranking_higher_better", "recall.filters", "recall.huge_limit", "sections.namespaces_listed_once", "model.differential"],
        description: "a recall of two hits or more loses its last one",
        wrap: RankingFault::new(RankingFaultKind::ShortTopK),
        profile: Semantic,
        witness: |d| {
            use super::witness::put;
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            for k in ["a", "b", "c"] {
                put(d, "global", k, "comet").await?;
            }
            Ok(format!("{}", d.recall("comet", 10, &any()).await?.len()))
        },
        reference: "3",
        mutant: "2",
    },
    entry! {
        name: "ignores-pin",
        rule: "section API: a hit from another namespace than the one a recall was pinned to is a driver fault",
        check: "sections.pinned_hits_only",
        also_caught_by: &["recall.none_means_global", "recall.hit_namespace", "recall.limit", "recall.self_retrieval", "recall.namespace_isolation", "recall.filters", "recall.hostile_queries", "namespace.case_sensitive", "namespace.no_wildcards", "namespace.reserved_words", "sections.across_merge_order", "sections.cap_and_truncation", "sections.namespaces_listed_once", "sections.view_recall_pinned", "properties.across_ordering", "properties.cap_determinism", "properties.pinning_cost", "properties.truncation", "properties.concurrent_equals_sequential", "model.differential"],
        description: "a pinned recall ranks the entries of every namespace, as a collection-wide vector search",
        wrap: RankingFault::new(RankingFaultKind::IgnoresPin),
        profile: Semantic,
        witness: |d| {
            use super::witness::{key_ns, put};
            use tinymemory_api::RecallOptions;
            put(d, "global", "g", "comet").await?;
            put(d, "learning:x", "l", "comet").await?;
            let opts = RecallOptions::in_namespace("learning:x");
            Ok(format!("{:?}", key_ns(&d.recall("comet", 10, &opts).await?)))
        },
        reference: r#"[("l", Some("learning:x"))]"#,
        mutant: r#"[("g", Some("global")), ("l", Some("learning:x"))]"#,
    },
];
