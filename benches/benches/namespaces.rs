//! `namespaces()` on the SQLite driver since its `last_updated` is the
//! newest timestamp by instant (commit daf270c), against the query it
//! replaced.
//!
//! - **Floor**: the old query through bare `rusqlite` on the same file,
//!   `SELECT namespace, COUNT(*), MAX(timestamp) FROM memory_entries GROUP
//!   BY namespace ORDER BY namespace`, prepared once on a read-only
//!   connection, read into owned values, on the bench thread.
//! - **Driver**: `SqliteDriver::namespaces()`: in one read transaction,
//!   the old scan, then the entries whose timestamp is spelt otherwise
//!   through the partial index `memory_entries_other_spellings` (which
//!   holds only them), compared by instant
//!   (`tinymemory_api::is_newer_timestamp`), and a namespace's canonical
//!   `MAX` again where another spelling was its bytewise `MAX`; plus the
//!   blocking-pool hop and the `NamespaceSummary` values.
//! - **`other_spellings`**: the driver's read of the other spellings alone
//!   (its second statement, the same SQL text) through bare `rusqlite`
//!   like the floor: what the rule adds to the scan.
//!
//! Stores: the workspace corpus (22,688 entries in 272 namespaces, one
//! `store_many` per 1,000 entries, as the corpus loader stores it), and
//! 100,000 entries in the same 272 namespaces (the corpus again and again,
//! the `n`-th repeat's keys suffixed `~n`, until 100,000). Two states of
//! each store, in this order:
//!
//! - `namespaces_canonical`: every timestamp as `store` writes it
//!   (`YYYY-MM-DDTHH:MM:SS.ffffffZ`);
//! - `namespaces_imported`: then 1% of the entries re-imported (`import`)
//!   with other RFC 3339 spellings of 2020 instants (`.5Z`, `+02:00`,
//!   lowercase `t`/`z`, no fraction), chosen round-robin over the
//!   namespaces so that as many namespaces as possible hold one (226 of 272
//!   in the corpus, every one at 100,000 entries).
//!
//! Before timing, driver and floor must list the same namespaces with the
//! same counts, and the same `last_updated` in the canonical state; in the
//! imported state each `last_updated` must be the newest by instant of all
//! the namespace's timestamps, read bare, and the other-spellings read must
//! find every re-imported entry (none in the canonical state). Value: the number of
//! entries. Each driver ratio is paired (`tinymemory_benches::Paired`).
//!
//! The file is in WAL mode, as the driver opens it, in a temporary
//! directory on `/dev/shm` when that exists.
//!
//! `namespaces_postgres_canonical` and `namespaces_postgres_imported` do
//! the same (`driver` only) on a scratch schema of the server named by
//! `TINYMEMORY_POSTGRES_URL`, the floor the old query (`MAX` over the
//! `COLLATE "C"` text) prepared once on a bare `tokio-postgres` client;
//! without the variable they are skipped with a printed note.
//!
//! In a smoke run the corpus is cut to its first 200 entries and the
//! 100,000-entry store is skipped.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rusqlite::{Connection, OpenFlags};
use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{MemoryProvider, MemoryTaint};
use tinymemory_benches::{
    bench_paired_async, corpus_new_entries, criterion_config, memory_backed_dir, runtime, smoke_run,
};
use tinymemory_postgres::{PostgresConfig, PostgresDriver, PostgresFactory, URL_ENV};
use tinymemory_sqlite::SqliteDriver;
use tokio::runtime::Runtime;

const LARGE: usize = 100_000;
const SMOKE_ENTRIES: usize = 200;
const BATCH: usize = 1_000;
/// One entry in this many is re-imported with another spelling.
const IMPORTED_ONE_IN: usize = 100;

/// One namespace as the old query reads it: name, count, `MAX(timestamp)`.
type Row = (String, u64, Option<String>);

/// The old `namespaces()` query, as the driver ran it before daf270c.
fn floor(conn: &Connection) -> Vec<Row> {
    conn.prepare_cached(
        "SELECT namespace, COUNT(*), MAX(timestamp) FROM memory_entries
         GROUP BY namespace ORDER BY namespace",
    )
    .expect("prepare the old namespaces query")
    .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
    .expect("run the old namespaces query")
    .collect::<Result<_, _>>()
    .expect("read the old namespaces query")
}

