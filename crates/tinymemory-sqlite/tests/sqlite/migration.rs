//! A version-1 file, written by the version-1 driver
//! (`tests/fixtures/v1.sqlite`, generated at commit ade13de by the test then
//! in `tests/v1_fixture.rs`), opens as version 2 with nothing lost; a
//! migration that fails leaves the file as it was.

use crate::common;

use std::path::{Path, PathBuf};

use common::put;
use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_sqlite::{SqliteDriver, SCHEMA_VERSION};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A copy of the v1 fixture in a fresh directory.
fn v1_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.sqlite");
    std::fs::copy(fixture("v1.sqlite"), &path).unwrap();
    (dir, path)
}

fn version(path: &Path) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row("SELECT version FROM tinymemory_schema", [], |r| r.get(0))
        .unwrap()
}

fn tables(path: &Path) -> Vec<String> {
    let c = rusqlite::Connection::open(path).unwrap();
    let mut stmt = c
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'memory%' ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn keys(hits: &[tinymemory_api::MemoryEntry]) -> Vec<&str> {
    hits.iter().map(|h| h.key.as_str()).collect()
}

fn pinned(ns: &str) -> RecallOptions {
    RecallOptions {
        namespace: Some(ns.to_owned()),
        ..RecallOptions::default()
    }
}

#[tokio::test]
async fn a_v1_file_migrates_to_v2_losing_nothing() {
    let (_dir, path) = v1_copy();
    assert_eq!(version(&path), 1);
    let sequence: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row(
            "SELECT seq FROM sqlite_sequence WHERE name = 'memory_entries'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // 13 inserts and two upserts, each of which drew a rowid in version 1.
    assert_eq!(sequence, 15);
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("v1.expected.json")).unwrap())
            .unwrap();

    let d = SqliteDriver::open(&path).unwrap();
    assert_eq!(
        serde_json::to_value(d.list(None, None, None).await.unwrap()).unwrap(),
        expected["list"]
    );
    assert_eq!(
        serde_json::to_value(d.namespaces().await.unwrap()).unwrap(),
        expected["namespaces"]
    );
    assert_eq!(expected["list"].as_array().unwrap().len(), 12);

    let opts = RecallOptions::default();
    assert_eq!(keys(&d.recall("café", 10, &opts).await.unwrap()), ["café"]);
    assert_eq!(
        keys(&d.recall("cafe", 10, &opts).await.unwrap()),
        [] as [&str; 0]
    );
    assert_eq!(
        keys(&d.recall("机器人", 10, &opts).await.unwrap()),
        ["robot"]
    );
    assert_eq!(keys(&d.recall("学", 10, &opts).await.unwrap()), ["robot"]);
    assert_eq!(
        keys(&d.recall("READ lock", 10, &opts).await.unwrap()),
        ["lock"]
    );
    let rust = pinned("learning:rust");
    assert_eq!(keys(&d.recall("ข้าว", 10, &rust).await.unwrap()), ["thai"]);
    assert_eq!(
        keys(&d.recall("テキスト", 10, &rust).await.unwrap()),
        ["日本"]
    );
    assert_eq!(
        keys(&d.recall("tokio", 10, &rust).await.unwrap()),
        ["async"]
    );
    let t1 = pinned("conversation:t1");
    assert_eq!(keys(&d.recall("नमस्ते", 10, &t1).await.unwrap()), ["hindi"]);
    assert_eq!(
        keys(&d.recall("بالعالم", 10, &t1).await.unwrap()),
        ["arabic"]
    );
    assert_eq!(
        keys(&d.recall("记忆 memory", 10, &t1).await.unwrap()),
        ["mixed"]
    );
    // The upserted entry is found by its last content only; the forgotten
    // one not at all.
    let notes = pinned("Notes");
    assert_eq!(
        keys(&d.recall("kept", 10, &notes).await.unwrap()),
        ["upserted"]
    );
    assert_eq!(
        keys(&d.recall("first second", 10, &notes).await.unwrap()),
        [] as [&str; 0]
    );
    let project = pinned("project:tinymemory");
    assert_eq!(
        keys(&d.recall("forgotten", 10, &project).await.unwrap()),
        [] as [&str; 0]
    );
    assert_eq!(
        keys(&d.recall("namespace", 10, &project).await.unwrap()),
        ["plan"]
    );

    // Ids are never reused: the next entry takes the next rowid.
    put(&d, "global", "new", "after the migration").await;
    assert_eq!(
        d.get("global", "new").await.unwrap().unwrap().id,
        (sequence + 1).to_string()
    );
    drop(d);
    assert_eq!(version(&path), i64::from(SCHEMA_VERSION));
    assert_eq!(
        tables(&path),
        ["memory_entries", "memory_namespaces", "memory_postings"]
    );

    // Reopening a migrated file changes nothing.
    let d = SqliteDriver::open(&path).unwrap();
    assert_eq!(d.list(None, None, None).await.unwrap().len(), 13);
}

#[tokio::test]
async fn a_failed_migration_leaves_the_v1_file_unchanged() {
    let (_dir, path) = v1_copy();
    // Content that is not UTF-8: version 1 never wrote it, so the
    // migration reads it, fails, and must roll back everything it did.
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute(
            "INSERT INTO memory_entries (namespace, key, content, category, session_id, taint, timestamp)
             VALUES ('zzz', 'broken', CAST(x'ff' AS TEXT), 'core', NULL, 'internal', '2026-01-01T00:00:00Z')",
            [],
        )
        .unwrap();
        c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let err = SqliteDriver::open(&path).unwrap_err();
    assert_eq!(err.kind(), "backend");
    let text = err.to_string();
    assert!(
        text.contains("an entry of this version 1 file cannot be read")
            && text.contains("the file was left at version 1"),
        "{text}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(version(&path), 1);
    assert_eq!(
        tables(&path),
        [
            "memory_entries",
            "memory_fts",
            "memory_fts_config",
            "memory_fts_content",
            "memory_fts_data",
            "memory_fts_docsize",
            "memory_fts_idx"
        ]
    );
}
