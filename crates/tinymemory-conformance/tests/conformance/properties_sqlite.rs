//! Every check, one `#[test]` each, on the SQLite driver (in memory: a
//! fresh database per driver).

use tinymemory_sqlite::SqliteDriver;

tinymemory_conformance::conformance_tests!(sqlite, || Ok(
    Box::new(SqliteDriver::open_in_memory()?) as _
));