/// The driver's timestamp test (`tinymemory-sqlite` `schema.rs`
/// `CANONICAL`, the partial index's condition negated).
const CANONICAL: &str = "length(timestamp) = 27 AND substr(timestamp, 11, 1) = 'T' \
     AND substr(timestamp, 20, 1) = '.' AND substr(timestamp, 27, 1) = 'Z'";

/// The driver's read of the other spellings alone, its SQL text through
/// bare `rusqlite`: `(namespace, timestamp)` of every entry whose
/// timestamp is not canonical, through the partial index.
fn other_spellings(conn: &Connection) -> Vec<(String, String)> {
    conn.prepare_cached(&format!(
        "SELECT namespace, timestamp FROM memory_entries WHERE NOT ({CANONICAL})"
    ))
    .expect("prepare the driver's other-spellings read")
    .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
    .expect("run the driver's other-spellings read")
    .collect::<Result<_, _>>()
    .expect("read the driver's other-spellings read")
}

/// The driver's summaries as [`Row`]s.
fn driver_rows(rt: &Runtime, driver: &dyn MemoryProvider) -> Vec<Row> {
    rt.block_on(driver.namespaces())
        .expect("driver namespaces")
        .into_iter()
        .map(|s| (s.namespace, s.count, s.last_updated))
        .collect()
}

/// `base` repeated until `n` entries, the `r`-th repeat's keys suffixed
/// `~r` (the first repeat keeps them), so the namespaces stay `base`'s.
fn repeated(base: &[NewEntry], n: usize) -> Vec<NewEntry> {
    (0..n)
        .map(|i| {
            let mut e = base[i % base.len()].clone();
            let round = i / base.len();
            if round > 0 {
                e.key = format!("{}~{round}", e.key);
            }
            e
        })
        .collect()
}

/// An RFC 3339 spelling of a 2020 instant that `store` never writes; the
/// `i`-th of four kinds, its seconds from `i`.
fn other_spelling(i: usize) -> String {
    let s = i % 60;
    match i % 4 {
        0 => format!("2020-01-01T00:00:{s:02}.5Z"),
        1 => format!("2020-01-01T02:00:{s:02}+02:00"),
        2 => format!("2020-01-01t00:00:{s:02}.1z"),
        _ => format!("2020-01-01T00:00:{s:02}Z"),
    }
}

/// One in [`IMPORTED_ONE_IN`] of `entries` as records with
/// [`other_spelling`]s, taken round-robin over the namespaces (each
/// namespace's first entry, then each one's second, ...).
fn imported(entries: &[NewEntry]) -> Vec<MemoryRecord> {
    let mut by_ns: BTreeMap<&str, Vec<&NewEntry>> = BTreeMap::new();
    for e in entries {
        by_ns.entry(&e.namespace).or_default().push(e);
    }
    let want = (entries.len() / IMPORTED_ONE_IN).max(1);
    let mut out = Vec::with_capacity(want);
    'rounds: for round in 0.. {
        for list in by_ns.values() {
            if out.len() == want {
                break 'rounds;
            }
            if let Some(e) = list.get(round) {
                out.push(MemoryRecord {
                    namespace: e.namespace.clone(),
                    key: e.key.clone(),
                    content: e.content.clone(),
                    category: e.category.clone(),
                    session_id: e.session_id.clone(),
                    taint: MemoryTaint::Internal,
                    timestamp: other_spelling(out.len()),
                });
            }
        }
    }
    out
}

/// Every namespace with the newest of all its timestamps by instant
/// (`tinymemory_api::newest_timestamp`), read bare: what the driver's
/// `last_updated` must be.
fn newest_by_instant(conn: &Connection) -> Vec<(String, Option<String>)> {
    let mut stmt = conn
        .prepare("SELECT namespace, timestamp FROM memory_entries")
        .expect("prepare a timestamp read");
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .expect("read timestamps")
        .map(|row| row.expect("read a timestamp"));
    newest_of(rows)
}

