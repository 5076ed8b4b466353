//! [`Latency`]: a delay before every call.

use std::sync::Mutex;
use std::time::Duration;

use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

use crate::lock::lock;
use crate::rng::SplitMix64;

/// How long [`Latency`] waits before each call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Delay {
    /// The same delay every call.
    Fixed(Duration),
    /// A delay drawn per call, uniformly among `min`, `min + 1 ms`, ...,
    /// up to the last such value not above `max` (whole-millisecond steps:
    /// Tokio's timer resolution is one millisecond, so finer steps would be
    /// rounded up anyway). The sequence of delays is fixed by `seed`
    /// (SplitMix64, one draw per call).
    Uniform {
        /// The shortest delay.
        min: Duration,
        /// The longest delay; must not be below `min`.
        max: Duration,
        /// The seed of the sequence.
        seed: u64,
    },
    /// No time at all: before each call the task yields to the runtime
    /// ([`tokio::task::yield_now`]) a number of times drawn per call,
    /// uniformly in `0..=max` (SplitMix64 from `seed`, one draw per call).
    /// Concurrent calls then finish in shuffled, seed-fixed orders, as
    /// under [`Delay::Uniform`], without waiting on a clock: for properties
    /// about completion order, which a timer would make slow (64 cases of
    /// up to 4 ms per call took 1.5 s of a 2.9 s run, all of it idle).
    Yields {
        /// The most yields before one call.
        max: u32,
        /// The seed of the sequence.
        seed: u64,
    },
}

/// Sleeps with [`tokio::time::sleep`] before forwarding each storage call
/// (every method but `driver_id`), to model a remote engine: benches of
/// sequential against concurrent fan-out, timeouts, reordering of concurrent
/// completions. Results are forwarded unchanged.
///
/// In tests, run under a paused clock (`#[tokio::test(start_paused = true)]`
/// or `tokio::time::pause`, both from Tokio's `test-util` feature) so the
/// delays cost no wall-clock time and elapsed times are exact.
///
/// Tokio's timer has millisecond resolution: a sleep ends on the first
/// millisecond tick at or after its deadline, so a sub-millisecond delay
/// costs up to one millisecond.
///
/// # Panics
///
/// [`Latency::new`] and [`Latency::uniform`] panic when a uniform delay has
/// `min > max`. Every call panics when polled outside a Tokio runtime with
/// the time driver enabled, as [`tokio::time::sleep`] does.
#[derive(Debug)]
pub struct Latency<P: ?Sized> {
    delay: Delay,
    rng: Mutex<SplitMix64>,
    inner: P,
}

impl<P> Latency<P> {
    /// Wraps `inner`, waiting `delay` before each call.
    ///
    /// # Panics
    ///
    /// When `delay` is [`Delay::Uniform`] with `min > max`.
    #[must_use]
    pub fn new(inner: P, delay: Delay) -> Self {
        let seed = match delay {
            Delay::Fixed(_) => 0,
            Delay::Yields { seed, .. } => seed,
            Delay::Uniform { min, max, seed } => {
                assert!(
                    min <= max,
                    "uniform delay needs min <= max, got {min:?} > {max:?}"
                );
                seed
            }
        };
        Self {
            delay,
            rng: Mutex::new(SplitMix64::new(seed)),
            inner,
        }
    }

    /// Wraps `inner`, waiting `delay` before each call.
    #[must_use]
    pub fn fixed(inner: P, delay: Duration) -> Self {
        Self::new(inner, Delay::Fixed(delay))
    }

    /// Wraps `inner`, waiting a seeded-random delay in `[min, max]` before
    /// each call (see [`Delay::Uniform`]).
    ///
    /// # Panics
    ///
    /// When `min > max`.
    #[must_use]
    pub fn uniform(inner: P, min: Duration, max: Duration, seed: u64) -> Self {
        Self::new(inner, Delay::Uniform { min, max, seed })
    }

    /// Unwraps the provider.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> Latency<P> {
    /// The configured delay.
    #[must_use]
    pub fn delay(&self) -> Delay {
        self.delay
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

    /// Waits before a call as [`Delay`] says (advancing the generator for
    /// a drawn delay).
    async fn pause(&self) {
        match self.delay {
            Delay::Fixed(d) => tokio::time::sleep(d).await,
            Delay::Uniform { min, max, .. } => {
                let steps = u64::try_from((max - min).as_millis()).unwrap_or(u64::MAX);
                let k = lock(&self.rng).below(steps.saturating_add(1));
                tokio::time::sleep(min + Duration::from_millis(k)).await;
            }
            Delay::Yields { max, .. } => {
                let n = lock(&self.rng).below(u64::from(max) + 1);
                for _ in 0..n {
                    tokio::task::yield_now().await;
                }
            }
        }
    }
}

tinymemory_api::delegate_provider! {
    /// Sleeps, then forwards every method unchanged.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for Latency<P> {
        forward(inner): driver_id;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.pause().await;
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            self.pause().await;
            self.inner.get(namespace, key).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            self.pause().await;
            self.inner.forget(namespace, key).await
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            self.pause().await;
            self.inner.list(namespace, category, session_id).await
        }

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            self.pause().await;
            self.inner.namespaces().await
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            self.pause().await;
            self.inner.recall(query, limit, opts).await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            self.pause().await;
            self.inner.store_many(entries).await
        }

        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            self.pause().await;
            self.inner.export_page(cursor, limit).await
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            self.pause().await;
            self.inner.import(records).await
        }
    }
}
