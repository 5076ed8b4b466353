//! `SqliteDriver::open_read_only`, a migration's source: a current file
//! opens and reads, writes fail, an empty import is no write, and every
//! other file is refused with its own reason, its bytes untouched.

use crate::common;

use std::path::{Path, PathBuf};

use common::put;
use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_sqlite::SqliteDriver;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A current (version 2) file holding two entries, closed.
async fn current(dir: &Path) -> PathBuf {
    let path = dir.join("current.sqlite");
    let d = SqliteDriver::open(&path).unwrap();
    put(&d, "learning:a", "k1", "read only is enough").await;
    put(&d, "global", "k2", "another entry").await;
    path
}

fn sql(path: &Path, script: &str) {
    rusqlite::Connection::open(path)
        .unwrap()
        .execute_batch(script)
        .unwrap();
}

/// The error `open_read_only` gives for `path`: its kind and message.
fn refusal(path: &Path) -> (String, String) {
    let e = SqliteDriver::open_read_only(path)
        .map(|_| ())
        .expect_err("the file was opened");
    (e.kind().to_owned(), e.to_string())
}

#[tokio::test]
async fn a_current_file_reads_and_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = current(dir.path()).await;
    let before = std::fs::read(&path).unwrap();
    let d = SqliteDriver::open_read_only(&path).unwrap();
    let got = d.get("learning:a", "k1").await.unwrap().unwrap();
    assert_eq!(got.content, "read only is enough");
    let counts: Vec<(String, u64)> = d
        .namespaces()
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    assert_eq!(
        counts,
        [("global".to_owned(), 1), ("learning:a".to_owned(), 1)]
    );
    let hits = d
        .recall("enough", 5, &RecallOptions::in_namespace("learning:a"))
        .await
        .unwrap();
    assert_eq!(hits.len(), 1);
    let page = d.export_page(None, 10).await.unwrap();
    assert_eq!(page.records.len(), 2);
    // An import with nothing to write is no write: it succeeds.
    let outcome = d.import(&[]).await.unwrap();
    assert_eq!((outcome.imported, outcome.failures.len()), (0, 0));
    let e = d
        .store(
            "global",
            "k3",
            "refused",
            tinymemory_api::MemoryCategory::Core,
            None,
            tinymemory_api::MemoryTaint::Internal,
        )
        .await
        .unwrap_err();
    assert_eq!(e.kind(), "backend");
    assert!(e.to_string().contains("readonly database"), "{e}");
    drop(d);
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file changed");
}

#[tokio::test]
async fn other_files_are_refused_each_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();

    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    let (kind, message) = refusal(&empty);
    assert_eq!(kind, "backend");
    assert!(
        message.ends_with("the file is empty (0 bytes): it is not a tinymemory store"),
        "{message}"
    );

    let foreign = dir.path().join("foreign.sqlite");
    sql(&foreign, "CREATE TABLE notes (body TEXT)");
    let (_, message) = refusal(&foreign);
    assert!(
        message.ends_with("the file has no tinymemory_schema table: it is not a tinymemory store"),
        "{message}"
    );

    let v1 = dir.path().join("v1.sqlite");
    std::fs::copy(fixture("v1.sqlite"), &v1).unwrap();
    let v1_bytes = std::fs::read(&v1).unwrap();
    let (_, message) = refusal(&v1);
    assert!(
        message.ends_with(
            "schema version 1: open it once with a write to migrate it to version 2, or copy it \
             first; it is read only here, and reading it needs that migration"
        ),
        "{message}"
    );
    assert_eq!(std::fs::read(&v1).unwrap(), v1_bytes, "the v1 file changed");

    for (version, reason) in [
        (
            0,
            "schema version 0 was never written by any tinymemory driver".to_owned(),
        ),
        (
            -3,
            "schema version -3 was never written by any tinymemory driver".to_owned(),
        ),
        (
            3,
            "database schema version 3 is newer than the newest this driver supports (2); \
             refusing to open it rather than rewrite it"
                .to_owned(),
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = current(dir.path()).await;
        sql(
            &path,
            &format!("UPDATE tinymemory_schema SET version = {version}"),
        );
        let (_, message) = refusal(&path);
        assert!(message.ends_with(&reason), "version {version}: {message}");
        // The read-write open refuses the same files, writing nothing.
        let e = SqliteDriver::open(&path).map(|_| ()).unwrap_err();
        assert!(e.to_string().ends_with(&reason), "version {version}: {e}");
    }

    let dir = tempfile::tempdir().unwrap();
    let path = current(dir.path()).await;
    sql(&path, "DROP TABLE memory_postings");
    let (_, message) = refusal(&path);
    assert!(
        message.ends_with("schema version 2 is recorded but table memory_postings is missing"),
        "{message}"
    );
}
