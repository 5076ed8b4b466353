//! `across_section` against the same pinned recalls issued directly (the
//! floor), over N namespaces of 10 hits each, on the reference and SQLite
//! drivers; and, on SQLite, the fan-out at several concurrency bounds.
//!
//! Floor: the recalls `across_section` makes (one per visited namespace,
//! so at most the cap of 64), pinned, `limit` 10, issued one after another
//! and awaited: the sum of the direct recalls. The section recall adds one
//! `namespaces()` call, the filtering, the concurrency machinery and the
//! merge. `section` runs with the defaults (cap 64,
//! `DEFAULT_CONCURRENCY`); its ratio is paired: floor and section
//! alternate in the same samples (`tinymemory_benches::Paired`).
//!
//! On the reference driver at 64 namespaces, `namespaces_only` and
//! `merge_only` time two parts of the overhead alone, against the same
//! floor. `fan_out_bound/sqlite` runs the fan-out at several bounds over
//! 64 SQLite namespaces.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion};
use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, MemorySection, RecallOptions};
use tinymemory_benches::{
    bench_paired_async, criterion_config, criterion_home, fill_section, iter_async, merge_by_score,
    runtime, sizes, texts_with_word, Paired, HITS_PER_NAMESPACE, QUERY, QUERY_WORD,
};
use tinymemory_reference::ReferenceDriver;
use tinymemory_sections::{SectionRecall, DEFAULT_CONCURRENCY, MAX_SECTION_NAMESPACES};
use tinymemory_sqlite::SqliteDriver;
use tokio::runtime::Runtime;

const NAMESPACES: [usize; 5] = [1, 4, 16, 64, 256];
const LIMIT: usize = 10;
const SECTION: MemorySection = MemorySection::Learning;
/// The bounds of the SQLite bound sweep, at 64 namespaces.
const BOUNDS: [usize; 6] = [1, 2, 4, 8, 16, 64];

/// The direct recalls: pinned, one after another.
async fn direct(provider: &dyn MemoryProvider, visited: &[String]) -> Result<usize, MemoryError> {
    let mut hits = 0;
    for ns in visited {
        hits += provider
            .recall(QUERY, LIMIT, &RecallOptions::in_namespace(ns.clone()))
            .await?
            .len();
    }
    Ok(hits)
}

/// Checks, once, that the store holds what the bench claims: every visited
/// namespace gives its 10 hits directly, and the section recall visits
/// exactly those namespaces.
fn check(rt: &Runtime, provider: &dyn MemoryProvider, names: &[String]) -> Vec<String> {
    let visited: Vec<String> = names.iter().take(MAX_SECTION_NAMESPACES).cloned().collect();
    let direct_hits = rt
        .block_on(direct(provider, &visited))
        .expect("direct recalls");
    assert_eq!(
        direct_hits,
        visited.len() * HITS_PER_NAMESPACE,
        "{}",
        provider.driver_id()
    );
    let found = rt
        .block_on(SectionRecall::new(provider).across_section(
            &SECTION,
            QUERY,
            LIMIT,
            &RecallOptions::default(),
        ))
        .expect("section recall");
    assert_eq!(found.searched, visited);
    assert_eq!(found.hits.len(), LIMIT);
    assert_eq!(found.truncated, names.len() > MAX_SECTION_NAMESPACES);
    visited
}

fn bench_driver(
    c: &mut Criterion,
    rt: &Runtime,
    name: &str,
    open: &dyn Fn() -> Box<dyn MemoryProvider>,
) {
    let texts = texts_with_word(QUERY_WORD);
    let group_id = format!("fan_out/{name}");
    let mut group = c.benchmark_group(&group_id);
    for n in sizes(&NAMESPACES, 64) {
        let provider = open();
        let provider = provider.as_ref();
        let names = rt
            .block_on(fill_section(
                provider,
                &SECTION,
                n,
                HITS_PER_NAMESPACE,
                &texts,
            ))
            .expect("fill the store");
        let visited = check(rt, provider, &names);
        let opts = RecallOptions::default();
        group.bench_function(BenchmarkId::new("floor", n), |b| {
            iter_async(b, rt, || direct(provider, &visited));
        });
        let recall = SectionRecall::new(provider);
        bench_paired_async(
            &mut group,
            &group_id,
            "section",
            n,
            rt,
            || direct(provider, &visited),
            || recall.across_section(&SECTION, QUERY, LIMIT, &opts),
        );
        if name == "reference" && n == MAX_SECTION_NAMESPACES {
            decompose(&mut group, &group_id, rt, provider, &visited);
        }
    }
    group.finish();
}

