//! `across_section`: the `1 + N` fan-out recall over one section.

pub(crate) mod enumerate;
pub(crate) mod fan_out;
pub(crate) mod hits;
pub(crate) mod merge;

use tinymemory_api::{MemoryError, MemoryProvider, MemorySection, RecallOptions};

use self::hits::SectionHits;
use self::merge::MergeStrategy;

/// Most namespaces one `across_section` call visits by default. Past it,
/// the namespaces with the fewest entries are skipped and
/// [`SectionHits::truncated`] is set.
pub const MAX_SECTION_NAMESPACES: usize = 64;

/// How many per-namespace recalls run at once by default: 16, so a full
/// fan-out of [`MAX_SECTION_NAMESPACES`] (64) runs in 4 rounds.
///
/// Chosen from the `fan_out_latency` and `fan_out_bound` benches
/// (`docs/benchmarks.md`). With 5 ms per call and 64 namespaces, 16 is the
/// smallest power of two at least 8× faster than sequential calls
/// (measured 12.4×, at 1.29× its floor); 8 measured 7.0× and cannot pass
/// 7.2× (9 rounds against 65 calls). Each doubling past 16 saves less (the
/// `namespaces()` call stays) while doubling the requests one recall puts
/// on a remote backend at once. On the local SQLite driver every bound
/// from 1 to 64 costs the same.
pub const DEFAULT_CONCURRENCY: usize = 16;

/// The rule id of the [`MemoryError::Invalid`] returned when
/// `across_section` is given `opts.namespace = Some(..)`: a section recall
/// chooses its own namespaces, and a caller's namespace would be silently
/// overridden.
pub const NAMESPACE_FILTER_CONFLICT: &str = "section.namespace_filter_conflict";

/// The fan-out recall across every namespace of a section.
///
/// Built by [`Sections::recall`](crate::Sections::recall); the cap and the
/// concurrency bound are configurable.
#[derive(Clone, Copy)]
pub struct SectionRecall<'a> {
    provider: &'a dyn MemoryProvider,
    cap: usize,
    concurrency: usize,
    merge: MergeStrategy,
}

impl<'a> SectionRecall<'a> {
    /// A fan-out over `provider` with the default cap and concurrency.
    #[must_use]
    pub fn new(provider: &'a dyn MemoryProvider) -> Self {
        Self {
            provider,
            cap: MAX_SECTION_NAMESPACES,
            concurrency: DEFAULT_CONCURRENCY,
            merge: MergeStrategy::Score,
        }
    }

    /// Visit at most `cap` namespaces (0 visits none and reports
    /// `truncated` whenever the section is not empty).
    #[must_use]
    pub fn with_cap(mut self, cap: usize) -> Self {
        self.cap = cap;
        self
    }

    /// Run at most `bound` recalls at once; `0` is read as `1`
    /// (sequential). The result does not depend on the bound.
    #[must_use]
    pub fn with_concurrency(mut self, bound: usize) -> Self {
        self.concurrency = bound.max(1);
        self
    }

    /// Merge the per-namespace hits with `strategy` (default
    /// [`MergeStrategy::Score`]).
    #[must_use]
    pub fn with_merge(mut self, strategy: MergeStrategy) -> Self {
        self.merge = strategy;
        self
    }

    /// The merge strategy in force.
    #[must_use]
    pub fn merge(&self) -> MergeStrategy {
        self.merge
    }

    /// The namespace cap in force.
    #[must_use]
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The concurrency bound in force.
    #[must_use]
    pub fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// Recalls `query` in every namespace of `section` and merges the hits.
    ///
    /// - **Cost**: one `namespaces()` call, then one `recall` per visited
    ///   namespace (`1 + N` calls), each pinned with `Some(namespace)` and
    ///   asked for the full `limit`. `limit == 0` returns empty hits with no
    ///   provider call.
    /// - **Visit order**: entry count descending, ties by namespace ascending
    ///   (bytewise); the first [`SectionRecall::cap`] are visited, so which
    ///   ones is a function of the stored data alone.
    /// - **Merge order**: see [`compare_hits`](crate::compare_hits): score
    ///   descending, absent and non-finite scores last, ties by
    ///   `(namespace, key)`; or reciprocal rank fusion when chosen with
    ///   [`SectionRecall::with_merge`]. Output length is
    ///   `min(limit, total hits)`.
    /// - **Result**: identical whatever order concurrent recalls finish in.
    ///
    /// # Errors
    ///
    /// - [`MemoryError::Invalid`] with [`NAMESPACE_FILTER_CONFLICT`] when
    ///   `opts.namespace` is set; with
    ///   [`SECTION_PREFIX`](tinymemory_api::rules::SECTION_PREFIX) for an
    ///   unusable section; with
    ///   [`MIN_SCORE_NOT_FINITE`](tinymemory_api::rules::MIN_SCORE_NOT_FINITE)
    ///   for a non-finite `min_score`.
    /// - The error of `namespaces()`, as returned.
    /// - The error of the first failing recall in visit order, of the same
    ///   kind, its message prefixed with the namespace.
    /// - [`MemoryError::Backend`] for a driver fault: `namespaces()` listing
    ///   one of the section's namespaces twice or listing an invalid one, or
    ///   a hit naming a namespace other than the one asked.
    pub async fn across_section(
        &self,
        section: &MemorySection,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<SectionHits, MemoryError> {
        let section = section.clone().normalized();
        section.validate()?;
        if let Some(ns) = &opts.namespace {
            return Err(MemoryError::invalid(
                NAMESPACE_FILTER_CONFLICT,
                format!(
                    "across_section chooses its own namespaces; opts.namespace = {ns:?} \
                     would be overridden (recall one scope with SectionView::recall instead)"
                ),
            ));
        }
        opts.validate()?;
        if limit == 0 {
            return Ok(SectionHits::default());
        }
        let listed = enumerate::section_namespaces(self.provider, &section).await?;
        let visit = enumerate::visit_order(listed);
        let truncated = visit.len() > self.cap;
        let searched: Vec<String> = visit
            .into_iter()
            .take(self.cap)
            .map(|s| s.namespace)
            .collect();
        let per_namespace = fan_out::recall_each(
            self.provider,
            &searched,
            query,
            limit,
            opts,
            self.concurrency,
        )
        .await?;
        let hits = merge::merge_hits(per_namespace, limit, self.merge);
        Ok(SectionHits {
            hits,
            searched,
            truncated,
        })
    }
}

impl std::fmt::Debug for SectionRecall<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SectionRecall")
            .field("driver", &self.provider.driver_id())
            .field("cap", &self.cap)
            .field("concurrency", &self.concurrency)
            .field("merge", &self.merge)
            .finish()
    }
}
