//! The on-disk schema: its version table, creation and migrations.
//!
//! Layout (version 1):
//!
//! - `tinymemory_schema(id = 1, version)`: one row, the schema version the
//!   file was last written with;
//! - `memory_entries`: one row per `(namespace, key)`, holding the entry as
//!   given (`content`, `category` and `taint` in their text forms,
//!   `session_id`, `timestamp`); its `id` (an `AUTOINCREMENT` rowid, never
//!   reused) is the entry id;
//! - `memory_fts`: an FTS5 table whose rowid is the entry id and whose one
//!   column holds [`index_text`](tinymemory_text::index_text) of the content.
//!   It keeps its own copy of that text (an ordinary FTS5 table, not a
//!   contentless one): FTS5 needs the indexed text to delete a row exactly,
//!   and a `contentless_delete=1` table, which does without it, does not
//!   take deleted rows out of the statistics `bm25` uses, so scores would
//!   drift with every replace and depend on the history of the data rather
//!   than on the data (measured; `tests/contract.rs` checks the scores
//!   after churn equal those of a fresh store bit for bit). Tokenizer:
//!   `unicode61 remove_diacritics 0 categories 'L* N* Co M*'` — combining
//!   marks (`M*`) are word characters, which Indic scripts need, and
//!   diacritics are kept, so a word matches only its own spelling (up to
//!   case), as in the reference driver.
//!
//! Opening checks the version first and refuses a file from a newer version
//! without writing to it. An older file is migrated step by step inside one
//! transaction.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use crate::error::{Context, Error};

/// The schema version this driver writes and reads. A file recording a
/// higher version is refused on open (with [`MemoryError::Backend`] naming
/// both versions) and left untouched.
///
/// [`MemoryError::Backend`]: tinymemory_api::MemoryError::Backend
pub const SCHEMA_VERSION: u32 = 1;

const CREATE_V1: &str = "
CREATE TABLE tinymemory_schema (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
CREATE TABLE memory_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    content TEXT NOT NULL,
    category TEXT NOT NULL,
    session_id TEXT,
    taint TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    UNIQUE (namespace, key)
);
CREATE VIRTUAL TABLE memory_fts USING fts5(
    body,
    tokenize = \"unicode61 remove_diacritics 0 categories 'L* N* Co M*'\"
);
";

/// The tables every file of the current version holds.
const TABLES: [&str; 2] = ["memory_entries", "memory_fts"];

/// Migrations from version `i + 1` to `i + 2`, in order. Empty while
/// version 1 is the only one; a future version appends its step here and
/// bumps [`SCHEMA_VERSION`].
const MIGRATIONS: &[&str] = &[];

const _: () = assert!(MIGRATIONS.len() + 1 == SCHEMA_VERSION as usize);

/// The version recorded in the file, or `None` for a file without
/// tinymemory tables (a new file, or one shared with other tables).
///
/// # Errors
///
/// [`Error::SchemaUnusable`] when the file has tinymemory tables but no
/// version, or a version table that is not one integer row.
pub(crate) fn stored_version(conn: &Connection) -> Result<Option<i64>, Error> {
    let has = |name: &str| -> Result<bool, Error> {
        conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?1)",
            [name],
            |r| r.get(0),
        )
        .context("read the schema")
    };
    if !has("tinymemory_schema")? {
        if has("memory_entries")? || has("memory_fts")? {
            return Err(Error::SchemaUnusable(
                "the file has tinymemory tables but no tinymemory_schema version table".into(),
            ));
        }
        return Ok(None);
    }
    let version: Option<rusqlite::types::Value> = conn
        .query_row(
            "SELECT version FROM tinymemory_schema WHERE id = 1",
            [],
            |r| r.get(0),
        )
        .optional()
        .context("read the schema version")?;
    match version {
        Some(rusqlite::types::Value::Integer(v)) => Ok(Some(v)),
        other => Err(Error::SchemaUnusable(format!(
            "tinymemory_schema holds {other:?} instead of one integer version"
        ))),
    }
}

/// Refuses a file whose recorded version is newer than [`SCHEMA_VERSION`]
/// (or not a version at all), reading only.
///
/// # Errors
///
/// [`Error::SchemaTooNew`] or [`Error::SchemaUnusable`].
pub(crate) fn check_supported(found: Option<i64>) -> Result<(), Error> {
    match found {
        None => Ok(()),
        Some(v) if v > i64::from(SCHEMA_VERSION) => Err(Error::SchemaTooNew {
            found: v,
            supported: SCHEMA_VERSION,
        }),
        Some(v) if v < 1 => Err(Error::SchemaUnusable(format!(
            "schema version {v} was never written by any tinymemory driver"
        ))),
        Some(_) => Ok(()),
    }
}

