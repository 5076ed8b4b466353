//! The SQLite driver's recall and store at 1,000, 10,000 and 100,000
//! entries (100 namespaces, real corpus text in every language), each
//! against the same SQL through bare `rusqlite` on the same file (the
//! floor).
//!
//! - `sqlite_recall`: a recall of [`QUERY`] pinned to one namespace,
//!   `limit` 10. Floor: the FTS5 `MATCH` join the driver runs, prepared
//!   once, its rows read into owned values, on the bench thread. The driver
//!   adds validation, query parsing, the blocking-pool hop and building
//!   `MemoryEntry` values.
//! - `sqlite_store`: an upsert of an existing key (so the store keeps its
//!   size). Floor: the same upsert and FTS5 write in one `IMMEDIATE`
//!   transaction, `synchronous = FULL` as the driver sets it.
//!
//! Each driver ratio is paired: floor and driver alternate in the same
//! samples (`tinymemory_benches::Paired`).
//!
//! The database is a file, in WAL mode, as the driver opens it, in a
//! temporary directory on `/dev/shm` (tmpfs, so `fsync` is free and
//! filling 100,000 entries one `store` at a time takes seconds, not
//! minutes) when that exists. `sqlite_store_disk` repeats the store bench
//! at 1,000 entries on a file in the ordinary temporary directory, where
//! every commit waits for the disk (`synchronous = FULL`).
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::cell::{Cell, RefCell};
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use tinymemory_api::{MemoryCategory, MemoryProvider, MemorySection, MemoryTaint, RecallOptions};
use tinymemory_benches::{
    bench_paired_async, corpus_texts, criterion_config, fill_section, runtime, shuffled, sizes,
    texts_with_word, QUERY, QUERY_WORD,
};
use tinymemory_sqlite::SqliteDriver;
use tokio::runtime::Runtime;

const ENTRIES: [usize; 3] = [1_000, 10_000, 100_000];
const NAMESPACES: usize = 100;
const LIMIT: usize = 10;
/// [`QUERY`] as the driver writes it for FTS5 (`text::query_terms`, each
/// term a quoted string, joined with `OR`).
const MATCH: &str = r#""what" OR "is" OR "the""#;
const STORE_KEYS: usize = 100;

/// The driver's recall SQL, verbatim (`ops::recall`), run with no
/// category or session filter.
const RECALL_SQL: &str = "SELECT e.id, e.namespace, e.key, e.content, e.category, e.session_id,
        e.taint, e.timestamp, bm25(memory_fts) AS bm25_rank
    FROM memory_fts JOIN memory_entries AS e ON e.id = memory_fts.rowid
    WHERE memory_fts MATCH ?1
      AND e.namespace = ?2
      AND (?3 IS NULL OR e.category = ?3)
      AND (?4 IS NULL OR e.session_id = ?4)
    ORDER BY bm25_rank, e.key
    LIMIT ?5";

type Row = (
    i64,
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    String,
    f64,
);

fn bare_recall(conn: &Connection, namespace: &str) -> Vec<Row> {
    let mut stmt = conn.prepare_cached(RECALL_SQL).expect("prepare the recall");
    stmt.query_map(
        rusqlite::params![MATCH, namespace, None::<String>, None::<String>, LIMIT],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
            ))
        },
    )
    .expect("run the recall")
    .collect::<Result<_, _>>()
    .expect("read the recall")
}

fn bare_store(conn: &mut Connection, namespace: &str, key: &str, content: &str) {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .expect("begin");
    let id: i64 = tx
        .prepare_cached(
            "INSERT INTO memory_entries (namespace, key, content, category, session_id, taint, timestamp)
             VALUES (?1, ?2, ?3, ?4, NULL, ?5, ?6)
             ON CONFLICT (namespace, key) DO UPDATE SET
                 content = excluded.content, category = excluded.category,
                 session_id = excluded.session_id, taint = excluded.taint,
                 timestamp = excluded.timestamp
             RETURNING id",
        )
        .expect("prepare the upsert")
        .query_row(
            rusqlite::params![namespace, key, content, "core", "internal", tinymemory_api::now_rfc3339()],
            |r| r.get(0),
        )
        .expect("upsert");
    tx.prepare_cached("INSERT OR REPLACE INTO memory_fts (rowid, body) VALUES (?1, ?2)")
        .expect("prepare the index write")
        .execute(rusqlite::params![id, content])
        .expect("index");
    tx.commit().expect("commit");
}

