//! Many tasks writing and recalling through one handle, and through
//! several handles on one schema, lose nothing; racing upserts of one key
//! leave one entry.

use std::collections::BTreeMap;
use std::sync::Arc;

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_postgres::PostgresDriver;

use crate::common::{factory_or_skip, fresh};

const TASKS: usize = 16;
const WRITES: usize = 50;

/// The SQLite driver's concurrency scenario (its
/// `sixteen_tasks_write_and_recall_without_loss_or_busy`), over any
/// driver: 16 tasks store 50 entries each in 4 namespaces, reading each
/// write back by recall, then overwrite 10 and forget 5 of their own.
async fn sixteen_tasks_write_and_recall(driver: Arc<dyn MemoryProvider>) {
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
                // Read your own write, on any pooled connection.
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
async fn sixteen_tasks_write_and_recall_without_loss() {
    let factory = factory_or_skip!("concurrency::sixteen_tasks_write_and_recall_without_loss");
    sixteen_tasks_write_and_recall(Arc::new(fresh(&factory).await)).await;
    factory.cleanup().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_pools_on_one_schema_see_each_others_writes() {
    let factory = factory_or_skip!("concurrency::two_pools_on_one_schema_see_each_others_writes");
    let a = fresh(&factory).await;
    let config = crate::common::config("concurrency").unwrap();
    let b = PostgresDriver::connect_with(&config.with_schema(a.schema()).unwrap())
        .await
        .unwrap();
    let mut handles = Vec::new();
    for (name, d) in [("a", a.clone()), ("b", b.clone())] {
        for t in 0..4 {
            let d = d.clone();
            handles.push(tokio::spawn(async move {
                for i in 0..25 {
                    d.store(
                        "global",
                        &format!("{name}{t}-{i}"),
                        "from two pools",
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
    factory.cleanup().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_upserts_of_one_key_leave_one_entry() {
    let factory = factory_or_skip!("concurrency::racing_upserts_of_one_key_leave_one_entry");
    let d = fresh(&factory).await;
    let mut handles = Vec::new();
    for t in 0..16 {
        let d = d.clone();
        handles.push(tokio::spawn(async move {
            for i in 0..10 {
                d.store(
                    "global",
                    "contended",
                    &format!("writer {t} round {i}"),
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await
                .unwrap();
            }
        }));
    }
    for h in handles {
        h.await.unwrap();
    }
    let listed = d.list(None, None, None).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(
        listed[0].content.ends_with("round 9"),
        "{}",
        listed[0].content
    );
    let hits = d
        .recall("writer", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].content, listed[0].content, "index and row agree");
    factory.cleanup().await.unwrap();
}