/// Creates the schema in a new file or migrates an older one to
/// [`SCHEMA_VERSION`], in one `IMMEDIATE` transaction (so two processes
/// opening the same new file do not both create it).
///
/// # Errors
///
/// What [`stored_version`] and [`check_supported`] return, and
/// [`Error::Sqlite`] when SQLite fails.
pub(crate) fn ensure(conn: &mut Connection) -> Result<(), Error> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .context("begin the schema transaction")?;
    let found = stored_version(&tx)?;
    check_supported(found)?;
    match found {
        None => {
            tx.execute_batch(CREATE_V1).context("create the schema")?;
            tx.execute(
                "INSERT INTO tinymemory_schema (id, version) VALUES (1, ?1)",
                [SCHEMA_VERSION],
            )
            .context("record the schema version")?;
        }
        Some(v) => {
            // `check_supported` bounds v to 1..=SCHEMA_VERSION.
            let from = usize::try_from(v - 1).unwrap_or(usize::MAX);
            for step in MIGRATIONS.iter().skip(from) {
                tx.execute_batch(step).context("migrate the schema")?;
            }
            if from < MIGRATIONS.len() {
                tx.execute(
                    "UPDATE tinymemory_schema SET version = ?1 WHERE id = 1",
                    [SCHEMA_VERSION],
                )
                .context("record the schema version")?;
            }
            // A recorded version promises its tables; a file that lost one
            // would open and then fail on every call, so refuse it here.
            for table in TABLES {
                let present: bool = tx
                    .query_row(
                        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?1)",
                        [table],
                        |r| r.get(0),
                    )
                    .context("read the schema")?;
                if !present {
                    return Err(Error::SchemaUnusable(format!(
                        "schema version {v} is recorded but table {table} is missing"
                    )));
                }
            }
        }
    }
    tx.commit().context("commit the schema transaction")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_file_gets_the_current_version() {
        let mut c = Connection::open_in_memory().unwrap();
        assert_eq!(stored_version(&c).unwrap(), None);
        ensure(&mut c).unwrap();
        assert_eq!(stored_version(&c).unwrap(), Some(i64::from(SCHEMA_VERSION)));
        // Idempotent.
        ensure(&mut c).unwrap();
        assert_eq!(stored_version(&c).unwrap(), Some(i64::from(SCHEMA_VERSION)));
    }

    #[test]
    fn newer_versions_are_refused_untouched() {
        let mut c = Connection::open_in_memory().unwrap();
        ensure(&mut c).unwrap();
        c.execute("UPDATE tinymemory_schema SET version = 7", [])
            .unwrap();
        let e = ensure(&mut c).unwrap_err();
        assert!(matches!(
            e,
            Error::SchemaTooNew {
                found: 7,
                supported: SCHEMA_VERSION
            }
        ));
        assert_eq!(stored_version(&c).unwrap(), Some(7));
    }

    #[test]
    fn a_versioned_file_missing_its_tables_is_refused() {
        for table in ["memory_fts", "memory_entries"] {
            let mut c = Connection::open_in_memory().unwrap();
            ensure(&mut c).unwrap();
            c.execute_batch(&format!("DROP TABLE {table}")).unwrap();
            match ensure(&mut c).unwrap_err() {
                Error::SchemaUnusable(m) => assert_eq!(
                    m,
                    format!("schema version 1 is recorded but table {table} is missing")
                ),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn bookkeeping_that_is_not_ours_is_refused() {
        let mut c = Connection::open_in_memory().unwrap();
        c.execute_batch("CREATE TABLE memory_entries (x)").unwrap();
        assert!(matches!(
            ensure(&mut c).unwrap_err(),
            Error::SchemaUnusable(_)
        ));

        let mut c = Connection::open_in_memory().unwrap();
        ensure(&mut c).unwrap();
        c.execute("UPDATE tinymemory_schema SET version = 'one'", [])
            .unwrap();
        assert!(matches!(
            ensure(&mut c).unwrap_err(),
            Error::SchemaUnusable(_)
        ));
        c.execute("UPDATE tinymemory_schema SET version = 0", [])
            .unwrap();
        assert!(matches!(
            ensure(&mut c).unwrap_err(),
            Error::SchemaUnusable(_)
        ));
    }
}
