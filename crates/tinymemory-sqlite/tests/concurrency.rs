//! Many tasks writing and recalling through one file-backed handle lose
//! nothing and never see `SQLITE_BUSY`.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_sqlite::SqliteDriver;

const TASKS: usize = 16;
const WRITES: usize = 50;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_tasks_write_and_recall_without_loss_or_busy() {
    let dir = tempfile::tempdir().unwrap();
    let driver = Arc::new(SqliteDriver::open(dir.path().join("busy.db")).unwrap());
    let mut handles = Vec::new();
    for t in 0..TASKS {
        let d = Arc::clone(&driver);
        handles.push(tokio::spawn(async move {
            let ns = format!("conversation:t{}", t % 4);
            for i in 0..WRITES {
                let key = format!("t{t:02}-{i:02}");
                d.store(
                    &ns,
                    &key,
                    &format!("shared words and unique{t}x{i} token"),
                    MemoryCategory::Conversation,
                    Some(&format!("task{t}")),
                    MemoryTaint::Internal,
                )
                .await
                .unwrap_or_else(|e| panic!("store {key}: {e}"));
                // Read your own write, on any reader connection.
                let hits = d
                    .recall(
                        &format!("unique{t}x{i}"),
                        5,
                        &RecallOptions::in_namespace(ns.clone()),
                    )
                    .await
                    .unwrap_or_else(|e| panic!("recall {key}: {e}"));
                assert_eq!(hits.len(), 1, "{key}");
                assert_eq!(hits[0].key, key);
                if i % 10 == 0 {
                    d.namespaces().await.unwrap();
                    d.list(Some(&ns), None, None).await.unwrap();
                }
            }
            // Overwrite 10, forget 5 of this task's entries.
            for i in 0..10 {
                let key = format!("t{t:02}-{i:02}");
                d.store(
                    &ns,
                    &key,
                    "overwritten",
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await
                .unwrap();
            }
            for i in 10..15 {
                assert!(d.forget(&ns, &format!("t{t:02}-{i:02}")).await.unwrap());
            }
        }));
    }
    for h in handles {
        h.await.unwrap();
    }

    let per_task = WRITES - 5;
    let all = driver.list(None, None, None).await.unwrap();
    assert_eq!(all.len(), TASKS * per_task);
    let mut counts: Vec<(String, u64)> = driver
        .namespaces()
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    counts.sort();
    let want: Vec<(String, u64)> = (0..4)
        .map(|n| (format!("conversation:t{n}"), (TASKS / 4 * per_task) as u64))
        .collect();
    assert_eq!(counts, want);
    let overwritten = all.iter().filter(|e| e.content == "overwritten").count();
    assert_eq!(overwritten, TASKS * 10);
    let mut per_session: BTreeMap<Option<String>, usize> = BTreeMap::new();
    for e in &all {
        *per_session.entry(e.session_id.clone()).or_default() += 1;
    }
    assert_eq!(per_session[&None], TASKS * 10);
    assert_eq!(per_session[&Some("task3".to_owned())], per_task - 10);
    for n in 0..4 {
        let hits = driver
            .recall(
                "shared",
                10_000,
                &RecallOptions::in_namespace(format!("conversation:t{n}")),
            )
            .await
            .unwrap();
        assert_eq!(hits.len(), TASKS / 4 * (per_task - 10));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_handles_on_one_file_wait_for_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.db");
    let a = Arc::new(SqliteDriver::open(&path).unwrap());
    let b = Arc::new(SqliteDriver::open(&path).unwrap());
    let mut handles = Vec::new();
    for (name, d) in [("a", a.clone()), ("b", b.clone())] {
        for t in 0..4 {
            let d = Arc::clone(&d);
            handles.push(tokio::spawn(async move {
                for i in 0..25 {
                    d.store(
                        "global",
                        &format!("{name}{t}-{i}"),
                        "from two handles",
                        MemoryCategory::Core,
                        None,
                        MemoryTaint::Internal,
                    )
                    .await
                    .unwrap();
                }
            }));
        }
    }
    for h in handles {
        h.await.unwrap();
    }
    assert_eq!(a.list(None, None, None).await.unwrap().len(), 200);
    assert_eq!(b.namespaces().await.unwrap()[0].count, 200);
}

#[tokio::test(flavor = "current_thread")]
async fn a_single_threaded_runtime_keeps_running_during_sql() {
    let dir = tempfile::tempdir().unwrap();
    let d = SqliteDriver::open(dir.path().join("ct.db")).unwrap();
    let big = "word ".repeat(1 << 18);
    let (d2, big2) = (d.clone(), big.clone());
    let store = tokio::spawn(async move {
        d2.store(
            "global",
            "big",
            &big2,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
    });
    // Had the SQL run on this (only) thread, the store would have finished
    // within the first yield; on the blocking pool, this loop keeps
    // running while it works.
    let mut spins = 0_u32;
    while !store.is_finished() {
        tokio::task::yield_now().await;
        spins += 1;
    }
    store.await.unwrap().unwrap();
    assert!(spins >= 2, "the runtime thread was blocked ({spins} spins)");
    assert_eq!(
        d.get("global", "big").await.unwrap().unwrap().content.len(),
        big.len()
    );
}