/// Two parts of the section recall's overhead, each timed against the
/// floor in the same samples: `namespaces_only` (the one `namespaces()`
/// call) and `merge_only` (the merge of the very hits the direct recalls
/// return, `tinymemory_benches::merge_by_score`, its input cloned outside
/// the timing).
fn decompose(
    group: &mut BenchmarkGroup<'_, WallTime>,
    group_id: &str,
    rt: &Runtime,
    provider: &dyn MemoryProvider,
    visited: &[String],
) {
    let n = visited.len();
    bench_paired_async(
        group,
        group_id,
        "namespaces_only",
        n,
        rt,
        || direct(provider, visited),
        || provider.namespaces(),
    );
    let lists: Vec<Vec<MemoryEntry>> = visited
        .iter()
        .map(|ns| {
            rt.block_on(provider.recall(QUERY, LIMIT, &RecallOptions::in_namespace(ns.clone())))
                .expect("direct recall")
        })
        .collect();
    let paired = Paired::new();
    group.bench_function(BenchmarkId::new("merge_only", n), |b| {
        paired.iter_batched(
            b,
            1,
            || (),
            |()| rt.block_on(direct(provider, visited)),
            || lists.clone(),
            |l| merge_by_score(l, LIMIT),
        );
    });
    paired
        .save(&criterion_home(), group_id, "merge_only", &n.to_string())
        .expect("failed to write the paired ratio");
}

/// SQLite at 64 namespaces, the fan-out at each bound of [`BOUNDS`] and at
/// the default: does a wide bound cost a local driver anything?
fn bench_sqlite_bounds(c: &mut Criterion, rt: &Runtime, dir: &std::path::Path) {
    let texts = texts_with_word(QUERY_WORD);
    let n = 64;
    let driver = SqliteDriver::open(dir.join("bounds.db")).expect("open sqlite");
    let names = rt
        .block_on(fill_section(
            &driver,
            &SECTION,
            n,
            HITS_PER_NAMESPACE,
            &texts,
        ))
        .expect("fill the store");
    let visited = check(rt, &driver, &names);
    let opts = RecallOptions::default();
    let mut bounds = BOUNDS.to_vec();
    bounds.push(DEFAULT_CONCURRENCY);
    bounds.sort_unstable();
    bounds.dedup();
    let group_id = "fan_out_bound/sqlite";
    let mut group = c.benchmark_group(group_id);
    group.bench_function(BenchmarkId::new("floor", n), |b| {
        iter_async(b, rt, || direct(&driver, &visited));
    });
    for bound in bounds {
        let recall = SectionRecall::new(&driver).with_concurrency(bound);
        bench_paired_async(
            &mut group,
            group_id,
            &format!("bound_{bound}"),
            n,
            rt,
            || direct(&driver, &visited),
            || recall.across_section(&SECTION, QUERY, LIMIT, &opts),
        );
    }
    group.finish();
}

fn fan_out(c: &mut Criterion) {
    let rt = runtime();
    bench_driver(c, &rt, "reference", &|| Box::new(ReferenceDriver::new()));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let counter = std::cell::Cell::new(0);
    bench_driver(c, &rt, "sqlite", &|| {
        counter.set(counter.get() + 1);
        let path = dir.path().join(format!("fan_out-{}.db", counter.get()));
        Box::new(SqliteDriver::open(path).expect("open sqlite"))
    });
    bench_sqlite_bounds(c, &rt, dir.path());
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = fan_out
}
criterion_main!(benches);
