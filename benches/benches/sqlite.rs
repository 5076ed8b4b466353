//! The SQLite driver's recall and store at 1,000, 10,000 and 100,000
//! entries (100 namespaces, real corpus text in every language), each
//! against the same SQL through bare `rusqlite` on the same file (the
//! floor), for schema version 2 (the inverted index in plain tables,
//! `docs/sqlite.md`).
//!
//! - `sqlite_recall`: a recall of [`QUERY`] pinned to one namespace,
//!   `limit` 10. Floor: the reads the driver's recall makes
//!   (`tinymemory-sqlite` `recall.rs`), the same SQL text, prepared once, in
//!   one read transaction, on the bench thread: the namespace's statistics
//!   row, the postings of each query term in that namespace, the key of
//!   every candidate in the best score groups until `limit` are filled, and
//!   the chosen hit rows, read into owned values; plus BM25 over the
//!   namespace's statistics computed here the simplest way (a `HashMap` of
//!   candidates, a full sort), with the driver's formula and order of
//!   operations, so floor and driver return the same hits with the same
//!   score bits (checked before timing). The driver adds validation, query
//!   parsing, the blocking-pool hop and building `MemoryEntry` values.
//! - `sqlite_store`: an upsert of an existing key (so the store keeps its
//!   size). Floor: the writes of the driver's store (`write.rs` `put`) in
//!   one `IMMEDIATE` transaction, `synchronous = FULL` as the driver sets
//!   it: namespace lookup, old entry lookup, deleting its postings one by
//!   one, the entry upsert, one posting insert per distinct term, the
//!   statistics update; the content tokenised as the driver tokenises it
//!   (`tinymemory_text::index_text`, each token lowercased per character,
//!   positions as LEB128 varint gaps), inside the timing, as the driver
//!   does. Checked before timing: after one store of the same content
//!   through each, the two namespaces hold the same statistics, entry
//!   columns and postings.
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
use std::collections::HashMap;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use tinymemory_api::{MemoryCategory, MemoryProvider, MemorySection, MemoryTaint, RecallOptions};
use tinymemory_benches::{
    bench_paired_async, corpus_texts, criterion_config, criterion_home, fill_section, runtime,
    shuffled, sizes, texts_with_word, Paired, QUERY, QUERY_WORD,
};
use tinymemory_sqlite::SqliteDriver;
use tokio::runtime::Runtime;

const ENTRIES: [usize; 3] = [1_000, 10_000, 100_000];
const NAMESPACES: usize = 100;
const LIMIT: usize = 10;
/// [`QUERY`]'s phrases as the driver's `query::phrases` makes them: three
/// exact terms, already folded, in query order.
const TERMS: [&str; 3] = ["what", "is", "the"];
const STORE_KEYS: usize = 100;
/// FTS5's BM25 parameters, as the driver's `score.rs` uses them.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// One hit: id, namespace, key, content, category, session, taint,
/// timestamp, score.
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

/// Term frequency of a stored position blob: one position per byte whose
/// continuation bit is clear.
fn occurrences(blob: &[u8]) -> u32 {
    u32::try_from(blob.iter().filter(|b| *b & 0x80 == 0).count()).expect("a small count")
}

