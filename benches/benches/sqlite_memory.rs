//! What a check's store costs on the SQLite driver's in-memory databases
//! (every check and property case of `run --driver sqlite` gets one):
//! opening one, and a write on it from a check's thread.
//!
//! - `sqlite_memory/open`: `SqliteDriver::open_in_memory()` and its drop,
//!   a new connection and the schema created in it. No floor: the figure
//!   times the fresh stores of a run (about 830 of them).
//! - `sqlite_memory/store_runtime` against the floor `store_inline`: a
//!   `store` of one short entry (the same key again, an upsert), called
//!   as the runner calls it, `Handle::block_on` of a two-worker runtime
//!   from a thread of the check's own, against the same call polled once
//!   outside any runtime, where the driver runs its SQL on the calling
//!   thread at every commit. Before writes to an in-memory database ran
//!   on the calling thread (`INLINE_WRITE_BUDGET`), the subject paid the
//!   hop to the blocking pool and back; the paired ratio is that hop's
//!   share.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::future::Future;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tinymemory_api::{MemoryCategory, MemoryError, MemoryProvider, MemoryTaint};
use tinymemory_benches::{criterion_config, criterion_home, Paired};
use tinymemory_sqlite::SqliteDriver;

const NAMESPACE: &str = "learning:bench";

/// Stores the same short content at the same key: an upsert that replaces.
fn store_again(driver: &SqliteDriver) -> impl Future<Output = Result<(), MemoryError>> + '_ {
    driver.store(
        NAMESPACE,
        "k0",
        "what is the weather like today",
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
}

/// Polls `fut` once with a no-op waker, outside any Tokio runtime, where
/// the driver runs its SQL on the calling thread.
fn poll_inline<F: Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match fut.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => out,
        std::task::Poll::Pending => panic!("the driver's call waited outside a runtime"),
    }
}

fn sqlite_memory(c: &mut Criterion) {
    // The runner's runtime (`tinymemory-cli`'s `runtime::build`), which a
    // check's thread drives with `Handle::block_on`.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("failed to start the bench runtime: {e}"));
    let handle = rt.handle().clone();
    let driver = SqliteDriver::open_in_memory().expect("open in memory");
    poll_inline(store_again(&driver)).expect("store outside a runtime");
    handle
        .block_on(store_again(&driver))
        .expect("store in the runtime");

    let group_id = "sqlite_memory";
    let mut group = c.benchmark_group(group_id);
    group.bench_function(BenchmarkId::new("open", 1), |b| {
        b.iter(|| black_box(SqliteDriver::open_in_memory().expect("open in memory")))
    });
    let paired = Paired::new();
    group.bench_function(BenchmarkId::new("store_runtime", 1), |b| {
        paired.iter_batched(
            b,
            1,
            || (),
            |()| poll_inline(store_again(&driver)),
            || (),
            |()| handle.block_on(store_again(&driver)),
        );
    });
    paired
        .save(&criterion_home(), group_id, "store_runtime", "1")
        .expect("write the paired ratio");
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = sqlite_memory
}
criterion_main!(benches);
