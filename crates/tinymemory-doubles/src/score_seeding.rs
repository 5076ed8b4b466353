//! [`ScoreSeedingStore`]: recall returns the scores a test chose.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Mutex;

use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace, RecallOptions,
};
use tinymemory_reference::{score, ReferenceDriver};

use crate::lock::lock;

/// The order in which [`ScoreSeedingStore`] returns recall hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum HitOrder {
    /// Score descending by [`f64::total_cmp`], hits without a score last,
    /// ties by key ascending (bytewise). This is what a driver that sorts
    /// with `total_cmp` and trusts its engine emits, so it is adversarial on
    /// purpose: `+NaN` sorts *above* `+inf`, `+0.0` above `-0.0`, and `-NaN`
    /// below `-inf`. The full descending order is
    /// `+NaN, +inf, f64::MAX, ..., positive subnormals, +0.0, -0.0, ...,
    /// -inf, -NaN, None`.
    #[default]
    TotalScoreDescending,
    /// Key ascending (bytewise), whatever the scores: the store does not
    /// rank at all, so any ordering must be the consumer's own.
    KeyAscending,
}

/// An in-memory driver whose recall reports, for each entry, the score a
/// test seeded for it: any `Option<f64>`, NaN of either sign, ±inf, `-0.0`,
/// subnormals and `f64::MAX` included. Scores are returned bit for bit,
/// never sanitised: it exists so that consumers of recall (merges, rankers,
/// the section API) prove they cope with whatever a faulty driver reports.
///
/// Storage is a [`ReferenceDriver`]: `store`, `get`, `forget`, `list` and
/// `namespaces` behave exactly like it (upsert, validation, ordering). Its
/// [`driver_id`](MemoryProvider::driver_id) is `score-seeding`.
///
/// # Recall
///
/// `recall(query, limit, opts)`:
///
/// 1. refuses an invalid namespace ([`Namespace::parse`] of
///    `opts.effective_namespace()`) and a non-finite `min_score`
///    ([`RecallOptions::validate`]), like the reference driver;
/// 2. returns `Ok(empty)` when `limit == 0` or the query is empty or
///    whitespace-only (contract sentences 5 and 6 still hold);
/// 3. considers the entries of the one namespace searched (`None` means
///    `global`) that pass the `category` and `session_id` filters;
/// 4. an entry with a seeded score is a hit **for any such query**, carrying
///    exactly the seeded `Option<f64>`; an entry without a seed is a hit
///    when the reference formula ([`tinymemory_reference::score`]) scores
///    it, with that score;
/// 5. keeps the hits that [`RecallOptions::admits`]: when `min_score` is set,
///    hits scored `None` or NaN are dropped, `+inf` is kept;
/// 6. orders them by the store's [`HitOrder`] and keeps the first `limit`.
///
/// Every hit carries `namespace: Some(..)` of the namespace searched.
///
/// Seeds are keyed by `(namespace, key)` and independent of the entries: a
/// seed may precede its entry, and outlives `forget` (a re-stored entry keeps
/// its seed) until [`ScoreSeedingStore::clear_score`].
///
/// ```
/// use tinymemory_api::{MemoryProvider, RecallOptions};
/// use tinymemory_doubles::ScoreSeedingStore;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let store = ScoreSeedingStore::new();
/// store.store_scored("global", "a", "anything", Some(f64::NAN)).await?;
/// store.store_scored("global", "b", "anything", Some(0.5)).await?;
/// let hits = store.recall("query", 10, &RecallOptions::default()).await?;
/// assert_eq!(hits[0].key, "a");
/// assert!(hits[0].score.is_some_and(f64::is_nan));
/// # Ok::<(), tinymemory_api::MemoryError>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Default)]
pub struct ScoreSeedingStore {
    entries: ReferenceDriver,
    seeds: Mutex<BTreeMap<(String, String), Option<f64>>>,
    order: HitOrder,
}