/// Each namespace of `rows` (namespace, timestamp) with its newest
/// timestamp by instant, in name order.
fn newest_of(rows: impl Iterator<Item = (String, String)>) -> Vec<(String, Option<String>)> {
    let mut all: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (ns, t) in rows {
        all.entry(ns).or_default().push(t);
    }
    all.into_iter()
        .map(|(ns, ts)| {
            let newest = tinymemory_api::newest_timestamp(ts.iter().map(String::as_str));
            (ns, newest.map(str::to_owned))
        })
        .collect()
}

/// Names and counts of `rows`.
fn counts(rows: &[Row]) -> Vec<(&str, u64)> {
    rows.iter().map(|r| (r.0.as_str(), r.1)).collect()
}

/// The floor and paired driver benchmarks of group `group_id` at `n`.
fn bench_state(
    c: &mut Criterion,
    rt: &Runtime,
    group_id: &str,
    n: usize,
    reader: &Connection,
    driver: &SqliteDriver,
) {
    let mut group = c.benchmark_group(group_id);
    group.bench_function(BenchmarkId::new("floor", n), |b| b.iter(|| floor(reader)));
    bench_paired_async(
        &mut group,
        group_id,
        "driver",
        n,
        rt,
        || async { floor(reader) },
        || driver.namespaces(),
    );
    bench_paired_async(
        &mut group,
        group_id,
        "other_spellings",
        n,
        rt,
        || async { floor(reader) },
        || async { other_spellings(reader) },
    );
    group.finish();
}

