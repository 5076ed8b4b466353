//! The standard checks on the SQLite driver, run as any Rust driver's own
//! tests run them: `conformance_tests!`, one `#[test]` per check
//! (`conformance::sqlite::recall_limit`). Each store is a database file of
//! its own in a temporary directory of the test (so the checks exercise the
//! file-backed path, WAL included), removed when the test ends. No corpus:
//! its two checks skip here, and CI runs them on this driver through the
//! CLI (`run --driver sqlite --corpus fixtures/corpora`), where loading the
//! corpus once serves both.
//!
//! `TINYMEMORY_CASES=5000 cargo test -p tinymemory-sqlite --test sqlite
//! conformance::` runs the property checks on more cases than the 8 below.

use std::sync::atomic::{AtomicU64, Ordering};

use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_conformance::RunConfig;
use tinymemory_sqlite::SqliteDriver;

/// Opens a fresh database file per call, in a temporary directory that
/// lives as long as the returned factory (one test's harness).
fn in_temp_dir() -> impl Fn() -> Result<Box<dyn MemoryProvider>, MemoryError> + Send + Sync {
    let dir = tempfile::tempdir().expect("a temporary directory for the test's databases");
    let next = AtomicU64::new(0);
    move || {
        let n = next.fetch_add(1, Ordering::Relaxed);
        let path = dir.path().join(format!("store-{n}.db"));
        Ok(Box::new(SqliteDriver::open(path)?) as _)
    }
}

// 8 cases per property check, not the default 64: a case opens fresh
// database files, which makes 64 cost 23 s here, and CI runs this driver
// at the default through the CLI (`run --driver sqlite`) anyway.
tinymemory_conformance::conformance_tests!(
    sqlite,
    in_temp_dir(),
    config = RunConfig {
        cases: 8,
        ..RunConfig::default()
    },
);
