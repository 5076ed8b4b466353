//! Loading the workspace corpus (22,688 entries, `fixtures/corpora`) into a
//! fresh store: `store_many` of the whole corpus in one call (the floor)
//! against `store_many` in batches of 1,000 (as the conformance suite's
//! corpus loader does) and one `store()` per entry (issue 16's "loading is
//! one transaction per row").
//!
//! - `bulk_load_sqlite_disk/*`: a new SQLite file per iteration, on the
//!   disk holding `target/` (WAL, `synchronous = FULL`, as the driver
//!   opens it), so every commit waits for the disk as a user's file does.
//! - `bulk_load_postgres/*`: a new scratch schema per iteration on the
//!   server of `TINYMEMORY_POSTGRES_URL`; without it the group is skipped
//!   with a printed note.
//!
//! Functions: `floor` (one batch), `batches_1000` and `store_each`, each
//! of the latter paired with the floor in the same samples
//! (`tinymemory_benches::Paired`); value: the number of entries. The store
//! is opened (and its schema made) before the timing starts and closed
//! after it stops. One iteration per sample (flat sampling): one
//! `store_each` on disk takes tens of seconds.
//!
//! Each method is checked once to leave the same `list(None, ..)` (keys
//! and contents) as the floor. In a smoke run the corpus is cut to its
//! first 200 entries.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::io::Write;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use tinymemory_api::batch::NewEntry;
use tinymemory_api::MemoryProvider;
use tinymemory_benches::{
    corpus_new_entries, criterion_config, disk_dir, report_paired, runtime, smoke_run, Paired,
};
use tinymemory_postgres::{PostgresConfig, PostgresFactory, URL_ENV};
use tinymemory_sqlite::SqliteDriver;
use tokio::runtime::Runtime;

const BATCH: usize = 1_000;
const SMOKE_ENTRIES: usize = 200;

/// A fresh, empty store, and whatever keeps it alive (its directory).
struct Fresh {
    store: Box<dyn MemoryProvider>,
    _dir: Option<tempfile::TempDir>,
}

/// How one group makes fresh stores.
type MakeFresh<'a> = dyn Fn() -> Fresh + 'a;

#[derive(Clone, Copy)]
enum Method {
    OneBatch,
    Batches,
    StoreEach,
}

impl Method {
    fn id(self) -> &'static str {
        match self {
            Self::OneBatch => "floor",
            Self::Batches => "batches_1000",
            Self::StoreEach => "store_each",
        }
    }
}

async fn load(store: &dyn MemoryProvider, entries: &[NewEntry], method: Method) {
    match method {
        Method::OneBatch => store.store_many(entries).await.expect("store_many"),
        Method::Batches => {
            for chunk in entries.chunks(BATCH) {
                store.store_many(chunk).await.expect("store_many");
            }
        }
        Method::StoreEach => {
            for e in entries {
                store
                    .store(
                        &e.namespace,
                        &e.key,
                        &e.content,
                        e.category.clone(),
                        e.session_id.as_deref(),
                        e.taint,
                    )
                    .await
                    .expect("store");
            }
        }
    }
}

fn listed(rt: &Runtime, store: &dyn MemoryProvider) -> Vec<(Option<String>, String, String)> {
    let mut all: Vec<(Option<String>, String, String)> = rt
        .block_on(store.list(None, None, None))
        .expect("list")
        .into_iter()
        .map(|e| (e.namespace, e.key, e.content))
        .collect();
    all.sort();
    all
}

fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "bulk_load: {line}");
}

fn group(
    c: &mut Criterion,
    rt: &Runtime,
    group_id: &str,
    fresh: &MakeFresh<'_>,
    entries: &[NewEntry],
) {
    let reference = {
        let f = fresh();
        rt.block_on(load(f.store.as_ref(), entries, Method::OneBatch));
        listed(rt, f.store.as_ref())
    };
    for method in [Method::Batches, Method::StoreEach] {
        let f = fresh();
        rt.block_on(load(f.store.as_ref(), entries, method));
        assert_eq!(
            listed(rt, f.store.as_ref()),
            reference,
            "{group_id}: {} stores other entries than one batch",
            method.id()
        );
    }
    let n = entries.len();
    let mut group = c.benchmark_group(group_id);
    group.sampling_mode(SamplingMode::Flat);
    let run = |method: Method| {
        move |f: Fresh| {
            rt.block_on(load(f.store.as_ref(), entries, method));
            f
        }
    };
    group.bench_function(BenchmarkId::new(Method::OneBatch.id(), n), |b| {
        b.iter_batched(
            fresh,
            run(Method::OneBatch),
            criterion::BatchSize::PerIteration,
        );
    });
    for method in [Method::Batches, Method::StoreEach] {
        let paired = Paired::new();
        group.bench_function(BenchmarkId::new(method.id(), n), |b| {
            paired.iter_batched(b, 1, fresh, run(Method::OneBatch), fresh, run(method));
        });
        report_paired(&paired, group_id, method.id(), &n.to_string());
    }
    group.finish();
}

fn fresh_sqlite(root: &Path) -> Fresh {
    let dir = tempfile::tempdir_in(root).expect("a directory for a fresh file");
    let store = SqliteDriver::open(dir.path().join("load.db")).expect("open sqlite");
    Fresh {
        store: Box::new(store),
        _dir: Some(dir),
    }
}

fn bulk_load(c: &mut Criterion) {
    let rt = runtime();
    let mut entries = corpus_new_entries();
    if smoke_run() {
        entries.truncate(SMOKE_ENTRIES);
    }
    let disk = disk_dir();
    group(
        c,
        &rt,
        "bulk_load_sqlite_disk",
        &|| fresh_sqlite(disk.path()),
        &entries,
    );

    let Some(url) = std::env::var(URL_ENV).ok().filter(|u| !u.trim().is_empty()) else {
        say(&format!(
            "SKIPPED bulk_load_postgres: needs a PostgreSQL server; set {URL_ENV}=postgres://USER@HOST:PORT/DB"
        ));
        return;
    };
    let pg_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime with I/O");
    let config = PostgresConfig::from_url(url.trim()).expect("the URL parses");
    let factory = PostgresFactory::new(&config).expect("the pool builds");
    let fresh_pg = || {
        let store = factory.scratch();
        // The first call creates the schema: outside the timing.
        pg_rt
            .block_on(store.namespaces())
            .expect("create the scratch schema");
        Fresh {
            store: Box::new(store),
            _dir: None,
        }
    };
    group(c, &pg_rt, "bulk_load_postgres", &fresh_pg, &entries);
    let dropped = pg_rt
        .block_on(factory.cleanup())
        .expect("drop the scratch schemas");
    say(&format!("dropped {dropped} scratch schemas"));
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = bulk_load
}
criterion_main!(benches);
