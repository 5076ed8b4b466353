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
//!
//! `fan_out_store/<query>` (issue 16) is `across_section` over 64
//! namespaces of the reference driver holding 100,000 entries in all
//! (1,563 per namespace, filled with one `store_many`), limit 10, against
//! the same floor: its 64 direct pinned recalls, one after another, paired
//! in the same samples; `namespaces_only` times the one `namespaces()` call
//! the section recall adds, against the same floor. `common` stores English
//! turns that all hold a word of the query (every entry is a hit);
//! `selective` stores one such turn in 49, the others corpus turns of every
//! language holding no query word. In a smoke run the store holds 640
//! entries.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion};
use tinymemory_api::{
    MemoryEntry, MemoryError, MemoryProvider, MemorySection, Namespace, NewEntry, RecallOptions,
};
use tinymemory_benches::{
    bench_paired_async, corpus_texts, criterion_config, criterion_home, fill_section, fingerprint,
    iter_async, merge_by_score, runtime, scope_name, sizes, smoke_run, texts_with_word, Paired,
    HITS_PER_NAMESPACE, QUERY, QUERY_WORD,
};
use tinymemory_reference::{words, ReferenceDriver};
use tinymemory_sections::{
    merge_hits, MergeStrategy, SectionRecall, DEFAULT_CONCURRENCY, MAX_SECTION_NAMESPACES,
};
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

/// Entries in the `fan_out_store` stores (640 in a smoke run).
const STORE_ENTRIES: usize = 100_000;

/// `namespaces` namespaces of `section` holding `total` entries in all
/// (the first `total % namespaces` one more), contents from `texts` in
/// turn, written with one `store_many`. Returns the namespaces in visit
/// order (count descending, then name).
async fn fill_store(
    provider: &dyn MemoryProvider,
    namespaces: usize,
    total: usize,
    texts: &[String],
) -> Result<Vec<String>, MemoryError> {
    let names: Vec<String> = (0..namespaces)
        .map(|i| Namespace::new(&SECTION, &scope_name(i)).map(Namespace::into_string))
        .collect::<Result<_, _>>()?;
    let entries: Vec<NewEntry> = (0..total)
        .map(|i| {
            let (ns, k) = (i % namespaces, i / namespaces);
            NewEntry::new(
                names[ns].clone(),
                format!("k{k:06}"),
                texts[i % texts.len()].clone(),
            )
        })
        .collect();
    provider.store_many(&entries).await?;
    Ok(names)
}

/// Contents where one in 49 holds a word of [`QUERY`] and the rest none:
/// corpus turns in every language. 49 and the list's length (49 x 101) are
/// odd, so cycling through them spreads the hits over all 64 namespaces.
fn selective_texts() -> Vec<String> {
    let hits = texts_with_word(QUERY_WORD);
    let query = words(QUERY);
    let misses: Vec<String> = corpus_texts()
        .into_iter()
        .filter(|t| words(t).is_disjoint(&query))
        .collect();
    (0..49 * 101)
        .map(|j| {
            if j % 49 == 0 {
                hits[(j / 49) % hits.len()].clone()
            } else {
                misses[j % misses.len()].clone()
            }
        })
        .collect()
}

/// `across_section` over 64 reference namespaces at [`STORE_ENTRIES`]
/// against its 64 direct recalls, for a query every entry matches and one
/// only some do.
fn bench_store(c: &mut Criterion, rt: &Runtime) {
    let total = if smoke_run() { 640 } else { STORE_ENTRIES };
    let n = MAX_SECTION_NAMESPACES;
    let cases = [
        ("common", texts_with_word(QUERY_WORD)),
        ("selective", selective_texts()),
    ];
    for (name, texts) in cases {
        let driver = ReferenceDriver::new();
        let start = std::time::Instant::now();
        let names = rt
            .block_on(fill_store(&driver, n, total, &texts))
            .expect("fill the store");
        eprintln!(
            "fan_out_store/{name}: {total} entries in {n} namespaces stored with one store_many in {:.1?}",
            start.elapsed()
        );
        let opts = RecallOptions::default();
        let recall = SectionRecall::new(&driver);
        // Checked once: the section recall visits the 64 namespaces and
        // returns exactly the merge of the direct recalls.
        let found = rt
            .block_on(recall.across_section(&SECTION, QUERY, LIMIT, &opts))
            .expect("section recall");
        assert_eq!(found.searched, names);
        let lists: Vec<Vec<MemoryEntry>> = names
            .iter()
            .map(|ns| {
                rt.block_on(driver.recall(QUERY, LIMIT, &RecallOptions::in_namespace(ns.clone())))
                    .expect("direct recall")
            })
            .collect();
        let hits: usize = lists.iter().map(Vec::len).sum();
        assert!(hits >= LIMIT, "{name}: only {hits} direct hits");
        assert_eq!(
            fingerprint(&found.hits),
            fingerprint(&merge_hits(lists, LIMIT, MergeStrategy::Score))
        );
        let group_id = format!("fan_out_store/{name}");
        let mut group = c.benchmark_group(&group_id);
        group.bench_function(BenchmarkId::new("floor", total), |b| {
            iter_async(b, rt, || direct(&driver, &names));
        });
        bench_paired_async(
            &mut group,
            &group_id,
            "section",
            total,
            rt,
            || direct(&driver, &names),
            || recall.across_section(&SECTION, QUERY, LIMIT, &opts),
        );
        bench_paired_async(
            &mut group,
            &group_id,
            "namespaces_only",
            total,
            rt,
            || direct(&driver, &names),
            || driver.namespaces(),
        );
        group.finish();
    }
}

fn fan_out(c: &mut Criterion) {
    let rt = runtime();
    bench_store(c, &rt);
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
