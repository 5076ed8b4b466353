//! Opening a database: connection flags, pragmas, the schema check.
//!
//! A file-backed database is opened as:
//!
//! 1. the writer connection (creating the file), with the busy timeout;
//! 2. a read-only look at the schema version, so a file from a newer
//!    version is refused before anything (even the journal mode) is written;
//! 3. `journal_mode = WAL` (persistent in the file) and
//!    `synchronous = FULL`, so a write that returned `Ok` survives a crash
//!    of the process and of the machine;
//! 4. schema creation or migration ([`schema::ensure`]);
//! 5. [`READERS`] reader connections with `query_only = 1`.
//!
//! Paths are taken literally: URI interpretation is off, so a `?` or `#`
//! in a file name is part of the name.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::error::{Context, Error};
use crate::pool::Connections;
use crate::schema;

/// How long one SQLite call waits for a lock held by another connection
/// (another driver on the same file, a checkpoint) before giving up with
/// `SQLITE_BUSY`, which the driver reports as
/// [`MemoryError::Unavailable`](tinymemory_api::MemoryError::Unavailable).
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Reader connections per file-backed driver.
pub(crate) const READERS: usize = 4;

/// Prepared statements kept per connection: more than the driver's
/// distinct statements (about 25), so none is prepared twice (rusqlite's
/// default of 16 would evict some on every store and recall).
const STATEMENT_CACHE: usize = 64;

/// Opens (creating if needed) the database file at `path`.
pub(crate) fn open_file(path: &Path) -> Result<Connections, Error> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut writer = Connection::open_with_flags(path, flags).context("open the database file")?;
    writer
        .busy_timeout(BUSY_TIMEOUT)
        .context("set the busy timeout")?;
    writer.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    schema::check_supported(schema::stored_version(&writer)?)?;

    let mode: String = writer
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .context("switch to WAL")?;
    if !mode.eq_ignore_ascii_case("wal") {
        tracing::warn!(
            path = %path.display(),
            journal_mode = %mode,
            "SQLite refused WAL mode; readers and the writer will take turns"
        );
    }
    writer
        .pragma_update(None, "synchronous", "FULL")
        .context("set synchronous = FULL")?;
    schema::ensure(&mut writer)?;

    let mut readers = Vec::with_capacity(READERS);
    for _ in 0..READERS {
        let r = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .context("open a reader connection")?;
        r.busy_timeout(BUSY_TIMEOUT)
            .context("set the busy timeout")?;
        r.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        r.pragma_update(None, "query_only", true)
            .context("make a reader query-only")?;
        readers.push(r);
    }
    tracing::debug!(path = %path.display(), journal_mode = %mode, "opened sqlite memory");
    Ok(Connections::new(writer, readers))
}

/// Opens a new, empty in-memory database (one connection).
pub(crate) fn open_memory() -> Result<Connections, Error> {
    let mut conn = Connection::open_in_memory().context("open an in-memory database")?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    schema::ensure(&mut conn)?;
    Ok(Connections::new(conn, Vec::new()))
}
