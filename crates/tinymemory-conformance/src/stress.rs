//! Load scenarios every driver's own tests run, so that the SQLite and
//! PostgreSQL drivers (and yours) share one scenario instead of copies.
//!
//! These are test helpers in the `object_store` style: they assert and
//! panic with a message naming the lost write, so they belong in a
//! `#[tokio::test(flavor = "multi_thread")]` of the driver's crate. The
//! registry's `store.concurrent_writes` check is the lighter, non-panicking
//! version that every conformance run includes.

use std::collections::BTreeMap;
use std::sync::Arc;

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};

const TASKS: usize = 16;
const WRITES: usize = 50;

/// 16 tokio tasks share one driver handle, each storing 50 entries into one
/// of 4 `conversation:t<n>` namespaces and reading every write back by
/// recall, listing and enumerating as they go; then each overwrites 10 of
/// its entries and forgets 5. Afterwards the store must hold exactly
/// 16 × 45 entries with the right counts, contents, sessions and recall
/// hits. Call it on an empty store, from a multi-threaded runtime.
///
/// # Panics
///
/// When any call fails (a `SQLITE_BUSY` that reached the caller, say) or
/// anything written is missing, duplicated or changed.
pub async fn sixteen_writers(driver: Arc<dyn MemoryProvider>) {
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
