//! Export and import throughput on the workspace corpus (22,688 entries):
//! issue 17's "against `list(None, ..)` plus the bulk store".
//!
//! - `export_<driver>/*`: `floor` is one `list(None, None, None)` of the
//!   whole store; `pages_1000` reads the same store with `export_page` in
//!   pages of 1,000 until `next_cursor` is `None` (23 pages), paired with
//!   the floor in the same samples.
//! - `import_<driver>/*`: into a fresh store per iteration, `floor` is
//!   `store_many` of the exported records' entries (one batch); `import`
//!   is `import` of the records themselves (one call), paired.
//!
//! Drivers: `sqlite` (a file on the disk holding `target/`, WAL,
//! `synchronous = FULL`) and `postgres` (scratch schemas on the server of
//! `TINYMEMORY_POSTGRES_URL`; skipped with a printed note without it).
//! Value: the number of entries. Before timing, the export is checked to
//! hold every listed entry once, in `(namespace, key)` order, and the
//! import to leave the same `list(None, ..)` as the bulk store (timestamps
//! aside, which import keeps and store does not). In a smoke run the
//! corpus is cut to its first 200 entries.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::io::Write;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::MemoryProvider;
use tinymemory_benches::{
    corpus_new_entries, criterion_config, disk_dir, record_entry, report_paired, runtime,
    smoke_run, Paired,
};
use tinymemory_postgres::{PostgresConfig, PostgresFactory, URL_ENV};
use tinymemory_sqlite::SqliteDriver;
use tokio::runtime::Runtime;

const PAGE: usize = 1_000;
const SMOKE_ENTRIES: usize = 200;

/// A fresh, empty store, and whatever keeps it alive (its directory).
struct Fresh {
    store: Box<dyn MemoryProvider>,
    _dir: Option<tempfile::TempDir>,
}

type MakeFresh<'a> = dyn Fn() -> Fresh + 'a;

fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "portability: {line}");
}

async fn export_all(store: &dyn MemoryProvider) -> Vec<MemoryRecord> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = store
            .export_page(cursor.as_ref(), PAGE)
            .await
            .expect("export_page");
        out.extend(page.records);
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => return out,
        }
    }
}

type Row = (
    Option<String>,
    String,
    String,
    String,
    Option<String>,
    String,
);

fn listed(rt: &Runtime, store: &dyn MemoryProvider) -> Vec<Row> {
    let mut all: Vec<Row> = rt
        .block_on(store.list(None, None, None))
        .expect("list")
        .into_iter()
        .map(|e| {
            (
                e.namespace,
                e.key,
                e.content,
                e.category.as_text(),
                e.session_id,
                format!("{:?}", e.taint),
            )
        })
        .collect();
    all.sort();
    all
}

fn driver_groups(
    c: &mut Criterion,
    rt: &Runtime,
    name: &str,
    fresh: &MakeFresh<'_>,
    entries: &[NewEntry],
) {
    let source = fresh();
    rt.block_on(source.store.store_many(entries))
        .expect("fill the source");
    let records = rt.block_on(export_all(source.store.as_ref()));
    let listed_source = listed(rt, source.store.as_ref());
    assert_eq!(records.len(), listed_source.len(), "{name}: export size");
    let keys: Vec<(&str, &str)> = records
        .iter()
        .map(|r| (r.namespace.as_str(), r.key.as_str()))
        .collect();
    assert!(
        keys.windows(2).all(
            |w| (w[0].0.as_bytes(), w[0].1.as_bytes()) < (w[1].0.as_bytes(), w[1].1.as_bytes())
        ),
        "{name}: export not in strictly ascending (namespace, key) order"
    );
    let again: Vec<NewEntry> = records.iter().map(record_entry).collect();
    {
        let f = fresh();
        let outcome = rt.block_on(f.store.import(&records)).expect("import");
        assert!(outcome.failures.is_empty(), "{name}: import failures");
        assert_eq!(outcome.imported, records.len(), "{name}: imported count");
        assert_eq!(
            listed(rt, f.store.as_ref()),
            listed_source,
            "{name}: import differs"
        );
    }
    let n = entries.len();
    let store = source.store.as_ref();

    let group_id = format!("export_{name}");
    let mut group = c.benchmark_group(&group_id);
    group.bench_function(BenchmarkId::new("floor", n), |b| {
        b.iter(|| rt.block_on(store.list(None, None, None)));
    });
    let paired = Paired::new();
    group.bench_function(BenchmarkId::new("pages_1000", n), |b| {
        paired.iter_async(b, rt, || store.list(None, None, None), || export_all(store));
    });
    group.finish();
    report_paired(&paired, &group_id, "pages_1000", &n.to_string());

    let group_id = format!("import_{name}");
    let mut group = c.benchmark_group(&group_id);
    group.sampling_mode(SamplingMode::Flat);
    let bulk = |f: Fresh| {
        rt.block_on(f.store.store_many(&again)).expect("store_many");
        f
    };
    let import = |f: Fresh| {
        rt.block_on(f.store.import(&records)).expect("import");
        f
    };
    group.bench_function(BenchmarkId::new("floor", n), |b| {
        b.iter_batched(fresh, bulk, criterion::BatchSize::PerIteration);
    });
    let paired = Paired::new();
    group.bench_function(BenchmarkId::new("import", n), |b| {
        paired.iter_batched(b, 1, fresh, bulk, fresh, import);
    });
    group.finish();
    report_paired(&paired, &group_id, "import", &n.to_string());
}

fn fresh_sqlite(root: &Path) -> Fresh {
    let dir = tempfile::tempdir_in(root).expect("a directory for a fresh file");
    let store = SqliteDriver::open(dir.path().join("store.db")).expect("open sqlite");
    Fresh {
        store: Box::new(store),
        _dir: Some(dir),
    }
}

fn portability(c: &mut Criterion) {
    let rt = runtime();
    let mut entries = corpus_new_entries();
    if smoke_run() {
        entries.truncate(SMOKE_ENTRIES);
    }
    let disk = disk_dir();
    driver_groups(c, &rt, "sqlite", &|| fresh_sqlite(disk.path()), &entries);

    let Some(url) = std::env::var(URL_ENV).ok().filter(|u| !u.trim().is_empty()) else {
        say(&format!(
            "SKIPPED export_postgres, import_postgres: needs a PostgreSQL server; set {URL_ENV}=postgres://USER@HOST:PORT/DB"
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
    driver_groups(c, &pg_rt, "postgres", &fresh_pg, &entries);
    let dropped = pg_rt
        .block_on(factory.cleanup())
        .expect("drop the scratch schemas");
    say(&format!("dropped {dropped} scratch schemas"));
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = portability
}
criterion_main!(benches);