/// `(score, entry id)` of every entry of namespace `ns` holding a term of
/// [`TERMS`], best first (equal scores in no particular order).
#[allow(clippy::cast_precision_loss)] // counts far below 2^53
fn scored(conn: &Connection, ns: i64, entries: i64, tokens: i64) -> Vec<(f64, i64)> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT entry, length, positions FROM memory_postings
             WHERE ns = ?1 AND term = ?2",
        )
        .expect("prepare a postings read");
    // Entry id -> (length, occurrences of each term).
    let mut candidates: HashMap<i64, (u32, [u32; TERMS.len()])> = HashMap::new();
    let mut idf = [0.0; TERMS.len()];
    for (i, term) in TERMS.iter().enumerate() {
        let postings: Vec<(i64, u32, Vec<u8>)> = stmt
            .query_map(rusqlite::params![ns, term], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .expect("read postings")
            .collect::<Result<_, _>>()
            .expect("read postings");
        let (n, hit) = (entries as f64, postings.len() as f64);
        let w = ((n - hit + 0.5) / (hit + 0.5)).ln();
        idf[i] = if w <= 0.0 { 1e-6 } else { w };
        for (entry, length, positions) in postings {
            candidates
                .entry(entry)
                .or_insert((length, [0; TERMS.len()]))
                .1[i] = occurrences(&positions);
        }
    }
    let avgdl = tokens as f64 / entries as f64;
    let mut scored: Vec<(f64, i64)> = candidates
        .into_iter()
        .map(|(id, (length, freq))| {
            let d = f64::from(length);
            let mut score = 0.0;
            for (w, &f) in idf.iter().zip(&freq) {
                if f > 0 {
                    let f = f64::from(f);
                    score += w * ((f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * d / avgdl)));
                }
            }
            (score, id)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored
}

/// The first [`LIMIT`] of `scored` by score, equal scores by key: the keys
/// of whole groups of equal scores, read until the limit is filled.
fn choose(conn: &Connection, scored: &[(f64, i64)]) -> Vec<(i64, f64)> {
    // The driver's candidate read, which also fetches the filter columns.
    let mut stmt = conn
        .prepare_cached("SELECT key, category, session_id FROM memory_entries WHERE id = ?1")
        .expect("prepare a candidate read");
    let mut chosen = Vec::with_capacity(LIMIT);
    let mut rest = scored;
    while let Some(&(score, _)) = rest.first() {
        if chosen.len() >= LIMIT {
            break;
        }
        let n = rest.iter().take_while(|c| c.0 == score).count();
        let (group, next) = rest.split_at(n);
        rest = next;
        let mut keyed: Vec<(String, i64)> = group
            .iter()
            .map(|&(_, id)| {
                let (key, _, _): (String, String, Option<String>) = stmt
                    .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                    .expect("read a candidate");
                (key, id)
            })
            .collect();
        keyed.sort();
        let room = LIMIT - chosen.len();
        chosen.extend(keyed.into_iter().take(room).map(|(_, id)| (id, score)));
    }
    chosen
}

fn bare_recall(conn: &Connection, namespace: &str) -> Vec<Row> {
    let tx = conn.unchecked_transaction().expect("begin a read");
    let Some((ns, entries, tokens)): Option<(i64, i64, i64)> = tx
        .prepare_cached("SELECT id, entries, tokens FROM memory_namespaces WHERE name = ?1")
        .expect("prepare a namespace lookup")
        .query_row([namespace], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()
        .expect("look up a namespace")
    else {
        return Vec::new();
    };
    let chosen = choose(&tx, &scored(&tx, ns, entries, tokens));
    let mut stmt = tx
        .prepare_cached(
            "SELECT e.id, e.namespace, e.key, e.content, e.category, e.session_id, e.taint,
                    e.timestamp FROM memory_entries AS e WHERE e.id = ?1",
        )
        .expect("prepare a hit read");
    chosen
        .into_iter()
        .map(|(id, score)| {
            stmt.query_row([id], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    score,
                ))
            })
            .expect("read a hit")
        })
        .collect()
}

/// `positions` (ascending) as the driver stores them: LEB128 varints, the
/// first the position, each later one the gap from the previous.
fn encode_positions(positions: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(positions.len() + 1);
    let mut previous = 0;
    for &p in positions {
        let mut v = p - previous;
        previous = p;
        while v >= 0x80 {
            out.push(u8::try_from(v & 0x7f).expect("7 bits") | 0x80);
            v >>= 7;
        }
        out.push(u8::try_from(v).expect("7 bits"));
    }
    out
}