fn open_bare(path: &Path, flags: OpenFlags) -> Connection {
    let conn = Connection::open_with_flags(path, flags).expect("open the file with rusqlite");
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .expect("busy timeout");
    conn.pragma_update(None, "synchronous", "FULL")
        .expect("synchronous");
    conn
}

/// The recall and store groups at `n` entries, their group names ending in
/// `suffix`.
fn bench_size(c: &mut Criterion, rt: &Runtime, dir: &Path, n: usize, suffix: &str) {
    let path = dir.join(format!("sqlite-{n}.db"));
    let driver = SqliteDriver::open(&path).expect("open sqlite");
    // Every language in every namespace.
    let texts = shuffled(corpus_texts(), 0x5eed);
    let names = rt
        .block_on(fill_section(
            &driver,
            &MemorySection::Conversation,
            NAMESPACES,
            n / NAMESPACES,
            &texts,
        ))
        .expect("fill the store");
    let ns = names[0].clone();
    let opts = RecallOptions::in_namespace(ns.clone());

    let reader = open_bare(
        &path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    );
    let floor_rows = bare_recall(&reader, &ns);
    let hits = rt
        .block_on(driver.recall(QUERY, LIMIT, &opts))
        .expect("driver recall");
    assert!(!hits.is_empty(), "the query finds nothing in {ns}");
    let floor_scores: Vec<Option<f64>> = floor_rows.iter().map(|r| Some(-r.8)).collect();
    let scores: Vec<Option<f64>> = hits.iter().map(|h| h.score).collect();
    assert_eq!(scores, floor_scores, "driver and floor disagree");

    let group_id = format!("sqlite_recall{suffix}");
    let mut group = c.benchmark_group(&group_id);
    group.bench_function(BenchmarkId::new("floor", n), |b| {
        b.iter(|| bare_recall(&reader, &ns))
    });
    bench_paired_async(
        &mut group,
        &group_id,
        "driver",
        n,
        rt,
        || async { bare_recall(&reader, &ns) },
        || driver.recall(QUERY, LIMIT, &opts),
    );
    group.finish();

    // Upserts of existing keys in two namespaces of their own.
    let english = texts_with_word(QUERY_WORD);
    let (store_ns, floor_ns) = ("conversation:store-driver", "conversation:store-floor");
    for k in 0..STORE_KEYS {
        for target in [store_ns, floor_ns] {
            rt.block_on(driver.store(
                target,
                &format!("k{k:03}"),
                &english[k % english.len()],
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            ))
            .expect("pre-store");
        }
    }
    let writer = RefCell::new(open_bare(
        &path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ));
    let group_id = format!("sqlite_store{suffix}");
    let mut group = c.benchmark_group(&group_id);
    let i = Cell::new(0);
    // The next key (of STORE_KEYS, cycling) and a content to store in it.
    let next = || {
        i.set(i.get() + 1);
        let k = i.get() % STORE_KEYS;
        (format!("k{k:03}"), &english[(k + i.get()) % english.len()])
    };
    let floor = || {
        let (key, content) = next();
        bare_store(&mut writer.borrow_mut(), floor_ns, &key, content);
    };
    group.bench_function(BenchmarkId::new("floor", n), |b| b.iter(floor));
    let driver = &driver;
    bench_paired_async(
        &mut group,
        &group_id,
        "driver",
        n,
        rt,
        || async { floor() },
        || {
            let (key, content) = next();
            async move {
                driver
                    .store(
                        store_ns,
                        &key,
                        content,
                        MemoryCategory::Core,
                        None,
                        MemoryTaint::Internal,
                    )
                    .await
            }
        },
    );
    group.finish();
}

/// A temporary directory on tmpfs when there is one, else the ordinary one.
fn memory_backed_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    };
    dir.expect("a temporary directory")
}

fn sqlite(c: &mut Criterion) {
    let rt = runtime();
    let dir = memory_backed_dir();
    for n in sizes(&ENTRIES, 1_000) {
        bench_size(c, &rt, dir.path(), n, "");
    }
    let disk = tempfile::tempdir().expect("a temporary directory");
    bench_size(c, &rt, disk.path(), ENTRIES[0], "_disk");
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = sqlite
}
criterion_main!(benches);
