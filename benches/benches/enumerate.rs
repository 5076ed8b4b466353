//! Finding a section's namespaces: `namespaces()` filtered to one section,
//! with 10, 1,000 and 100,000 namespaces in the store, half of them in the
//! section (one entry each).
//!
//! Floor: the one `namespaces()` call, which every enumeration must make.
//! `visit` is `across_section`'s enumeration alone (`with_cap(0)`:
//! `namespaces()`, the section filter with its namespace checks, the visit
//! order, and no recall); `scopes` is `SectionView::scopes`. Their ratios
//! are paired: floor and subject alternate in the same samples.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tinymemory_api::{MemoryProvider, MemorySection, RecallOptions};
use tinymemory_benches::{
    bench_paired_async, criterion_config, fill_section, iter_async, runtime, sizes,
    texts_with_word, QUERY, QUERY_WORD,
};
use tinymemory_reference::ReferenceDriver;
use tinymemory_sections::{SectionRecall, Sections};

const STORED: [usize; 3] = [10, 1_000, 100_000];
const SECTION: MemorySection = MemorySection::Learning;
const OTHER: MemorySection = MemorySection::Conversation;

fn enumerate(c: &mut Criterion) {
    let rt = runtime();
    let texts = texts_with_word(QUERY_WORD);
    let group_id = "enumerate/reference";
    let mut group = c.benchmark_group(group_id);
    for n in sizes(&STORED, 100_000) {
        let driver = ReferenceDriver::new();
        let provider: &dyn MemoryProvider = &driver;
        let half = n / 2;
        rt.block_on(fill_section(provider, &SECTION, half, 1, &texts))
            .expect("fill the section");
        rt.block_on(fill_section(provider, &OTHER, n - half, 1, &texts))
            .expect("fill the other section");
        let scopes = rt
            .block_on(Sections::new(provider).learnings().scopes())
            .expect("scopes");
        assert_eq!(scopes.len(), half);
        let opts = RecallOptions::default();
        let visit = SectionRecall::new(provider).with_cap(0);
        let none = rt
            .block_on(visit.across_section(&SECTION, QUERY, 10, &opts))
            .expect("visit");
        assert!(none.searched.is_empty() && none.truncated);

        group.bench_function(BenchmarkId::new("floor", n), |b| {
            iter_async(b, &rt, || provider.namespaces());
        });
        bench_paired_async(
            &mut group,
            group_id,
            "visit",
            n,
            &rt,
            || provider.namespaces(),
            || visit.across_section(&SECTION, QUERY, 10, &opts),
        );
        let view = Sections::new(provider).learnings();
        bench_paired_async(
            &mut group,
            group_id,
            "scopes",
            n,
            &rt,
            || provider.namespaces(),
            || view.scopes(),
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = enumerate
}
criterion_main!(benches);
