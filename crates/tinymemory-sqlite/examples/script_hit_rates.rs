//! Measures, per language of `fixtures/corpora`, how many `(entry, word)`
//! pairs recall finds under several FTS5 tokenisations, and what each costs
//! in index size. Prints the Markdown tables of `docs/sqlite.md`.
//!
//! ```text
//! cargo run --release -p tinymemory-sqlite --example script_hit_rates
//! ```
//!
//! Variants (sizes are of the FTS5 index proper: the `_data`, `_idx`,
//! `_docsize` and `_config` shadow tables, not a stored copy of the text):
//!
//! - `unicode61`: FTS5's default tokenizer over the raw content, the query
//!   word as one quoted FTS5 string — a naive driver;
//! - `unicode61+M`: the same with combining marks as token characters
//!   (`categories 'L* N* Co M*'`);
//! - `trigram`: FTS5's trigram tokenizer (substring match, 3+ characters);
//! - `unicode61+trigram`: found by either of the two tables;
//! - `driver`: this crate's `SqliteDriver`, file-backed, through
//!   `MemoryProvider::recall`.

#[path = "../tests/sqlite/common/corpus.rs"]
mod corpus;
#[path = "../tests/sqlite/common/hit_rate.rs"]
mod hit_rate;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use corpus::{Entry, HitRate};
use rusqlite::Connection;
use tinymemory_sqlite::SqliteDriver;

/// A baseline FTS5 table: name and tokenizer.
const BASELINES: [(&str, &str); 3] = [
    ("unicode61", "unicode61"),
    ("unicode61+M", "unicode61 categories 'L* N* Co M*'"),
    ("trigram", "trigram"),
];

struct Measured {
    rates: BTreeMap<String, HitRate>,
    index_bytes: u64,
    query_time: Duration,
}

