//! What returned `Ok` survives a reopen; a file from a newer schema version
//! is refused and left untouched.

use crate::common;

use common::put;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_sqlite::{SqliteDriver, SCHEMA_VERSION};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopening_keeps_everything_that_returned_ok() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("durable.db");
    let d = SqliteDriver::open(&path).unwrap();
    assert_eq!(d.path(), Some(path.as_path()));
    for i in 0..120 {
        let ns = ["global", "learning:rust", "conversation:t1"][i % 3];
        d.store(
            ns,
            &format!("k{i:03}"),
            &format!("entry number {i} about durable memory"),
            MemoryCategory::Custom(format!("c{}", i % 4)),
            (i % 2 == 0).then_some("session"),
            if i % 5 == 0 {
                MemoryTaint::ExternalSync
            } else {
                MemoryTaint::Internal
            },
        )
        .await
        .unwrap();
    }
    for i in (0..120).step_by(7) {
        let ns = ["global", "learning:rust", "conversation:t1"][i % 3];
        put(&d, ns, &format!("k{i:03}"), "rewritten content").await;
    }
    for i in (0..120).step_by(11) {
        let ns = ["global", "learning:rust", "conversation:t1"][i % 3];
        d.forget(ns, &format!("k{i:03}")).await.unwrap();
    }
    let listed = d.list(None, None, None).await.unwrap();
    let mut spaces = d.namespaces().await.unwrap();
    spaces.sort_by(|a, b| a.namespace.cmp(&b.namespace));
    let recalled = d
        .recall("durable", 200, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(listed.len(), 120 - 11);
    drop(d);

    let d = SqliteDriver::open(&path).unwrap();
    assert_eq!(d.list(None, None, None).await.unwrap(), listed);
    let mut again = d.namespaces().await.unwrap();
    again.sort_by(|a, b| a.namespace.cmp(&b.namespace));
    assert_eq!(again, spaces);
    let counts: Vec<(&str, u64)> = again
        .iter()
        .map(|s| (s.namespace.as_str(), s.count))
        .collect();
    // 40 each; forgotten every 11th: 4 global, 3 learning, 4 conversation.
    assert_eq!(
        counts,
        [
            ("conversation:t1", 36),
            ("global", 36),
            ("learning:rust", 37)
        ]
    );
    assert_eq!(
        d.recall("durable", 200, &RecallOptions::default())
            .await
            .unwrap(),
        recalled
    );
    assert_eq!(
        d.recall("rewritten", 200, &RecallOptions::default())
            .await
            .unwrap()
            .len(),
        5
    );
}

#[test]
fn a_newer_schema_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("future.db");
    drop(SqliteDriver::open(&path).unwrap());
    let future = i64::from(SCHEMA_VERSION) + 1;
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute("UPDATE tinymemory_schema SET version = ?1", [future])
        .unwrap();
    raw.execute_batch("CREATE TABLE from_the_future (x)")
        .unwrap();
    drop(raw);
    let before = std::fs::read(&path).unwrap();

    let e = SqliteDriver::open(&path).unwrap_err();
    assert_eq!(e.kind(), "backend");
    assert_eq!(
        e.to_string(),
        format!(
            "backend failure: {}: database schema version {future} is newer than the newest \
             this driver supports ({SCHEMA_VERSION}); refusing to open it rather than rewrite it",
            path.display()
        )
    );
    assert!(
        std::fs::read(&path).unwrap() == before,
        "the file was rewritten"
    );
    let raw = rusqlite::Connection::open(&path).unwrap();
    let v: i64 = raw
        .query_row("SELECT version FROM tinymemory_schema", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, future);
}

#[test]
fn a_file_that_is_not_a_database_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    let text = b"these are not the pages you are looking for\n".repeat(200);
    std::fs::write(&path, &text).unwrap();
    let e = SqliteDriver::open(&path).unwrap_err();
    assert_eq!(e.kind(), "backend");
    assert!(e.to_string().contains("notes.txt"), "{e}");
    assert!(std::fs::read(&path).unwrap() == text);
}

#[test]
fn a_missing_directory_is_a_backend_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing").join("m.db");
    let e = SqliteDriver::open(&path).unwrap_err();
    assert_eq!(e.kind(), "backend");
    assert!(e.to_string().contains("m.db"), "{e}");
}

#[tokio::test]
async fn a_file_shared_with_other_tables_is_usable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.db");
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "CREATE TABLE app_settings (k TEXT, v TEXT); INSERT INTO app_settings VALUES ('a', 'b');",
    )
    .unwrap();
    drop(raw);
    let d = SqliteDriver::open(&path).unwrap();
    put(&d, "global", "k", "v").await;
    drop(d);
    let raw = rusqlite::Connection::open(&path).unwrap();
    let n: i64 = raw
        .query_row("SELECT COUNT(*) FROM app_settings", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1);
}
