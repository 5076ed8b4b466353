//! Many tasks writing and recalling through one file-backed handle lose
//! nothing and never see `SQLITE_BUSY`.

use std::sync::Arc;

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};
use tinymemory_sqlite::SqliteDriver;

/// The shared scenario (`tinymemory_conformance::stress::sixteen_writers`,
/// also run by the PostgreSQL driver) on one file-backed handle.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_tasks_write_and_recall_without_loss_or_busy() {
    let dir = tempfile::tempdir().unwrap();
    let driver = Arc::new(SqliteDriver::open(dir.path().join("busy.db")).unwrap());
    tinymemory_conformance::stress::sixteen_writers(driver).await;
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
