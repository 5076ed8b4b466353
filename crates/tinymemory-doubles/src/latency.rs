//! [`Latency`]: a delay before every call, as the hook [`Pause`].

use std::sync::Mutex;
use std::time::Duration;

use tinymemory_api::{Call, CallHook, Hooked, MemoryError};

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
/// completions. Results are forwarded unchanged. It is [`Hooked`] with a
/// [`Pause`] as its hook.
///
/// In tests, run under a paused clock (`#[tokio::test(start_paused = true)]`
/// or `tokio::time::pause`, both from Tokio's `test-util` feature) so the
/// delays cost no wall-clock time and elapsed times are exact.
///
/// Tokio's timer has millisecond resolution: a sleep ends on the first
/// millisecond tick at or after its deadline, so a sub-millisecond delay
/// costs up to one millisecond.
///
/// ```
/// use std::time::Duration;
/// use tinymemory_api::MemoryProvider;
/// use tinymemory_doubles::{Latency, Pause};
/// use tinymemory_reference::ReferenceDriver;
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).build().unwrap().block_on(async {
/// let driver = Latency::new(ReferenceDriver::new(), Pause::fixed(Duration::from_millis(5)));
/// let start = tokio::time::Instant::now();
/// driver.namespaces().await?;
/// assert_eq!(start.elapsed(), Duration::from_millis(5));
/// # Ok::<(), tinymemory_api::MemoryError>(())
/// # }).unwrap();
/// ```
///
/// # Panics
///
/// Every call panics when polled outside a Tokio runtime with the time
/// driver enabled, as [`tokio::time::sleep`] does.
pub type Latency<P> = Hooked<P, Pause>;

/// The hook of [`Latency`]: waits as its [`Delay`] says before each call,
/// drawing a delay per call from its seeded generator.
#[derive(Debug)]
pub struct Pause {
    delay: Delay,
    rng: Mutex<SplitMix64>,
}

impl Pause {
    /// Waits `delay` before each call.
    ///
    /// # Panics
    ///
    /// When `delay` is [`Delay::Uniform`] with `min > max`.
    #[must_use]
    pub fn new(delay: Delay) -> Self {
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
        }
    }

    /// Waits `delay` before each call.
    #[must_use]
    pub fn fixed(delay: Duration) -> Self {
        Self::new(Delay::Fixed(delay))
    }

    /// Waits a seeded-random delay in `[min, max]` before each call (see
    /// [`Delay::Uniform`]).
    ///
    /// # Panics
    ///
    /// When `min > max`.
    #[must_use]
    pub fn uniform(min: Duration, max: Duration, seed: u64) -> Self {
        Self::new(Delay::Uniform { min, max, seed })
    }

    /// The configured delay.
    #[must_use]
    pub fn delay(&self) -> Delay {
        self.delay
    }
}

/// Waits, then lets the call through.
impl CallHook for Pause {
    type Pending = ();

    /// Waits as [`Delay`] says (advancing the generator for a drawn
    /// delay).
    async fn before(&self, _call: &Call<'_>) -> Result<(), MemoryError> {
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
        Ok(())
    }
}
