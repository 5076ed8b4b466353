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

use tinymemory_api::MemoryError;
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

tinymemory_api::delegate_provider! {
    impl MemoryProvider for ScratchSqlite {
        forward(store): driver_id, store, get, forget, list, namespaces, recall, store_many,
            export_page, import, interface;
    }
}

#[cfg(test)]
mod tests {
    use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};

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