/// The driver's index of `content`: distinct folded terms in order of
/// first occurrence with their positions, and the length in tokens.
fn document(content: &str) -> (Vec<(String, Vec<u32>)>, u32) {
    let text = tinymemory_text::index_text(content);
    let mut terms: Vec<(String, Vec<u32>)> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut length = 0;
    for token in text.split(' ').filter(|t| !t.is_empty()) {
        let term: String = token.chars().flat_map(char::to_lowercase).collect();
        let slot = *at.entry(term.clone()).or_insert_with(|| {
            terms.push((term, Vec::new()));
            terms.len() - 1
        });
        terms[slot].1.push(length);
        length += 1;
    }
    (terms, length)
}

/// The driver's store of an existing `(namespace, key)`, write for write.
///
/// # Panics
/// When the namespace or the key is not stored yet (the bench pre-stores
/// every key it upserts), or on any SQLite error.
fn bare_store(conn: &mut Connection, namespace: &str, key: &str, content: &str) {
    let (terms, length) = document(content);
    let term_list = terms
        .iter()
        .map(|(t, _)| t.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .expect("begin");
    let now = tinymemory_api::now_rfc3339();
    let ns: i64 = tx
        .prepare_cached("SELECT id FROM memory_namespaces WHERE name = ?1")
        .expect("prepare a namespace lookup")
        .query_row([namespace], |r| r.get(0))
        .expect("the namespace is stored");
    let (old_id, old_terms, old_length): (i64, String, i64) = tx
        .prepare_cached(
            "SELECT id, terms, length FROM memory_entries WHERE namespace = ?1 AND key = ?2",
        )
        .expect("prepare an entry lookup")
        .query_row([namespace, key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("the key is stored");
    {
        let mut delete = tx
            .prepare_cached(
                "DELETE FROM memory_postings WHERE ns = ?1 AND term = ?2 AND entry = ?3",
            )
            .expect("prepare a postings delete");
        for term in old_terms.split(' ').filter(|t| !t.is_empty()) {
            delete
                .execute(rusqlite::params![ns, term, old_id])
                .expect("delete a posting");
        }
    }
    let id: i64 = tx
        .prepare_cached(
            "INSERT INTO memory_entries
                 (namespace, key, content, category, session_id, taint, timestamp, terms, length)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT (namespace, key) DO UPDATE SET
                 content = excluded.content,
                 category = excluded.category,
                 session_id = excluded.session_id,
                 taint = excluded.taint,
                 timestamp = excluded.timestamp,
                 terms = excluded.terms,
                 length = excluded.length
             RETURNING id",
        )
        .expect("prepare the upsert")
        .query_row(
            rusqlite::params![
                namespace,
                key,
                content,
                "core",
                None::<String>,
                "internal",
                now,
                term_list,
                length
            ],
            |r| r.get(0),
        )
        .expect("upsert");
    {
        let mut insert = tx
            .prepare_cached(
                "INSERT INTO memory_postings (ns, term, entry, length, positions)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .expect("prepare a posting insert");
        for (term, positions) in &terms {
            insert
                .execute(rusqlite::params![
                    ns,
                    term,
                    id,
                    length,
                    encode_positions(positions)
                ])
                .expect("index");
        }
    }
    let _entries: i64 = tx
        .prepare_cached(
            "UPDATE memory_namespaces SET entries = entries + ?2, tokens = tokens + ?3
             WHERE id = ?1 RETURNING entries",
        )
        .expect("prepare a statistics update")
        .query_row(
            rusqlite::params![ns, 0, i64::from(length) - old_length],
            |r| r.get(0),
        )
        .expect("update the statistics");
    tx.commit().expect("commit");
}

/// A namespace as the index holds it: its statistics, then per key the
/// entry's content, category, taint, term list and length, and its
/// postings (term, length, positions) in term order. Not the ids or
/// timestamps, which differ between two namespaces by construction.
type Snapshot = (
    (i64, i64),
    Vec<(String, String, String, String, String, i64)>,
    Vec<(String, String, i64, Vec<u8>)>,
);

fn snapshot(conn: &Connection, namespace: &str) -> Snapshot {
    let stats = conn
        .query_row(
            "SELECT entries, tokens FROM memory_namespaces WHERE name = ?1",
            [namespace],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("read statistics");
    let entries = conn
        .prepare(
            "SELECT key, content, category, taint, terms, length FROM memory_entries
             WHERE namespace = ?1 ORDER BY key",
        )
        .expect("prepare")
        .query_map([namespace], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })
        .expect("read entries")
        .collect::<Result<_, _>>()
        .expect("read entries");
    let postings = conn
        .prepare(
            "SELECT e.key, p.term, p.length, p.positions FROM memory_postings AS p
             JOIN memory_namespaces AS n ON n.id = p.ns
             JOIN memory_entries AS e ON e.id = p.entry
             WHERE n.name = ?1 ORDER BY e.key, p.term",
        )
        .expect("prepare")
        .query_map([namespace], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .expect("read postings")
        .collect::<Result<_, _>>()
        .expect("read postings");
    (stats, entries, postings)
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
    let floor: Vec<(String, String, String, u64)> = bare_recall(&reader, &ns)
        .into_iter()
        .map(|r| (r.0.to_string(), r.2, r.7, r.8.to_bits()))
        .collect();
    let hits = rt
        .block_on(driver.recall(QUERY, LIMIT, &opts))
        .expect("driver recall");
    assert!(!hits.is_empty(), "the query finds nothing in {ns}");
    let got: Vec<(String, String, String, u64)> = hits
        .into_iter()
        .map(|h| {
            let score = h.score.expect("a recall hit has a score");
            (h.id, h.key, h.timestamp, score.to_bits())
        })
        .collect();
    assert_eq!(
        got, floor,
        "driver and floor disagree (id, key, timestamp, score bits)"
    );

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
    if suffix.is_empty() {
        bench_fts5(c, rt, dir, n, &driver, &reader, &ns);
    }

    // Upserts of existing keys in two namespaces of their own.
    let english = texts_with_word(QUERY_WORD);
    let (store_ns, floor_ns) = ("conversation:store-driver", "conversation:store-floor");
    let driver_store = |namespace: &'static str, key: String, content: &str| {
        rt.block_on(driver.store(
            namespace,
            &key,
            content,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        ))
        .expect("driver store");
    };
    for k in 0..STORE_KEYS {
        for target in [store_ns, floor_ns] {
            driver_store(target, format!("k{k:03}"), &english[k % english.len()]);
        }
    }
    let writer = RefCell::new(open_bare(
        &path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ));
    // The floor writes what the driver writes: one upsert through each.
    let other = &english[english.len() / 2];
    driver_store(store_ns, "k000".to_owned(), other);
    bare_store(&mut writer.borrow_mut(), floor_ns, "k000", other);
    assert_eq!(
        snapshot(&reader, store_ns),
        snapshot(&reader, floor_ns),
        "the floor's store writes other rows than the driver's"
    );

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

/// One FTS5 hit: rowid (the entry id), key, content, category, session,
/// taint, timestamp, and the score as the driver reports it (`-bm25`).
type FtsRow = (
    i64,
    String,
    String,
    String,
    Option<String>,
    String,
    String,
    f64,
);

/// One stored entry: id, key, content, category, session, taint,
/// timestamp.
type EntryRow = (i64, String, String, String, Option<String>, String, String);

/// The FTS5 table of one namespace's entries, in its own file: the
/// indexed column holds the driver's index text (`document`'s tokens, space
/// separated), so FTS5 sees the same tokens, lengths and statistics and
/// returns the same hits with the same scores; the entry's other columns
/// ride along unindexed, so one query returns whole hits.
fn fts5_table(reader: &Connection, namespace: &str, path: &Path) -> Connection {
    let conn = open_bare(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    );
    conn.execute_batch(
        "CREATE VIRTUAL TABLE ns_fts USING fts5(
             text, key UNINDEXED, content UNINDEXED, category UNINDEXED,
             session_id UNINDEXED, taint UNINDEXED, timestamp UNINDEXED,
             tokenize = \"unicode61 remove_diacritics 0 categories 'L* N* Co M*'\");",
    )
    .expect("create the FTS5 table");
    let mut read = reader
        .prepare(
            "SELECT id, key, content, category, session_id, taint, timestamp
               FROM memory_entries WHERE namespace = ?1",
        )
        .expect("prepare the namespace read");
    let rows: Vec<EntryRow> = read
        .query_map([namespace], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })
        .expect("read the namespace")
        .collect::<Result<_, _>>()
        .expect("read the namespace");
    let tx = conn.unchecked_transaction().expect("begin the FTS5 fill");
    {
        let mut insert = tx
            .prepare(
                "INSERT INTO ns_fts (rowid, text, key, content, category, session_id, taint,
                                     timestamp) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .expect("prepare the FTS5 insert");
        for (id, key, content, category, session, taint, timestamp) in rows {
            let (terms, length) = document(&content);
            let mut tokens = vec![""; usize::try_from(length).expect("a small length")];
            for (term, positions) in &terms {
                for &p in positions {
                    tokens[usize::try_from(p).expect("a small position")] = term;
                }
            }
            insert
                .execute(rusqlite::params![
                    id,
                    tokens.join(" "),
                    key,
                    content,
                    category,
                    session,
                    taint,
                    timestamp
                ])
                .expect("fill the FTS5 table");
        }
    }
    tx.commit().expect("commit the FTS5 fill");
    conn
}

/// The bare FTS5 recall: `match_expr` against the namespace's table, best
/// BM25 first, ties by key, [`LIMIT`] hits read into owned values.
fn fts5_recall(conn: &Connection, match_expr: &str) -> Vec<FtsRow> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT rowid, key, content, category, session_id, taint, timestamp, bm25(ns_fts)
               FROM ns_fts WHERE ns_fts MATCH ?1 ORDER BY bm25(ns_fts), key LIMIT ?2",
        )
        .expect("prepare the FTS5 query");
    stmt.query_map(
        rusqlite::params![match_expr, i64::try_from(LIMIT).expect("small")],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                -r.get::<_, f64>(7)?,
            ))
        },
    )
    .expect("run the FTS5 query")
    .collect::<Result<_, _>>()
    .expect("read the FTS5 hits")
}

