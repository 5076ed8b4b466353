//! [`ShuffledNamespaces`]: `namespaces()` in a seeded random order.

use std::sync::Mutex;

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

use crate::lock::lock;
use crate::rng::SplitMix64;

/// Returns the inner `namespaces()` in a seeded random order; every other
/// method is forwarded unchanged.
///
/// Contract sentence 8 leaves the order of `namespaces()` unspecified, so no
/// caller may depend on it. Wrap a driver in this to prove a host does not:
/// its results must be identical for every seed.
///
/// The order is a Fisher–Yates shuffle driven by SplitMix64 seeded with
/// `seed`. One generator lives for the wrapper's lifetime and every call
/// advances it, so successive calls give different permutations (for short
/// lists two calls may still coincide by chance); the sequence of orders is
/// a pure function of the seed and of the inner results, on every platform
/// and in every version of this crate.
#[derive(Debug)]
pub struct ShuffledNamespaces<P: ?Sized> {
    seed: u64,
    rng: Mutex<SplitMix64>,
    inner: P,
}

impl<P> ShuffledNamespaces<P> {
    /// Wraps `inner`, shuffling with the sequence fixed by `seed`.
    #[must_use]
    pub fn new(inner: P, seed: u64) -> Self {
        Self {
            seed,
            rng: Mutex::new(SplitMix64::new(seed)),
            inner,
        }
    }

    /// Unwraps the provider.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> ShuffledNamespaces<P> {
    /// The seed given to [`ShuffledNamespaces::new`].
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    /// The wrapped provider, mutably.
    #[must_use]
    pub fn get_mut(&mut self) -> &mut P {
        &mut self.inner
    }
}

/// Forwards every method; `namespaces()` is shuffled.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for ShuffledNamespaces<P> {
    fn driver_id(&self) -> &str {
        self.inner.driver_id()
    }

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
            .await
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        self.inner.get(namespace, key).await
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.inner.forget(namespace, key).await
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.inner.list(namespace, category, session_id).await
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let mut summaries = self.inner.namespaces().await?;
        lock(&self.rng).shuffle(&mut summaries);
        Ok(summaries)
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.inner.recall(query, limit, opts).await
    }

    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        self.inner.store_many(entries).await
    }

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        self.inner.export_page(cursor, limit).await
    }

    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        self.inner.import(records).await
    }
}