fn main() {
    let entries = corpus::load(&corpus::root());
    let by_lang = corpus::by_language(&entries);
    // Entries in language order, with each language's rowid range.
    let ordered: Vec<&Entry> = by_lang.values().flatten().copied().collect();

    let conn = Connection::open_in_memory().unwrap();
    for (i, (name, tokenizer)) in BASELINES.iter().enumerate() {
        conn.execute_batch(&format!(
            "CREATE VIRTUAL TABLE b{i} USING fts5(body, content='', tokenize=\"{tokenizer}\"); -- {name}"
        ))
        .unwrap();
        let mut ins = conn
            .prepare(&format!("INSERT INTO b{i} (rowid, body) VALUES (?1, ?2)"))
            .unwrap();
        for (row, e) in ordered.iter().enumerate() {
            ins.execute(rusqlite::params![row, e.content]).unwrap();
        }
    }
    let mut measured: BTreeMap<&str, Measured> = BTreeMap::new();
    let mut found_by: BTreeMap<&str, BTreeMap<String, Vec<BTreeSet<i64>>>> = BTreeMap::new();
    for (i, (name, _)) in BASELINES.iter().enumerate() {
        let t = Instant::now();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT rowid FROM b{i} WHERE b{i} MATCH ?1 AND rowid BETWEEN ?2 AND ?3"
            ))
            .unwrap();
        let mut rates = BTreeMap::new();
        let mut sets = BTreeMap::new();
        let mut first = 0_i64;
        for (lang, es) in &by_lang {
            let last = first + es.len() as i64 - 1;
            let mut rate = HitRate::default();
            let mut lang_sets = Vec::new();
            let index = corpus::word_index(es);
            let any_case = hit_rate::any_case(&index);
            for (w, holders) in index {
                let q = format!("\"{}\"", w.replace('"', "\"\""));
                let hits: BTreeSet<i64> = stmt
                    .query_map(rusqlite::params![q, first, last], |r| r.get(0))
                    .unwrap()
                    .map(Result::unwrap)
                    .collect();
                let found = holders
                    .iter()
                    .filter(|h| hits.contains(&(first + **h as i64)))
                    .count();
                rate.add(found as u64, holders.len() as u64);
                let relevant = &any_case[&hit_rate::fold(&w)];
                rate.returned += hits.len() as u64;
                rate.relevant += relevant
                    .iter()
                    .filter(|h| hits.contains(&(first + **h as i64)))
                    .count() as u64;
                lang_sets.push(hits);
            }
            rates.insert((*lang).to_owned(), rate);
            sets.insert((*lang).to_owned(), lang_sets);
            first = last + 1;
        }
        let query_time = t.elapsed();
        let index_bytes = table_bytes(&conn, &format!("b{i}"));
        measured.insert(
            name,
            Measured {
                rates,
                index_bytes,
                query_time,
            },
        );
        found_by.insert(name, sets);
    }

    // unicode61 + trigram: a pair counts when either table finds it.
    let mut combined = BTreeMap::new();
    let mut first = 0_i64;
    for (lang, es) in &by_lang {
        let mut rate = HitRate::default();
        let a = &found_by["unicode61"][*lang];
        let b = &found_by["trigram"][*lang];
        for (k, (_, holders)) in corpus::word_index(es).into_iter().enumerate() {
            let found = holders
                .iter()
                .filter(|h| {
                    let row = first + **h as i64;
                    a[k].contains(&row) || b[k].contains(&row)
                })
                .count();
            rate.add(found as u64, holders.len() as u64);
        }
        combined.insert((*lang).to_owned(), rate);
        first += es.len() as i64;
    }
    measured.insert(
        "unicode61+trigram",
        Measured {
            rates: combined,
            index_bytes: measured["unicode61"].index_bytes + measured["trigram"].index_bytes,
            query_time: measured["unicode61"].query_time + measured["trigram"].query_time,
        },
    );

    // The driver itself, file-backed.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corpus.db");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (rates, query_time) = rt.block_on(async {
        let driver = SqliteDriver::open(&path).unwrap();
        hit_rate::load_into(&driver, &entries).await;
        let t = Instant::now();
        let rates = hit_rate::measure(&driver, &entries, 1).await;
        (rates, t.elapsed())
    });
    let db = Connection::open(&path).unwrap();
    // The inverted index proper: postings and per-namespace statistics.
    let fts_bytes = table_bytes(&db, "memory_postings")
        + table_bytes(&db, "memory_namespaces")
        + table_bytes(&db, "sqlite_autoindex_memory_namespaces");
    let entries_bytes =
        table_bytes(&db, "memory_entries") + table_bytes(&db, "sqlite_autoindex_memory_entries");
    let file_bytes = std::fs::metadata(&path).unwrap().len();
    measured.insert(
        "driver",
        Measured {
            rates,
            index_bytes: fts_bytes,
            query_time,
        },
    );

    let order = [
        "unicode61",
        "unicode61+M",
        "trigram",
        "unicode61+trigram",
        "driver",
    ];
    println!(
        "| language | entries | words | pairs | {} |",
        order.join(" | ")
    );
    println!("|---|---:|---:|---:|{}", "---:|".repeat(order.len()));
    let mut totals: BTreeMap<&str, HitRate> = BTreeMap::new();
    for (lang, es) in &by_lang {
        let index = corpus::word_index(es);
        let pairs: usize = index.values().map(Vec::len).sum();
        let cells: Vec<String> = order
            .iter()
            .map(|v| {
                let r = measured[v].rates[*lang];
                totals.entry(v).or_default().add(r.found, r.pairs);
                format!("{:.1}%", floor1(r.percent()))
            })
            .collect();
        println!(
            "| {lang} | {} | {} | {pairs} | {} |",
            es.len(),
            index.len(),
            cells.join(" | ")
        );
    }
    let cells: Vec<String> = order
        .iter()
        .map(|v| format!("**{:.1}%**", floor1(totals[v].percent())))
        .collect();
    println!(
        "| **all** | {} | | {} | {} |",
        entries.len(),
        totals["driver"].pairs,
        cells.join(" | ")
    );
    println!();
    let precise = ["unicode61", "unicode61+M", "trigram", "driver"];
    println!(
        "| language | {} | driver R-precision |",
        precise.map(|v| format!("{v} precision")).join(" | ")
    );
    println!("|---|{}---:|", "---:|".repeat(precise.len()));
    for lang in by_lang.keys() {
        let cells: Vec<String> = precise
            .iter()
            .map(|v| {
                format!(
                    "{:.1}%",
                    floor1(measured[v].rates[*lang].precision_percent())
                )
            })
            .collect();
        println!(
            "| {lang} | {} | {:.1}% |",
            cells.join(" | "),
            floor1(measured["driver"].rates[*lang].top_percent())
        );
    }
    println!();
    println!("| variant | FTS index bytes | bytes per entry | time for all recalls |");
    println!("|---|---:|---:|---:|");
    for v in order {
        let m = &measured[v];
        println!(
            "| {v} | {} | {:.0} | {:.2} s |",
            m.index_bytes,
            m.index_bytes as f64 / entries.len() as f64,
            m.query_time.as_secs_f64()
        );
    }
    println!();
    println!(
        "driver database file: {file_bytes} bytes ({:.0} per entry): entries table (with each entry's \
         term list) and its key index {entries_bytes} bytes, inverted index {fts_bytes} bytes",
        file_bytes as f64 / entries.len() as f64
    );
    let content_bytes: usize = entries.iter().map(|e| e.content.len()).sum();
    println!(
        "corpus content: {content_bytes} bytes of UTF-8 in {} entries",
        entries.len()
    );
}

/// Percentages are rounded down, so a table never shows 100.0% for less.
fn floor1(p: f64) -> f64 {
    (p * 10.0).floor() / 10.0
}

/// Bytes of pages used by `table` and its FTS5 shadow tables (`table_*`).
fn table_bytes(conn: &Connection, table: &str) -> u64 {
    conn.query_row(
        "SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = ?1 OR name LIKE ?1 || '\\_%' ESCAPE '\\'",
        [table],
        |r| r.get(0),
    )
    .unwrap()
}
