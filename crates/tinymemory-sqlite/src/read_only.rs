//! Opening an existing file for reading only, as a migration's source: the
//! file is never created, its schema never created or migrated, its journal
//! mode never switched.
//!
//! Every connection is opened with `SQLITE_OPEN_READ_ONLY` and
//! `query_only = 1`, so a write reaches SQLite as "attempt to write a
//! readonly database" and the file's bytes stay as they were. The checks
//! run before any entry is read:
//!
//! - a 0-byte file is refused (SQLite would take it for an empty database);
//! - a file without the `tinymemory_schema` table is refused (another
//!   program's database, or one no driver has opened yet);
//! - a version-1 file is refused: reading it needs the migration to
//!   version 2, which writes, and the file is not to be written here;
//! - a newer version, or a version whose tables are missing, as
//!   [`crate::SqliteDriver::open`] refuses them.
//!
//! A file in WAL mode is read with its `-wal` file, so a write another
//! process committed but did not checkpoint is seen. SQLite (3.22 and
//! later) opens a WAL file read-only when its `-shm` and `-wal` exist or
//! can be created, which it then does beside the file; in a directory this
//! process cannot write, a WAL file whose `-shm` is missing fails to open
//! (`SQLITE_CANTOPEN`). A file in rollback-journal mode needs neither.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::error::{Context, Error};
use crate::open::READERS;
use crate::pool::Connections;
use crate::schema::{self, SCHEMA_VERSION};

/// Opens the existing tinymemory file at `path` for reading only.
///
/// # Errors
///
/// [`Error::SchemaUnusable`] naming the reason for an empty file, a file
/// without the version table, a version-1 file, or missing tables;
/// [`Error::SchemaTooNew`] for a newer version; [`Error::Sqlite`] when
/// SQLite cannot open or read the file (missing, not a database).
pub(crate) fn open_read_only(path: &Path) -> Result<Connections, Error> {
    let len = std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| Error::SchemaUnusable(format!("the file cannot be read ({e})")))?;
    if len == 0 {
        return Err(Error::SchemaUnusable(
            "the file is empty (0 bytes): it is not a tinymemory store".into(),
        ));
    }
    let writer = connect(path)?;
    match schema::stored_version(&writer)? {
        None => {
            return Err(Error::SchemaUnusable(
                "the file has no tinymemory_schema table: it is not a tinymemory store".into(),
            ))
        }
        Some(v) if v < i64::from(SCHEMA_VERSION) && v >= 1 => {
            return Err(Error::SchemaUnusable(format!(
                "schema version {v}: open it once with a write to migrate it to version \
                 {SCHEMA_VERSION}, or copy it first; it is read only here, and reading it \
                 needs that migration"
            )))
        }
        found => schema::check_supported(found)?,
    }
    for table in TABLES {
        let present: bool = writer
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?1)",
                [table],
                |r| r.get(0),
            )
            .context("read the schema")?;
        if !present {
            return Err(Error::SchemaUnusable(format!(
                "schema version {SCHEMA_VERSION} is recorded but table {table} is missing"
            )));
        }
    }
    let mut readers = Vec::with_capacity(READERS);
    for _ in 0..READERS {
        readers.push(connect(path)?);
    }
    tracing::debug!(path = %path.display(), "opened sqlite memory read-only");
    Ok(Connections::new(writer, readers))
}

/// The tables a version-2 file holds besides the version table (as
/// `schema::ensure` checks them).
const TABLES: [&str; 3] = ["memory_entries", "memory_namespaces", "memory_postings"];

/// As `open::STATEMENT_CACHE`: more than the driver's distinct statements.
const STATEMENT_CACHE: usize = 64;

fn connect(path: &Path) -> Result<Connection, Error> {
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .context("open the database file read-only")?;
    c.busy_timeout(crate::BUSY_TIMEOUT)
        .context("set the busy timeout")?;
    c.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    c.pragma_update(None, "query_only", true)
        .context("make a connection query-only")?;
    Ok(c)
}
