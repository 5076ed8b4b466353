//! [`ShuffledNamespaces`]: `namespaces()` in a seeded random order.

use std::sync::Mutex;

use tinymemory_api::{MemoryError, MemoryProvider, NamespaceSummary};

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

tinymemory_api::delegate_provider! {
    /// Forwards every method; `namespaces()` is shuffled.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for ShuffledNamespaces<P> {
        forward(inner): driver_id, store, get, forget, list, recall, store_many, export_page,
            import, interface;

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let mut summaries = self.inner.namespaces().await?;
            lock(&self.rng).shuffle(&mut summaries);
            Ok(summaries)
        }
    }
}