impl ScoreSeedingStore {
    /// An empty store with [`HitOrder::TotalScoreDescending`].
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The same store, returning hits in `order`.
    #[must_use]
    pub fn with_order(mut self, order: HitOrder) -> Self {
        self.order = order;
        self
    }

    /// The order hits are returned in.
    #[must_use]
    pub fn order(&self) -> HitOrder {
        self.order
    }

    /// Seeds the score the entry at `(namespace, key)` is recalled with,
    /// replacing any earlier seed. `None` seeds "a hit with no score".
    /// Nothing is validated: a seed for an invalid namespace is simply never
    /// used.
    pub fn seed_score(&self, namespace: &str, key: &str, score: Option<f64>) {
        lock(&self.seeds).insert((namespace.to_owned(), key.to_owned()), score);
    }

    /// Removes the seed of `(namespace, key)`, returning it (`Some(seed)`)
    /// or `None` when there was none. The entry, if any, is scored by the
    /// reference formula again.
    pub fn clear_score(&self, namespace: &str, key: &str) -> Option<Option<f64>> {
        lock(&self.seeds).remove(&(namespace.to_owned(), key.to_owned()))
    }

    /// The seed of `(namespace, key)`: `Some(seed)` when seeded, else `None`.
    #[must_use]
    pub fn seeded_score(&self, namespace: &str, key: &str) -> Option<Option<f64>> {
        lock(&self.seeds)
            .get(&(namespace.to_owned(), key.to_owned()))
            .copied()
    }

    /// Stores `content` at `(namespace, key)` with category
    /// [`MemoryCategory::Core`], no session and [`MemoryTaint::Internal`],
    /// then seeds its score.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] for an invalid namespace or key, in which
    /// case nothing is stored or seeded.
    pub async fn store_scored(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        score: Option<f64>,
    ) -> Result<(), MemoryError> {
        self.entries
            .store(
                namespace,
                key,
                content,
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await?;
        self.seed_score(namespace, key, score);
        Ok(())
    }

    fn compare(&self, a: &MemoryEntry, b: &MemoryEntry) -> Ordering {
        match self.order {
            HitOrder::KeyAscending => a.key.cmp(&b.key),
            HitOrder::TotalScoreDescending => {
                let by_score = match (a.score, b.score) {
                    (Some(x), Some(y)) => y.total_cmp(&x),
                    (Some(_), None) => Ordering::Less,
                    (None, Some(_)) => Ordering::Greater,
                    (None, None) => Ordering::Equal,
                };
                by_score.then_with(|| a.key.cmp(&b.key))
            }
        }
    }
}

tinymemory_api::delegate_provider! {
    /// Storage forwards to the inner [`ReferenceDriver`]; `recall` is described
    /// on [`ScoreSeedingStore`].
    impl MemoryProvider for ScoreSeedingStore {
        forward(entries): store, get, forget, list, namespaces, store_many, export_page, import, interface;

        fn driver_id(&self) -> &str {
            "score-seeding"
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let namespace = opts.effective_namespace();
            Namespace::parse(namespace)?;
            opts.validate()?;
            if limit == 0 || query.trim().is_empty() {
                return Ok(Vec::new());
            }
            let candidates = self
                .entries
                .list(
                    Some(namespace),
                    opts.category.as_ref(),
                    opts.session_id.as_deref(),
                )
                .await?;
            let mut hits: Vec<MemoryEntry> = {
                let seeds = lock(&self.seeds);
                candidates
                    .into_iter()
                    .filter_map(|entry| {
                        let seeded = seeds.get(&(namespace.to_owned(), entry.key.clone()));
                        let hit_score = match seeded {
                            Some(seed) => *seed,
                            None => Some(score(query, &entry.content)?),
                        };
                        opts.admits(hit_score).then(|| MemoryEntry {
                            score: hit_score,
                            namespace: Some(namespace.to_owned()),
                            ..entry
                        })
                    })
                    .collect()
            };
            hits.sort_by(|a, b| self.compare(a, b));
            hits.truncate(limit);
            Ok(hits)
        }
    }
}
