//! Measures, per language of `fixtures/corpora`, how many `(entry, word)`
//! pairs recall finds on PostgreSQL three ways, and what each index costs.
//! Prints the Markdown table of `docs/postgres.md`.
//!
//! ```text
//! TINYMEMORY_POSTGRES_URL=postgres://... cargo run --release -p tinymemory-postgres --example postgres_script_hit_rates
//! ```
//!
//! Words, entries and the counting are the SQLite driver's measurement
//! (its `tests/sqlite/common/corpus.rs` and `hit_rate.rs`, included unchanged), so
//! the figures compare with `docs/sqlite.md`. Variants, each in a scratch
//! schema dropped at the end:
//!
//! - `parser`: what a naive driver does, `to_tsvector('simple', content)`
//!   matched by `plainto_tsquery('simple', word)`: PostgreSQL's own word
//!   parser, on this server's locale;
//! - `driver`: this crate's `PostgresDriver`, through
//!   `MemoryProvider::recall` (words cut in Rust, bigrams for scripts
//!   without spaces), with R-precision and precision as the SQLite
//!   measurement defines them;
//! - `pg_trgm`: `content ILIKE '%word%'` over a `gin_trgm_ops` index, the
//!   usual answer for scripts without spaces: a substring match, so every
//!   pair is found by construction; its precision (hits that hold the word
//!   at all, as a word) is what it costs. Skipped when the extension cannot
//!   be created.
#![forbid(unsafe_code)]

#[path = "../../tinymemory-sqlite/tests/sqlite/common/corpus.rs"]
mod corpus;
#[path = "../../tinymemory-sqlite/tests/sqlite/common/hit_rate.rs"]
mod hit_rate;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use corpus::{Entry, HitRate};
use tinymemory_postgres::{PostgresConfig, PostgresFactory, URL_ENV};

/// A variant's tallies per language, its index size and query time.
struct Measured {
    rates: BTreeMap<String, HitRate>,
    index_bytes: i64,
    query_time: Duration,
}

/// Runs one SQL variant: for each language and each of its words, the keys
/// `sql` returns for `(language, word)`.
async fn measure_sql(
    client: &tokio_postgres::Client,
    by_lang: &BTreeMap<&str, Vec<&Entry>>,
    sql: &str,
) -> BTreeMap<String, HitRate> {
    let stmt = client.prepare(sql).await.unwrap();
    let mut rates = BTreeMap::new();
    for (lang, es) in by_lang {
        let index = corpus::word_index(es);
        let any_case = hit_rate::any_case(&index);
        let mut rate = HitRate::default();
        for (w, holders) in &index {
            let hits: BTreeSet<String> = client
                .query(&stmt, &[&lang, &w.as_str()])
                .await
                .unwrap_or_else(|e| panic!("{lang} {w:?}: {e}"))
                .iter()
                .map(|r| r.get(0))
                .collect();
            let found = holders
                .iter()
                .filter(|i| hits.contains(&es[**i].key))
                .count();
            rate.add(found as u64, holders.len() as u64);
            let relevant: BTreeSet<&String> = any_case[&hit_rate::fold(w)]
                .iter()
                .map(|i| &es[*i].key)
                .collect();
            rate.returned += hits.len() as u64;
            rate.relevant += hits.iter().filter(|k| relevant.contains(k)).count() as u64;
        }
        rates.insert((*lang).to_owned(), rate);
    }
    rates
}

async fn relation_bytes(client: &tokio_postgres::Client, relation: &str) -> i64 {
    client
        .query_one("SELECT pg_relation_size($1::text::regclass)", &[&relation])
        .await
        .unwrap()
        .get(0)
}

