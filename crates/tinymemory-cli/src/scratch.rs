//! Where `run --driver sqlite` keeps its scratch stores, and how each goes
//! away.
//!
//! A run opens a fresh SQLite file for every check and every property case
//! (828 files in a run of the standard registry). No check reopens one, so
//! they need no durability, yet on a disk their WAL commits and fsyncs
//! wrote 351 MB per run (docs/benchmarks.md). They are therefore kept on
//! `/dev/shm` (a tmpfs: RAM, the same SQLite code paths, WAL and locking
//! included) unless the user chose a temporary directory with `TMPDIR`,
//! and each file is removed as soon as its store is dropped.

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};
use tinymemory_sqlite::SqliteDriver;

/// The directory to create the run's scratch directory in: `TMPDIR` when
/// set, else `/dev/shm` when it is a writable directory, else the system's
/// temporary directory.
pub(crate) fn root() -> PathBuf {
    let shm = Path::new("/dev/shm");
    let writable = || {
        tempfile::Builder::new()
            .prefix(".tinymemory-probe-")
            .tempfile_in(shm)
            .is_ok()
    };
    if std::env::var_os("TMPDIR").is_none() && shm.is_dir() && writable() {
        shm.to_owned()
    } else {
        std::env::temp_dir()
    }
}

/// A SQLite store whose files (`PATH`, `PATH-wal`, `PATH-shm`) are removed
/// when it is dropped. Every method is the driver's own.
pub(crate) struct ScratchSqlite {
    store: SqliteDriver,
    path: PathBuf,
}

impl ScratchSqlite {
    /// Opens a fresh store at `path`.
    pub(crate) fn open(path: PathBuf) -> Result<Self, MemoryError> {
        Ok(Self {
            store: SqliteDriver::open(&path)?,
            path,
        })
    }
}

impl Drop for ScratchSqlite {
    fn drop(&mut self) {
        // Unlinking files a connection still holds is sound on Unix: the
        // space is freed when the last handle closes.
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut name = self.path.clone().into_os_string();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
    }
}

#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl MemoryProvider for ScratchSqlite {
    fn driver_id(&self) -> &str {
        self.store.driver_id()
    }

    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        category: MemoryCategory,
        session_id: Option<&str>,
        taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        self.store
            .store(namespace, key, content, category, session_id, taint)
            .await
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        self.store.get(namespace, key).await
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.store.forget(namespace, key).await
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.store.list(namespace, category, session_id).await
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        self.store.namespaces().await
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.store.recall(query, limit, opts).await
    }

    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        self.store.store_many(entries).await
    }

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        self.store.export_page(cursor, limit).await
    }

    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        self.store.import(records).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_dropped_store_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("check-0.db");
        let store = ScratchSqlite::open(path.clone()).unwrap();
        store
            .store(
                "global",
                "k",
                "text",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap();
        assert!(path.exists());
        drop(store);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 0, "{left:?}");
    }
}
