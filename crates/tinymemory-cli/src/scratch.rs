//! Where `run --driver sqlite` keeps its temporary corpus store.
//!
//! The check stores of `run --driver sqlite` are in memory
//! (`SqliteDriver::open_in_memory`, `driver/sqlite.rs`): no check of the
//! registry reopens a store or relies on its file, and a file per check
//! and per property case (828 in a run) cost the main job about 1 s of
//! system time on tmpfs (docs/benchmarks.md, "The main job under 1.5 s").
//! The SQLite crate's own tests run every check on files
//! (`tests/sqlite/conformance.rs`).
//!
//! The corpus store stays a file unless `sqlite:PATH` names one: without
//! a path it is created in the run's scratch directory, on `/dev/shm` (a
//! tmpfs: RAM, the same SQLite code paths, WAL and locking included) unless
//! the user chose a temporary directory with `TMPDIR`, and removed with
//! that directory when the run ends.

use std::path::{Path, PathBuf};

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
