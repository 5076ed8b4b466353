//! The fan-out under injected latency (1 ms and 5 ms per call, the
//! `Latency` decorator over the reference driver): sequential calls against
//! `across_section` at several concurrency bounds, over 8 and 64
//! namespaces of 10 hits each.
//!
//! Floor (computed, see `tinymemory_benches::latency_floor`):
//! `ceil(N / bound) × latency + latency` for the fan-out,
//! `(N + 1) × latency` for the sequential loop. `one_call` times a single
//! delayed recall, which shows what one delay costs on Tokio's
//! millisecond timer.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use tinymemory_api::{MemoryError, MemoryProvider, MemorySection, RecallOptions};
use tinymemory_benches::{
    criterion_config, fill_section, iter_async, runtime, texts_with_word, LatencyCase,
    HITS_PER_NAMESPACE, QUERY, QUERY_WORD,
};
use tinymemory_doubles::{Latency, Pause};
use tinymemory_reference::ReferenceDriver;
use tinymemory_sections::{SectionRecall, DEFAULT_CONCURRENCY};

const LATENCIES_MS: [u64; 2] = [1, 5];
const NAMESPACES: [usize; 2] = [8, 64];
const BOUNDS: [usize; 6] = [1, 4, 8, 16, 32, 64];
const LIMIT: usize = 10;
const SECTION: MemorySection = MemorySection::Learning;

/// `namespaces()`, then each pinned recall awaited before the next.
async fn sequential(provider: &dyn MemoryProvider, names: &[String]) -> Result<usize, MemoryError> {
    let listed = provider.namespaces().await?;
    let mut hits = 0;
    for ns in names {
        hits += provider
            .recall(QUERY, LIMIT, &RecallOptions::in_namespace(ns.clone()))
            .await?
            .len();
    }
    Ok(hits + listed.len())
}

/// The bounds run over `n` namespaces: those of [`BOUNDS`] up to `n` (a
/// larger bound runs exactly as `n` does), and the default whatever its
/// size.
fn bounds(n: usize) -> Vec<usize> {
    let mut bounds: Vec<usize> = BOUNDS.into_iter().filter(|&b| b <= n).collect();
    bounds.push(DEFAULT_CONCURRENCY);
    bounds.sort_unstable();
    bounds.dedup();
    bounds
}

fn fan_out_latency(c: &mut Criterion) {
    let rt = runtime();
    let texts = texts_with_word(QUERY_WORD);
    for ms in LATENCIES_MS {
        let latency = Duration::from_millis(ms);
        let mut group = c.benchmark_group(LatencyCase::group(latency));
        // Iterations take milliseconds: equal-sized samples, 10 of them.
        group.sampling_mode(SamplingMode::Flat).sample_size(10);
        for n in NAMESPACES {
            // Filled directly, so the set-up does not sleep.
            let inner = ReferenceDriver::new();
            let names = rt
                .block_on(fill_section(
                    &inner,
                    &SECTION,
                    n,
                    HITS_PER_NAMESPACE,
                    &texts,
                ))
                .expect("fill the store");
            let provider = Latency::new(inner, Pause::fixed(latency));
            let provider = &provider;
            let opts = RecallOptions::default();
            let found = rt
                .block_on(
                    SectionRecall::new(provider).across_section(&SECTION, QUERY, LIMIT, &opts),
                )
                .expect("section recall");
            assert_eq!(found.searched, names);

            group.bench_function(BenchmarkId::new(LatencyCase::Sequential.id(), n), |b| {
                iter_async(b, &rt, || sequential(provider, &names));
            });
            for bound in bounds(n) {
                let recall = SectionRecall::new(provider).with_concurrency(bound);
                group.bench_function(BenchmarkId::new(LatencyCase::Bound(bound).id(), n), |b| {
                    iter_async(b, &rt, || {
                        recall.across_section(&SECTION, QUERY, LIMIT, &opts)
                    });
                });
            }
        }
        let one = Latency::new(ReferenceDriver::new(), Pause::fixed(latency));
        let opts = RecallOptions::default();
        group.bench_function(BenchmarkId::new(LatencyCase::OneCall.id(), 1), |b| {
            iter_async(b, &rt, || one.recall(QUERY, LIMIT, &opts));
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = fan_out_latency
}
criterion_main!(benches);