/// The first word (in byte order) of at least five ASCII lowercase letters
/// that exactly one entry of the namespace holds, by the driver's own
/// tokens.
fn rare_word(reader: &Connection, namespace: &str) -> String {
    let mut stmt = reader
        .prepare("SELECT content FROM memory_entries WHERE namespace = ?1")
        .expect("prepare the namespace read");
    let contents: Vec<String> = stmt
        .query_map([namespace], |r| r.get(0))
        .expect("read the namespace")
        .collect::<Result<_, _>>()
        .expect("read the namespace");
    let mut df: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for content in &contents {
        for (term, _) in document(content).0 {
            *df.entry(term).or_default() += 1;
        }
    }
    df.into_iter()
        .find(|(t, n)| *n == 1 && t.len() >= 5 && t.bytes().all(|b| b.is_ascii_lowercase()))
        .map(|(t, _)| t)
        .unwrap_or_else(|| panic!("no rare word in {namespace}"))
}

/// `(id, key, timestamp, score bits)` of driver hits.
fn driver_keys(hits: Vec<tinymemory_api::MemoryEntry>) -> Vec<(String, String, String, u64)> {
    hits.into_iter()
        .map(|h| {
            let score = h.score.expect("a recall hit has a score");
            (h.id, h.key, h.timestamp, score.to_bits())
        })
        .collect()
}

