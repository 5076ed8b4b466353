//! Timing async routines inside criterion.

use std::future::Future;
use std::hint::black_box;
use std::time::Instant;

use criterion::Bencher;
use tokio::runtime::Runtime;

/// The runtime every bench drives its futures on: Tokio's current-thread
/// scheduler with the timer on (the latency decorator sleeps) and the
/// blocking pool (the SQLite driver runs its SQL there).
///
/// One thread polls the fan-out, as a host's task would; concurrency inside
/// a fan-out comes from the bounded stream, not from extra workers.
///
/// # Panics
///
/// When Tokio cannot start the runtime (the OS refuses a thread or timer),
/// which leaves nothing to measure.
#[must_use]
pub fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("failed to start the bench runtime: {e}"))
}

/// Times `routine().await`, `iters` times in one `block_on`, so the cost of
/// entering the runtime is paid once per sample, not once per iteration
/// (what criterion's `async_tokio` feature does, without the feature).
///
/// Each output is passed through [`black_box`] and dropped inside the
/// timed loop.
pub fn iter_async<F, Fut, T>(b: &mut Bencher<'_>, rt: &Runtime, mut routine: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = T>,
{
    b.iter_custom(|iters| {
        rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(routine().await);
            }
            start.elapsed()
        })
    });
}
