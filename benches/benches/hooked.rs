//! What [`Hooked`] costs per call: the reference driver wrapped with the
//! no-op hook `()` against the bare reference driver, for the cheapest
//! call (`get` of a stored key), a write (`store`, the same key over and
//! over, category `core`) and a recall (pinned to a namespace of 1,000
//! entries, limit 10).
//!
//! - **Floor**: `ReferenceDriver`, called through `&dyn MemoryProvider` as
//!   the suite and hosts call a driver.
//! - **`forwarded`**: `&ReferenceDriver` through `&dyn MemoryProvider`:
//!   the `MemoryProvider` impl for `&T` forwards every method
//!   (`delegate_provider!`), so this is what any wrapper costs at the
//!   least, one more `async-trait` future per call, whatever it does.
//! - **`hooked`**: `Hooked<ReferenceDriver, ()>` through `&dyn
//!   MemoryProvider`: that one more future, the [`Call`] built, the
//!   hook's `before` and `after` (both empty), the answer's view.
//!
//! Both hold the same entries, stored the same way. Every ratio is paired
//! (`tinymemory_benches::Paired`). The goal (issue 35) is a ratio within
//! 1.05 for each call.
//!
//! [`Hooked`]: tinymemory_api::Hooked
//! [`Call`]: tinymemory_api::Call
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::future::Future;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tinymemory_api::{
    Hooked, MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, NewEntry, RecallOptions,
};
use tinymemory_benches::{
    bench_paired_async, criterion_config, iter_async, runtime, texts_with_word, QUERY, QUERY_WORD,
};
use tinymemory_reference::ReferenceDriver;

/// Entries in the one namespace both drivers hold.
const ENTRIES: usize = 1_000;
const NAMESPACE: &str = "learning:bench";

/// Stores the same content at the same key: an upsert that replaces.
fn store_again(driver: &dyn MemoryProvider) -> impl Future<Output = Result<(), MemoryError>> + '_ {
    driver.store(
        NAMESPACE,
        "k0500",
        "the same content again",
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
}

fn hooked(c: &mut Criterion) {
    let rt = runtime();
    let texts = texts_with_word(QUERY_WORD);
    let entries: Vec<NewEntry> = (0..ENTRIES)
        .map(|i| NewEntry::new(NAMESPACE, format!("k{i:04}"), &texts[i % texts.len()]))
        .collect();
    let plain = ReferenceDriver::new();
    let wrapped = Hooked::new(ReferenceDriver::new(), ());
    let by_reference = &plain;
    let (floor, subject): (&dyn MemoryProvider, &dyn MemoryProvider) = (&plain, &wrapped);
    let forwarded: &dyn MemoryProvider = &by_reference;
    for driver in [floor, subject] {
        rt.block_on(driver.store_many(&entries)).expect("fill");
    }
    let opts = RecallOptions::in_namespace(NAMESPACE);
    // Ids and timestamps differ between the two stores; keys and scores
    // may not.
    let hits = |d: &dyn MemoryProvider| {
        let hits = rt.block_on(d.recall(QUERY, 10, &opts)).expect("recall");
        hits.into_iter()
            .map(|h| (h.key, h.score.map(f64::to_bits)))
            .collect::<Vec<_>>()
    };
    assert_eq!(hits(floor), hits(subject), "the hook changes no answer");
    assert_eq!(hits(floor), hits(forwarded));
    assert_eq!(hits(floor).len(), 10);

    let mut group = c.benchmark_group("hooked/get");
    group.bench_function(BenchmarkId::new("floor", ENTRIES), |b| {
        iter_async(b, &rt, || floor.get(NAMESPACE, "k0500"));
    });
    bench_paired_async(
        &mut group,
        "hooked/get",
        "forwarded",
        ENTRIES,
        &rt,
        || floor.get(NAMESPACE, "k0500"),
        || forwarded.get(NAMESPACE, "k0500"),
    );
    bench_paired_async(
        &mut group,
        "hooked/get",
        "hooked",
        ENTRIES,
        &rt,
        || floor.get(NAMESPACE, "k0500"),
        || subject.get(NAMESPACE, "k0500"),
    );
    group.finish();

    let mut group = c.benchmark_group("hooked/store");
    group.bench_function(BenchmarkId::new("floor", ENTRIES), |b| {
        iter_async(b, &rt, || store_again(floor));
    });
    bench_paired_async(
        &mut group,
        "hooked/store",
        "forwarded",
        ENTRIES,
        &rt,
        || store_again(floor),
        || store_again(forwarded),
    );
    bench_paired_async(
        &mut group,
        "hooked/store",
        "hooked",
        ENTRIES,
        &rt,
        || store_again(floor),
        || store_again(subject),
    );
    group.finish();

    let mut group = c.benchmark_group("hooked/recall");
    group.bench_function(BenchmarkId::new("floor", ENTRIES), |b| {
        iter_async(b, &rt, || floor.recall(QUERY, 10, &opts));
    });
    bench_paired_async(
        &mut group,
        "hooked/recall",
        "forwarded",
        ENTRIES,
        &rt,
        || floor.recall(QUERY, 10, &opts),
        || forwarded.recall(QUERY, 10, &opts),
    );
    bench_paired_async(
        &mut group,
        "hooked/recall",
        "hooked",
        ENTRIES,
        &rt,
        || floor.recall(QUERY, 10, &opts),
        || subject.recall(QUERY, 10, &opts),
    );
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = hooked
}
criterion_main!(benches);