/// `(id, key, timestamp, score bits)` of FTS5 hits.
fn fts5_keys(rows: Vec<FtsRow>) -> Vec<(String, String, String, u64)> {
    rows.into_iter()
        .map(|r| (r.0.to_string(), r.1, r.6, r.7.to_bits()))
        .collect()
}

/// Polls `fut` once with a no-op waker, outside any Tokio runtime, where
/// the driver runs its SQL on the calling thread: the recall without the
/// blocking-pool hop.
fn poll_inline<F: std::future::Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match fut.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => out,
        std::task::Poll::Pending => panic!("the driver's call waited outside a runtime"),
    }
}

/// `sqlite_fts5`: the driver's pinned recall against a bare FTS5 query on
/// a table holding only that namespace (the floor), for a rare word (one
/// hit: the driver's fixed cost shows) and for [`QUERY`] (most entries
/// match: the index's cost shows). `*_driver` is the driver in the bench's
/// runtime; `rare_inline` is the driver polled outside any runtime, so its
/// SQL runs on the bench thread (no blocking-pool hop). All paired with
/// the FTS5 floor of the same query.
fn bench_fts5(
    c: &mut Criterion,
    rt: &Runtime,
    dir: &Path,
    n: usize,
    driver: &SqliteDriver,
    reader: &Connection,
    ns: &str,
) {
    let fts = fts5_table(reader, ns, &dir.join(format!("fts5-{n}.db")));
    let opts = RecallOptions::in_namespace(ns.to_owned());
    let rare = rare_word(reader, ns);
    let rare_expr = format!("\"{rare}\"");
    let common_expr = TERMS.map(|t| format!("\"{t}\"")).join(" OR ");
    for (query, expr) in [(rare.as_str(), &rare_expr), (QUERY, &common_expr)] {
        let hits = rt
            .block_on(driver.recall(query, LIMIT, &opts))
            .expect("driver recall");
        assert!(!hits.is_empty(), "{query:?} finds nothing in {ns}");
        assert_eq!(
            driver_keys(hits),
            fts5_keys(fts5_recall(&fts, expr)),
            "driver and FTS5 disagree on {query:?} (id, key, timestamp, score bits)"
        );
    }
    assert_eq!(
        driver_keys(poll_inline(driver.recall(&rare, LIMIT, &opts)).expect("inline recall")),
        fts5_keys(fts5_recall(&fts, &rare_expr)),
        "the inline recall differs"
    );

    let group_id = "sqlite_fts5";
    let mut group = c.benchmark_group(group_id);
    group.bench_function(BenchmarkId::new("rare_fts5", n), |b| {
        b.iter(|| fts5_recall(&fts, &rare_expr))
    });
    bench_paired_async(
        &mut group,
        group_id,
        "rare_driver",
        n,
        rt,
        || async { fts5_recall(&fts, &rare_expr) },
        || driver.recall(&rare, LIMIT, &opts),
    );
    let inline = Paired::new();
    group.bench_function(BenchmarkId::new("rare_inline", n), |b| {
        inline.iter_batched(
            b,
            1,
            || (),
            |()| fts5_recall(&fts, &rare_expr),
            || (),
            |()| poll_inline(driver.recall(&rare, LIMIT, &opts)),
        );
    });
    inline
        .save(&criterion_home(), group_id, "rare_inline", &n.to_string())
        .expect("write the paired ratio");
    group.bench_function(BenchmarkId::new("common_fts5", n), |b| {
        b.iter(|| fts5_recall(&fts, &common_expr))
    });
    bench_paired_async(
        &mut group,
        group_id,
        "common_driver",
        n,
        rt,
        || async { fts5_recall(&fts, &common_expr) },
        || driver.recall(QUERY, LIMIT, &opts),
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
