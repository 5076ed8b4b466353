//! A recall pinned to one 1,000-entry namespace of a big SQLite file
//! (100,000 and 1,000,000 entries, namespaces of 1,000) against the same
//! recall on a file holding only that namespace (the floor): issue 16's
//! "costs what its namespace holds".
//!
//! - The texts are generated ([`tinymemory_benches::zipf`]): 8 to 24 words
//!   from a 30,000-word vocabulary drawn with Zipf weights `1 / rank`, so
//!   a few words are in most entries and most words in a handful.
//! - `sqlite_scale_recall_common/*`: the two most frequent words (each in
//!   about three entries in four), `limit` 10: nearly the whole namespace
//!   is scored.
//! - `sqlite_scale_recall_selective/*`: two words that the target
//!   namespace holds in 2 to 6 entries each (and the big store in about a
//!   thousand times as many), `limit` 10.
//! - Functions: `floor` (the namespace alone), `pinned_unpaired` (the
//!   same recall on the big store, timed alone like the floor) and
//!   `pinned` (the same, paired with the floor in the same samples,
//!   `tinymemory_benches::Paired`); value: the big store's entry count.
//!   Alternating the two stores evicts each one's pages from the CPU
//!   caches, so the paired medians are higher than the unpaired ones; the
//!   paired ratio compares both under that same condition, the ratio of
//!   the unpaired medians under hot caches (and a machine load that may
//!   differ between the two).
//!
//! Before timing, the bench checks that both stores return the same hits
//! with the same score bits (contract sentence 11).
//!
//! The big files are filled once with `store_many` (one call per
//! namespace) and kept as `target/bench-data/sqlite-v<schema>-zipf<gen>-
//! <namespaces>x<per>.db`, beside a `.json` holding how long the fill took;
//! a run that finds both reuses the file. Delete them to refill. In a
//! smoke run (`cargo test --benches`) the big store is 3 namespaces of 40
//! entries in a temporary directory.
#![forbid(unsafe_code)]
#![expect(
    missing_docs,
    reason = "criterion_group! makes an undocumented `pub fn`"
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_benches::zipf::{document_frequency, scale_namespace, ZipfText, ZIPF_VERSION};
use tinymemory_benches::{
    bench_data_dir, criterion_config, disk_dir, report_paired, runtime, smoke_run, Paired,
};
use tinymemory_sqlite::{SqliteDriver, SCHEMA_VERSION};
use tokio::runtime::Runtime;

const LIMIT: usize = 10;
/// The namespace both stores hold, by index.
const TARGET: usize = 50;
/// (namespaces, entries per namespace) of the big stores.
const FULL: [(usize, usize); 2] = [(100, 1_000), (1_000, 1_000)];
const SMOKE: (usize, usize) = (3, 40);
const SMOKE_TARGET: usize = 1;

fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "sqlite_scale: {line}");
}

