//! Recall finds every word in every script of the corpus
//! (`fixtures/corpora`): the assertion behind the table in
//! `docs/sqlite.md`. `examples/script_hit_rates.rs` prints the full
//! before/after table.

use crate::common;

use common::{corpus, hit_rate};
use tinymemory_sqlite::SqliteDriver;

/// The 28 ChatterBot languages and the licence texts.
const LANGUAGES: [&str; 29] = [
    "bengali",
    "chinese",
    "dutch",
    "english",
    "french",
    "german",
    "hebrew",
    "hindi",
    "hinglish",
    "indonesian",
    "italian",
    "japanese",
    "korean",
    "licenses",
    "marathi",
    "oriya",
    "persian",
    "portuguese",
    "russian",
    "spanish",
    "swedish",
    "tamil",
    "telugu",
    "thai",
    "traditionalchinese",
    "turkish",
    "ukrainian",
    "urdu",
    "yoruba",
];

/// The documented hit rate, the same for every language: every `(entry,
/// word)` pair is found.
const DOCUMENTED_HIT_RATE_PERCENT: f64 = 100.0;

#[test]
fn the_word_definition_is_as_documented() {
    let w: Vec<String> = corpus::words("Don't 机器人 नमस्ते").into_iter().collect();
    assert_eq!(
        w,
        [
            "Don",
            "t",
            "नमस्ते",
            "人",
            "器",
            "器人",
            "机",
            "机器",
            "机器人"
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_word_of_every_script_is_found() {
    let entries = corpus::load(&corpus::root());
    assert_eq!(
        entries.len(),
        20_360,
        "the corpus changed; re-measure docs/sqlite.md"
    );
    let driver = SqliteDriver::open_in_memory().unwrap();
    hit_rate::load_into(&driver, &entries).await;
    // Every second word in word order (about 120,000 (entry, word) pairs),
    // to keep the debug-build test short; the example checks every word.
    let rates = hit_rate::measure(&driver, &entries, 2).await;
    assert_eq!(
        rates.keys().map(String::as_str).collect::<Vec<_>>(),
        LANGUAGES
    );
    for (language, rate) in &rates {
        eprintln!(
            "{language:20} found {:>6}/{:<6} = {:6.2}%  R-precision {:6.2}%",
            rate.found,
            rate.pairs,
            rate.percent(),
            rate.top_percent()
        );
    }
    for (language, rate) in &rates {
        assert!(rate.pairs > 0, "{language} has no words");
        assert!(
            rate.percent() >= DOCUMENTED_HIT_RATE_PERCENT,
            "{language}: {} of {} (entry, word) pairs found",
            rate.found,
            rate.pairs
        );
    }
}