fn bench_size(c: &mut Criterion, rt: &Runtime, dir: &Path, entries: &[NewEntry]) {
    let n = entries.len();
    let path = dir.join(format!("namespaces-{n}.db"));
    let driver = SqliteDriver::open(&path).expect("open sqlite");
    for batch in entries.chunks(BATCH) {
        rt.block_on(driver.store_many(batch))
            .expect("fill the store");
    }
    let reader = Connection::open_with_flags(
        &path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .expect("open the file with rusqlite");

    let old = floor(&reader);
    assert_eq!(
        driver_rows(rt, &driver),
        old,
        "driver and old query disagree on an all-canonical store"
    );
    assert_eq!(
        other_spellings(&reader),
        [],
        "the other-spellings read found entries in an all-canonical store"
    );
    let total: u64 = old.iter().map(|r| r.1).sum();
    assert_eq!(total, u64::try_from(n).expect("a small count"), "entries");
    bench_state(c, rt, "namespaces_canonical", n, &reader, &driver);

    let records = imported(entries);
    let outcome = rt.block_on(driver.import(&records)).expect("import");
    assert!(
        outcome.failures.is_empty(),
        "import failures: {:?}",
        outcome.failures
    );
    let touched: BTreeSet<&str> = records.iter().map(|r| r.namespace.as_str()).collect();
    let _ = writeln!(
        std::io::stderr(),
        "namespaces: {n} entries in {} namespaces, {} re-imported into {} of them",
        old.len(),
        records.len(),
        touched.len()
    );
    let got = driver_rows(rt, &driver);
    let old = floor(&reader);
    assert_eq!(
        counts(&got),
        counts(&old),
        "driver and old query disagree on names or counts"
    );
    assert_eq!(
        other_spellings(&reader).len(),
        records.len(),
        "the other-spellings read misses re-imported entries"
    );
    let last: Vec<(String, Option<String>)> = got.into_iter().map(|r| (r.0, r.2)).collect();
    assert_eq!(
        last,
        newest_by_instant(&reader),
        "the driver's last_updated is not the newest by instant"
    );
    bench_state(c, rt, "namespaces_imported", n, &reader, &driver);
}

/// The old `namespaces()` query of the PostgreSQL driver on `table`.
fn pg_floor_sql(table: &str) -> String {
    format!("SELECT namespace, COUNT(*), MAX(timestamp) FROM {table} GROUP BY namespace ORDER BY namespace")
}

/// Runs `stmt` ([`pg_floor_sql`], prepared once) into owned values.
async fn pg_floor(client: &tokio_postgres::Client, stmt: &tokio_postgres::Statement) -> Vec<Row> {
    client
        .query(stmt, &[])
        .await
        .expect("run the old namespaces query")
        .iter()
        .map(|r| {
            let count: i64 = r.get(1);
            (r.get(0), u64::try_from(count).expect("a count"), r.get(2))
        })
        .collect()
}

/// [`bench_size`] on a scratch schema of the PostgreSQL server at `url`
/// (no `other_spellings` function: its split is SQLite's).
fn pg_size(c: &mut Criterion, rt: &Runtime, url: &str, entries: &[NewEntry]) {
    let n = entries.len();
    let config = PostgresConfig::from_url(url).expect("the URL parses");
    let factory = PostgresFactory::new(&config).expect("the pool builds");
    let driver: PostgresDriver = factory.scratch();
    for batch in entries.chunks(BATCH) {
        rt.block_on(driver.store_many(batch))
            .expect("fill the store");
    }
    let schema = factory.schemas().pop().expect("the scratch schema");
    let table = format!("\"{schema}\".memory_entries");
    let (client, connection) = rt
        .block_on(tokio_postgres::connect(url, tokio_postgres::NoTls))
        .expect("connect to PostgreSQL");
    rt.spawn(connection);
    let stmt = rt
        .block_on(client.prepare(&pg_floor_sql(&table)))
        .expect("prepare the old namespaces query");
    let floor = || pg_floor(&client, &stmt);

    let old = rt.block_on(floor());
    assert_eq!(
        driver_rows(rt, &driver),
        old,
        "postgres: driver and old query disagree on an all-canonical store"
    );
    let mut group_id = "namespaces_postgres_canonical";
    for state in 0..2 {
        if state == 1 {
            let records = imported(entries);
            let outcome = rt.block_on(driver.import(&records)).expect("import");
            assert!(outcome.failures.is_empty(), "postgres: import failures");
            let got = driver_rows(rt, &driver);
            let old = rt.block_on(floor());
            assert_eq!(counts(&got), counts(&old), "postgres: names or counts");
            let all = rt
                .block_on(client.query(&format!("SELECT namespace, timestamp FROM {table}"), &[]))
                .expect("read timestamps");
            let last: Vec<(String, Option<String>)> = got.into_iter().map(|r| (r.0, r.2)).collect();
            assert_eq!(
                last,
                newest_of(all.iter().map(|r| (r.get(0), r.get(1)))),
                "postgres: the driver's last_updated is not the newest by instant"
            );
            group_id = "namespaces_postgres_imported";
        }
        let mut group = c.benchmark_group(group_id);
        group.bench_function(BenchmarkId::new("floor", n), |b| {
            b.iter(|| rt.block_on(floor()));
        });
        bench_paired_async(&mut group, group_id, "driver", n, rt, floor, || {
            driver.namespaces()
        });
        group.finish();
    }
    let dropped = rt
        .block_on(factory.cleanup())
        .expect("drop the scratch schema");
    let _ = writeln!(
        std::io::stderr(),
        "namespaces: dropped {dropped} scratch schema"
    );
}

/// The PostgreSQL groups at every size, when [`URL_ENV`] names a server.
fn postgres(c: &mut Criterion, sizes: &[Vec<NewEntry>]) {
    let Some(url) = std::env::var(URL_ENV).ok().filter(|u| !u.trim().is_empty()) else {
        let _ = writeln!(
            std::io::stderr(),
            "namespaces: SKIPPED namespaces_postgres_*: needs a PostgreSQL server; set {URL_ENV}=postgres://USER@HOST:PORT/DB"
        );
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime with I/O");
    for entries in sizes {
        pg_size(c, &rt, url.trim(), entries);
    }
}

fn namespaces(c: &mut Criterion) {
    let rt = runtime();
    let dir = memory_backed_dir();
    let mut corpus = corpus_new_entries();
    let sizes = if smoke_run() {
        corpus.truncate(SMOKE_ENTRIES);
        vec![corpus]
    } else {
        let large = repeated(&corpus, LARGE);
        vec![corpus, large]
    };
    for entries in &sizes {
        bench_size(c, &rt, dir.path(), entries);
    }
    postgres(c, &sizes);
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = namespaces
}
criterion_main!(benches);
