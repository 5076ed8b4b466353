//! Many tasks writing and recalling through one handle, and through
//! several handles on one schema, lose nothing; racing upserts of one key
//! leave one entry.

use std::sync::Arc;

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_postgres::PostgresDriver;

use crate::common::{factory_or_skip, fresh};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixteen_tasks_write_and_recall_without_loss() {
    let factory = factory_or_skip!("concurrency::sixteen_tasks_write_and_recall_without_loss");
    tinymemory_conformance::stress::sixteen_writers(Arc::new(fresh(&factory).await)).await;
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
