//! Recall order on the SQLite driver: bm25 decides, the key breaks ties, and
//! neither the run nor the insertion order changes the answer.

use crate::common;

use common::{fixtures, put};
use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_sqlite::SqliteDriver;

fn keys(hits: &[tinymemory_api::MemoryEntry]) -> Vec<&str> {
    hits.iter().map(|h| h.key.as_str()).collect()
}

#[tokio::test]
async fn the_entry_with_more_of_the_word_ranks_first_with_a_higher_score() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "k1", "rust rust rust borrow").await;
        put(d, "global", "k2", "rust notes on go and python and java").await;
        put(d, "global", "k3", "nothing about the topic here").await;
        put(d, "global", "k4", "more unrelated words for the index").await;
        let hits = d
            .recall("rust", 2, &RecallOptions::default())
            .await
            .unwrap();
        assert_eq!(keys(&hits), ["k1", "k2"], "{}", f.name);
        let (s1, s2) = (hits[0].score.unwrap(), hits[1].score.unwrap());
        assert!(s1.is_finite() && s2.is_finite(), "{s1} {s2}");
        assert!(s1 > s2, "k1 must score higher: {s1} vs {s2}");
    }
}

async fn tie_order(d: &SqliteDriver, insert: &[&str]) -> Vec<String> {
    for k in insert {
        put(d, "global", k, "alpha beta").await;
    }
    let hits = d
        .recall("alpha", 2, &RecallOptions::default())
        .await
        .unwrap();
    hits.into_iter().map(|h| h.key).collect()
}

#[tokio::test]
async fn equal_scores_break_ties_by_key_in_every_run_and_insertion_order() {
    let d = SqliteDriver::open_in_memory().unwrap();
    let first = tie_order(&d, &["c", "a", "b"]).await;
    assert_eq!(first, ["a", "b"]);
    for _ in 0..20 {
        let hits = d
            .recall("alpha", 2, &RecallOptions::default())
            .await
            .unwrap();
        assert_eq!(keys(&hits), ["a", "b"]);
    }
    for order in [["b", "c", "a"], ["a", "b", "c"], ["c", "b", "a"]] {
        let fresh = SqliteDriver::open_in_memory().unwrap();
        assert_eq!(tie_order(&fresh, &order).await, ["a", "b"], "{order:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_tasks_of_fifty_stores_into_one_namespace_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = std::sync::Arc::new(SqliteDriver::open(dir.path().join("ten.db")).unwrap());
    let mut tasks = Vec::new();
    for t in 0..10 {
        let d = std::sync::Arc::clone(&d);
        tasks.push(tokio::spawn(async move {
            for i in 0..50 {
                put(
                    d.as_ref(),
                    "learning:load",
                    &format!("t{t}-k{i:02}"),
                    &format!("word{t}x{i} shared"),
                )
                .await;
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let listed = d.list(Some("learning:load"), None, None).await.unwrap();
    assert_eq!(listed.len(), 500);
    let counts: Vec<_> = d
        .namespaces()
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    assert_eq!(counts, [("learning:load".to_owned(), 500)]);
    let opts = RecallOptions::in_namespace("learning:load");
    for t in 0..10 {
        for i in 0..50 {
            let hits = d.recall(&format!("word{t}x{i}"), 5, &opts).await.unwrap();
            assert_eq!(keys(&hits), [format!("t{t}-k{i:02}")]);
        }
    }
}
