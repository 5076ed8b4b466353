//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod corpus;
pub mod hit_rate;

use tempfile::TempDir;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};
use tinymemory_sqlite::SqliteDriver;

/// A driver under test and the directory that holds its file, if any.
pub struct Fixture {
    /// `memory` or `file`, for assertion messages.
    pub name: &'static str,
    pub driver: SqliteDriver,
    pub dir: Option<TempDir>,
}

/// A fresh in-memory driver and a fresh file-backed one.
pub fn fixtures() -> Vec<Fixture> {
    let dir = tempfile::tempdir().unwrap();
    let file = SqliteDriver::open(dir.path().join("memory.db")).unwrap();
    vec![
        Fixture {
            name: "memory",
            driver: SqliteDriver::open_in_memory().unwrap(),
            dir: None,
        },
        Fixture {
            name: "file",
            driver: file,
            dir: Some(dir),
        },
    ]
}

/// Stores `content` at `(ns, key)` as a core, internal, sessionless entry.
pub async fn put(d: &dyn MemoryProvider, ns: &str, key: &str, content: &str) {
    d.store(
        ns,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .unwrap();
}