/// Fills `path` with `namespaces` generated namespaces of `per` entries,
/// one `store_many` per namespace; returns the seconds it took.
fn fill(rt: &Runtime, z: &ZipfText, path: &Path, namespaces: usize, per: usize) -> f64 {
    let driver = SqliteDriver::open(path).expect("open the big store");
    let start = Instant::now();
    for ns in 0..namespaces {
        rt.block_on(driver.store_many(&z.namespace_entries(ns, per)))
            .expect("store_many");
        if (ns + 1) % 100 == 0 {
            say(&format!(
                "filled {} of {namespaces} namespaces in {:.0} s",
                ns + 1,
                start.elapsed().as_secs_f64()
            ));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    drop(driver);
    seconds
}

/// The cached big store of `namespaces` x `per` entries, filled when the
/// cache lacks it: its path and a line saying how it was made.
fn big_store(rt: &Runtime, z: &ZipfText, namespaces: usize, per: usize) -> (PathBuf, String) {
    let dir = bench_data_dir();
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    let path = dir.join(format!(
        "sqlite-v{SCHEMA_VERSION}-zipf{ZIPF_VERSION}-{namespaces}x{per}.db"
    ));
    let meta = path.with_extension("json");
    let recorded = std::fs::read_to_string(&meta)
        .ok()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok());
    let seconds = match recorded.as_ref().and_then(|m| m["fill_seconds"].as_f64()) {
        Some(s) if path.is_file() => s,
        _ => {
            for stale in [path.clone(), meta.clone()] {
                let _ = std::fs::remove_file(stale);
            }
            say(&format!(
                "filling {} ({} entries) with store_many",
                path.display(),
                namespaces * per
            ));
            let s = fill(rt, z, &path, namespaces, per);
            let json = serde_json::json!({
                "entries": namespaces * per,
                "namespaces": namespaces,
                "fill_seconds": s,
                "bytes": std::fs::metadata(&path).map_or(0, |m| m.len()),
            });
            std::fs::write(&meta, json.to_string()).expect("write the fill record");
            s
        }
    };
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    let mb = bytes / 1_000_000;
    let line = format!(
        "{}: {} entries, {mb} MB, filled with store_many (one call per namespace) in {seconds:.1} s",
        path.display(),
        namespaces * per,
    );
    (path, line)
}

/// The selective query: the two most frequent words, from rank 300 on,
/// that the target namespace holds in 2 to 6 entries.
fn selective_query(z: &ZipfText, target: &[tinymemory_api::NewEntry]) -> String {
    let words: Vec<&str> = (300..tinymemory_benches::zipf::VOCABULARY)
        .map(|r| z.word(r))
        .filter(|w| (2..=6).contains(&document_frequency(target, w)))
        .take(2)
        .collect();
    assert_eq!(
        words.len(),
        2,
        "no two selective words in the target namespace"
    );
    words.join(" ")
}

fn hits(rt: &Runtime, d: &SqliteDriver, q: &str, opts: &RecallOptions) -> Vec<(String, u64)> {
    rt.block_on(d.recall(q, LIMIT, opts))
        .expect("recall")
        .into_iter()
        .map(|h| (h.key, h.score.map_or(0, f64::to_bits)))
        .collect()
}

fn sqlite_scale(c: &mut Criterion) {
    let rt = runtime();
    let z = ZipfText::new();
    let smoke = smoke_run();
    let (configs, target): (Vec<(usize, usize)>, usize) = if smoke {
        (vec![SMOKE], SMOKE_TARGET)
    } else {
        (FULL.to_vec(), TARGET)
    };
    let scratch = disk_dir();
    for (namespaces, per) in configs {
        let (big_path, line) = if smoke {
            let p = scratch.path().join("big.db");
            let s = fill(&rt, &z, &p, namespaces, per);
            (p, format!("smoke store in {s:.2} s"))
        } else {
            big_store(&rt, &z, namespaces, per)
        };
        say(&line);
        let big = SqliteDriver::open(&big_path).expect("open the big store");
        let target_entries = z.namespace_entries(target, per);
        let small_path = scratch.path().join(format!("alone-{namespaces}.db"));
        let _ = std::fs::remove_file(&small_path);
        let small = SqliteDriver::open(&small_path).expect("open the small store");
        rt.block_on(small.store_many(&target_entries))
            .expect("fill the small store");
        let opts = RecallOptions::in_namespace(scale_namespace(target));
        let queries = [
            ("common", format!("{} {}", z.word(0), z.word(1))),
            ("selective", selective_query(&z, &target_entries)),
        ];
        let total = namespaces * per;
        for (name, q) in &queries {
            let on_big = hits(&rt, &big, q, &opts);
            assert_eq!(
                on_big,
                hits(&rt, &small, q, &opts),
                "{name} query {q:?}: the pinned recall differs from the namespace alone"
            );
            assert!(!on_big.is_empty(), "{name} query {q:?} finds nothing");
            say(&format!(
                "{name} query {q:?}: {} hits, same keys and score bits on both stores",
                on_big.len()
            ));
            let group_id = format!("sqlite_scale_recall_{name}");
            let mut group = c.benchmark_group(&group_id);
            group.bench_function(BenchmarkId::new("floor", total), |b| {
                b.iter(|| rt.block_on(small.recall(q, LIMIT, &opts)));
            });
            // Unpaired, like the floor above: both with the CPU caches
            // their own repeated recall leaves, which pairing takes away.
            group.bench_function(BenchmarkId::new("pinned_unpaired", total), |b| {
                b.iter(|| rt.block_on(big.recall(q, LIMIT, &opts)));
            });
            let paired = Paired::new();
            group.bench_function(BenchmarkId::new("pinned", total), |b| {
                paired.iter_async(
                    b,
                    &rt,
                    || small.recall(q, LIMIT, &opts),
                    || big.recall(q, LIMIT, &opts),
                );
            });
            group.finish();
            report_paired(&paired, &group_id, "pinned", &total.to_string());
        }
    }
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = sqlite_scale
}
criterion_main!(benches);
