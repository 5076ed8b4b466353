//! The PostgreSQL driver against the SQLite driver, on the same data in
//! one run, so their ratio is measured under the same machine load:
//!
//! - `postgres_vs_sqlite_recall/{sqlite,postgres}`: one recall of [`QUERY`] pinned to one
//!   namespace of 10 hits, `limit` 10;
//! - `postgres_vs_sqlite_fan_out_64/{sqlite,postgres}`: `across_section` over 64 namespaces of
//!   10 hits each (the default cap of 64, `DEFAULT_CONCURRENCY`), `limit`
//!   10: one `namespaces()` and 64 pinned recalls.
//!
//! The data: 64 namespaces `learning:topic-000000..63`, 10 English corpus
//! turns each, every one holding [`QUERY_WORD`] ([`fill_section`]). SQLite:
//! a file in a temporary directory (WAL, as the driver opens it).
//! PostgreSQL: a scratch schema on the server of `TINYMEMORY_POSTGRES_URL`
//! (dropped at the end); without it the bench prints why and measures
//! nothing. Both are driven from one current-thread runtime, as a host's
//! task would.
//!
//! ```text
//! TINYMEMORY_POSTGRES_URL=postgres://... cargo bench -p tinymemory-benches --bench postgres_vs_sqlite
//! ```
//!
//! The medians and their ratios are in `docs/postgres.md`.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::io::Write;

use criterion::{criterion_group, Criterion};
use tinymemory_api::{MemoryProvider, MemorySection, RecallOptions};
use tinymemory_benches::{
    criterion_config, fill_section, iter_async, texts_with_word, HITS_PER_NAMESPACE, QUERY,
    QUERY_WORD,
};
use tinymemory_postgres::{PostgresConfig, PostgresFactory, URL_ENV};
use tinymemory_sections::SectionRecall;
use tinymemory_sqlite::SqliteDriver;
use tokio::runtime::Runtime;

const NAMESPACES: usize = 64;
const LIMIT: usize = 10;
const SECTION: MemorySection = MemorySection::Learning;

/// A current-thread runtime with I/O (the PostgreSQL connections) and
/// timers on, and the blocking pool (SQLite's SQL runs there).
fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("failed to start the bench runtime: {e}"))
}

fn bench(c: &mut Criterion) {
    let Some(url) = std::env::var(URL_ENV).ok().filter(|u| !u.trim().is_empty()) else {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED postgres_vs_sqlite: needs a PostgreSQL server; set {URL_ENV}=postgres://USER@HOST:PORT/DB"
        );
        return;
    };
    let rt = runtime();
    let config = PostgresConfig::from_url(url.trim()).expect("the URL parses");
    let factory = PostgresFactory::new(&config).expect("the pool builds");
    let postgres = factory.scratch();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sqlite = SqliteDriver::open(dir.path().join("bench.db")).expect("sqlite opens");
    let texts = texts_with_word(QUERY_WORD);
    let drivers: [(&str, &dyn MemoryProvider); 2] = [("sqlite", &sqlite), ("postgres", &postgres)];
    let mut first = String::new();
    for (_, d) in drivers {
        let names = rt
            .block_on(fill_section(
                d,
                &SECTION,
                NAMESPACES,
                HITS_PER_NAMESPACE,
                &texts,
            ))
            .expect("the data stores");
        first.clone_from(&names[0]);
    }
    let pinned = RecallOptions::in_namespace(first);
    let everywhere = RecallOptions::default();

    let mut group = c.benchmark_group("postgres_vs_sqlite_recall");
    for (name, d) in drivers {
        let hits = rt
            .block_on(d.recall(QUERY, LIMIT, &pinned))
            .expect("recall");
        assert_eq!(hits.len(), LIMIT, "{name}");
        group.bench_function(name, |b| {
            iter_async(b, &rt, || async {
                d.recall(QUERY, LIMIT, &pinned).await.expect("recall")
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("postgres_vs_sqlite_fan_out_64");
    for (name, d) in drivers {
        let recall = SectionRecall::new(d);
        let got = rt
            .block_on(recall.across_section(&SECTION, QUERY, LIMIT, &everywhere))
            .expect("across_section");
        assert_eq!(got.searched.len(), NAMESPACES, "{name}");
        group.bench_function(name, |b| {
            iter_async(b, &rt, || async {
                recall
                    .across_section(&SECTION, QUERY, LIMIT, &everywhere)
                    .await
                    .expect("across_section")
            });
        });
    }
    group.finish();
    rt.block_on(factory.cleanup())
        .expect("the scratch schema drops");
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = bench
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
