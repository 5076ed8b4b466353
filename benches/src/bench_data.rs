//! Bench inputs kept between runs: big SQLite files under
//! `target/bench-data`, filled once.

use std::path::{Path, PathBuf};

/// The directory holding cached bench inputs: `$CARGO_TARGET_DIR/bench-data`,
/// else the workspace's `target/bench-data`. Deleting it only costs the
/// next run its fills.
#[must_use]
pub fn bench_data_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    );
    target.join("bench-data")
}

/// A temporary directory on tmpfs (`/dev/shm`, where `fsync` costs
/// nothing) when there is one, else the ordinary one.
///
/// # Panics
///
/// When no temporary directory can be made.
#[must_use]
pub fn memory_backed_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    };
    dir.unwrap_or_else(|e| panic!("failed to make a temporary directory: {e}"))
}

/// A temporary directory on the disk that holds `target/` (so commits wait
/// for the disk as a user's file would), under [`bench_data_dir`].
///
/// # Panics
///
/// When it cannot be made.
#[must_use]
pub fn disk_dir() -> tempfile::TempDir {
    let root = bench_data_dir();
    std::fs::create_dir_all(&root)
        .and_then(|()| tempfile::tempdir_in(&root))
        .unwrap_or_else(|e| panic!("failed to make a directory under {}: {e}", root.display()))
}
