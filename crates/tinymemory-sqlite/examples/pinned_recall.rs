//! A rough, one-off measurement (not a benchmark): a recall pinned to one
//! 1,000-entry namespace of a store holding `NAMESPACES` such namespaces,
//! against the same recall on a store holding only that namespace; and how
//! long the bulk fill with `store_many` took.
//!
//! ```text
//! cargo run --release -p tinymemory-sqlite --example pinned_recall -- [NAMESPACES]
//! ```

use std::time::{Duration, Instant};

use tinymemory_api::batch::NewEntry;
use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_sqlite::SqliteDriver;

const PER_NAMESPACE: usize = 1000;
const VOCABULARY: u64 = 5000;

/// A deterministic xorshift generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A word index, skewed towards small ones (roughly Zipf-like).
    fn word(&mut self) -> u64 {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        (VOCABULARY as f64).powf(u) as u64
    }
}

fn namespace_entries(ns: usize) -> Vec<NewEntry> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (ns as u64 + 1));
    (0..PER_NAMESPACE)
        .map(|i| {
            let words: Vec<String> = (0..12).map(|_| format!("w{}", rng.word())).collect();
            NewEntry::new(format!("learning:n{ns}"), format!("k{i}"), words.join(" "))
        })
        .collect()
}

fn time(d: &SqliteDriver, rt: &tokio::runtime::Runtime, q: &str, opts: &RecallOptions) -> Duration {
    let t = Instant::now();
    for _ in 0..200 {
        let hits = rt.block_on(d.recall(q, 10, opts)).unwrap();
        assert!(!hits.is_empty());
    }
    t.elapsed() / 200
}

fn main() {
    let namespaces: usize = std::env::args().nth(1).map_or(100, |a| a.parse().unwrap());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let big = SqliteDriver::open(dir.path().join("big.db")).unwrap();
    let small = SqliteDriver::open(dir.path().join("small.db")).unwrap();
    let target = namespaces / 2;
    let t = Instant::now();
    for ns in 0..namespaces {
        rt.block_on(big.store_many(&namespace_entries(ns))).unwrap();
    }
    let fill = t.elapsed();
    rt.block_on(small.store_many(&namespace_entries(target)))
        .unwrap();
    println!(
        "fill: {} entries with store_many (one call per 1,000-entry namespace) in {:.1} s",
        namespaces * PER_NAMESPACE,
        fill.as_secs_f64()
    );
    let opts = RecallOptions {
        namespace: Some(format!("learning:n{target}")),
        ..RecallOptions::default()
    };
    for (name, q) in [("common", "w1 w2"), ("selective", "w1200 w2500")] {
        let hits = |d: &SqliteDriver| -> Vec<(String, u64)> {
            rt.block_on(d.recall(q, 10, &opts))
                .unwrap()
                .into_iter()
                .map(|h| (h.key, h.score.unwrap().to_bits()))
                .collect()
        };
        assert_eq!(hits(&big), hits(&small), "same hits, same score bits");
        let mut ratios = Vec::new();
        for _ in 0..5 {
            let b = time(&big, &rt, q, &opts);
            let s = time(&small, &rt, q, &opts);
            ratios.push((b.as_secs_f64() / s.as_secs_f64(), b, s));
        }
        ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (r, b, s) = ratios[2];
        println!("{name} query {q:?}: pinned on the full store {b:?}, on the namespace alone {s:?}, median ratio {r:.2}");
    }
}