fn pct(r: &HitRate) -> String {
    format!("{:.1}", r.percent())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let url = std::env::var(URL_ENV).unwrap_or_else(|_| panic!("set {URL_ENV} to a server"));
    let config = PostgresConfig::from_url(url.trim()).unwrap();
    let factory = PostgresFactory::new(&config).unwrap();
    let (client, connection) = tokio_postgres::connect(url.trim(), tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);

    let entries = corpus::load(&corpus::root());
    let by_lang = corpus::by_language(&entries);
    let mut measured: BTreeMap<&str, Measured> = BTreeMap::new();

    // The driver.
    let driver = factory.scratch();
    hit_rate::load_into(&driver, &entries).await;
    let t = Instant::now();
    let rates = hit_rate::measure(&driver, &entries, 1).await;
    measured.insert(
        "driver",
        Measured {
            rates,
            index_bytes: relation_bytes(
                &client,
                &format!("\"{}\".memory_entries_body", driver.schema()),
            )
            .await,
            query_time: t.elapsed(),
        },
    );

    // The baselines, in a scratch schema of their own.
    let s = factory.scratch();
    s.ensure_schema().await.unwrap();
    let s = s.schema().to_owned();
    client
        .batch_execute(&format!(
            "CREATE TABLE \"{s}\".plain (lang TEXT, key TEXT, content TEXT);
             CREATE INDEX ON \"{s}\".plain (lang);"
        ))
        .await
        .unwrap();
    let insert = client
        .prepare(&format!("INSERT INTO \"{s}\".plain VALUES ($1, $2, $3)"))
        .await
        .unwrap();
    for e in &entries {
        // TEXT holds no NUL (the corpus has none; this is a baseline).
        let content = e.content.replace('\0', " ");
        client
            .execute(&insert, &[&e.language, &e.key, &content])
            .await
            .unwrap();
    }

    client
        .batch_execute(&format!(
            "ALTER TABLE \"{s}\".plain ADD COLUMN tsv tsvector
                 GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED;
             CREATE INDEX parser_gin ON \"{s}\".plain USING GIN (tsv);"
        ))
        .await
        .unwrap();
    let t = Instant::now();
    let rates = measure_sql(
        &client,
        &by_lang,
        &format!(
            "SELECT key FROM \"{s}\".plain WHERE lang = $1 AND tsv @@ plainto_tsquery('simple', $2)"
        ),
    )
    .await;
    measured.insert(
        "parser",
        Measured {
            rates,
            index_bytes: relation_bytes(&client, &format!("\"{s}\".parser_gin")).await,
            query_time: t.elapsed(),
        },
    );

    let trgm = client
        .batch_execute(&format!(
            "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA \"{s}\";
             CREATE INDEX trgm_gin ON \"{s}\".plain USING GIN (content \"{s}\".gin_trgm_ops);"
        ))
        .await;
    match trgm {
        Ok(()) => {
            let t = Instant::now();
            let rates = measure_sql(
                &client,
                &by_lang,
                &format!(
                    "SELECT key FROM \"{s}\".plain WHERE lang = $1
                     AND content ILIKE '%' || replace(replace(replace($2, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'"
                ),
            )
            .await;
            measured.insert(
                "pg_trgm",
                Measured {
                    rates,
                    index_bytes: relation_bytes(&client, &format!("\"{s}\".trgm_gin")).await,
                    query_time: t.elapsed(),
                },
            );
        }
        Err(e) => eprintln!("pg_trgm skipped: failed to create the extension: {e}"),
    }

    let variants: Vec<&str> = ["parser", "driver", "pg_trgm"]
        .into_iter()
        .filter(|v| measured.contains_key(v))
        .collect();
    println!(
        "| language | pairs | {} | driver R-precision | driver precision |{}",
        variants
            .iter()
            .map(|v| format!("{v} found %"))
            .collect::<Vec<_>>()
            .join(" | "),
        if measured.contains_key("pg_trgm") {
            " pg_trgm precision |"
        } else {
            ""
        }
    );
    println!(
        "|---|---:|{}---:|---:|{}",
        "---:|".repeat(variants.len()),
        if measured.contains_key("pg_trgm") {
            "---:|"
        } else {
            ""
        }
    );
    let mut totals: BTreeMap<&str, HitRate> = BTreeMap::new();
    for lang in by_lang.keys() {
        let d = &measured["driver"].rates[*lang];
        let mut row = format!("| {lang} | {} |", d.pairs);
        for v in &variants {
            let r = &measured[v].rates[*lang];
            row.push_str(&format!(" {} |", pct(r)));
            let t = totals.entry(v).or_default();
            t.add(r.found, r.pairs);
            t.top += r.top;
            t.top_pairs += r.top_pairs;
            t.returned += r.returned;
            t.relevant += r.relevant;
        }
        row.push_str(&format!(
            " {:.1} | {:.1} |",
            d.top_percent(),
            d.precision_percent()
        ));
        if let Some(m) = measured.get("pg_trgm") {
            row.push_str(&format!(" {:.1} |", m.rates[*lang].precision_percent()));
        }
        println!("{row}");
    }
    let d = &totals["driver"];
    let mut row = format!("| **all** | {} |", d.pairs);
    for v in &variants {
        row.push_str(&format!(" **{}** |", pct(&totals[v])));
    }
    row.push_str(&format!(
        " {:.1} | {:.1} |",
        d.top_percent(),
        d.precision_percent()
    ));
    if let Some(t) = totals.get("pg_trgm") {
        row.push_str(&format!(" {:.1} |", t.precision_percent()));
    }
    println!("{row}\n");
    println!("| variant | index size | queries took |");
    println!("|---|---:|---:|");
    for v in &variants {
        let m = &measured[v];
        println!(
            "| {v} | {:.1} MiB | {:.1} s |",
            m.index_bytes as f64 / (1024.0 * 1024.0),
            m.query_time.as_secs_f64()
        );
    }
    factory.cleanup().await.unwrap();
}
