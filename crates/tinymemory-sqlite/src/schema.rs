//! The on-disk schema: its version table, creation and migrations.
//!
//! Layout (version 2):
//!
//! - `tinymemory_schema(id = 1, version)`: one row, the schema version the
//!   file was last written with;
//! - `memory_entries`: one row per `(namespace, key)`, holding the entry as
//!   given (`content`, `category` and `taint` in their text forms,
//!   `session_id`, `timestamp`), plus `terms`, its distinct index terms
//!   joined by spaces, and `length`, its length in tokens; its `id` (an
//!   `AUTOINCREMENT` rowid, never reused) is the entry id;
//! - `memory_namespaces(id, name, entries, tokens)`: one row per non-empty
//!   namespace with its entry count and total length, BM25's `N` and
//!   `avgdl` for that namespace;
//! - `memory_postings(ns, term, entry, length, positions)`, primary key
//!   `(ns, term, entry)`, `WITHOUT ROWID`: the inverted index, one row per
//!   (namespace, term, entry holding it), with the entry's length and the
//!   term's positions ([`crate::index`]). A recall reads only its
//!   namespace's rows of its terms ([`crate::recall`]).
//!
//! Version 1 kept an FTS5 table (`memory_fts`) whose `bm25()` used
//! statistics of the whole file, so one namespace's entries changed
//! another's scores, and whose matches were joined to the namespace only
//! after scoring the whole index, so a recall cost what the file held.
//! Migrating from it ([`migrate_1_to_2`]) adds the two columns and the two
//! tables, indexes every entry from its content, and drops `memory_fts`,
//! inside the one transaction of [`ensure`]: a failure leaves the file as
//! version 1, and ids, timestamps and every other field are kept.
//!
//! Opening checks the version first and refuses a file from a newer version
//! without writing to it.

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior};

use crate::error::{Context, Error};
use crate::index::Document;
use crate::write::insert_postings;

/// The schema version this driver writes and reads. A file recording a
/// higher version is refused on open (with [`MemoryError::Backend`] naming
/// both versions) and left untouched; a version-1 file is migrated.
///
/// [`MemoryError::Backend`]: tinymemory_api::MemoryError::Backend
pub const SCHEMA_VERSION: u32 = 2;

const CREATE_V2: &str = "
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
    terms TEXT NOT NULL DEFAULT '',
    length INTEGER NOT NULL DEFAULT 0,
    UNIQUE (namespace, key)
);
CREATE TABLE memory_namespaces (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    entries INTEGER NOT NULL,
    tokens INTEGER NOT NULL
);
CREATE TABLE memory_postings (
    ns INTEGER NOT NULL,
    term TEXT NOT NULL,
    entry INTEGER NOT NULL,
    length INTEGER NOT NULL,
    positions BLOB NOT NULL,
    PRIMARY KEY (ns, term, entry)
) WITHOUT ROWID;
";

/// The tables every file of the current version holds.
const TABLES: [&str; 3] = ["memory_entries", "memory_namespaces", "memory_postings"];

/// The tables any version of this driver ever created (besides the version
/// table): a file holding one but no version table is not ours to touch.
const ANY_VERSION_TABLES: [&str; 4] = [
    "memory_entries",
    "memory_fts",
    "memory_namespaces",
    "memory_postings",
];

/// A step from version `i + 1` to `i + 2`, run inside the schema
/// transaction.
type Migration = fn(&Transaction<'_>) -> Result<(), Error>;

/// Migrations from version `i + 1` to `i + 2`, in order.
const MIGRATIONS: &[Migration] = &[migrate_1_to_2];

const _: () = assert!(MIGRATIONS.len() + 1 == SCHEMA_VERSION as usize);

/// Entries indexed per read while migrating, so a large file is not read
/// into memory at once.
const MIGRATION_BATCH: i64 = 1000;

/// Version 1 to 2: the inverted index with per-namespace statistics,
/// built from every entry's content, replacing `memory_fts`.
///
/// # Errors
///
/// [`Error::Sqlite`] when SQLite fails, [`Error::SchemaUnusable`] when a
/// row cannot be read as version 1 wrote it; the caller's transaction is
/// then rolled back, leaving the file at version 1.
fn migrate_1_to_2(tx: &Transaction<'_>) -> Result<(), Error> {
    tx.execute_batch(
        "ALTER TABLE memory_entries ADD COLUMN terms TEXT NOT NULL DEFAULT '';
         ALTER TABLE memory_entries ADD COLUMN length INTEGER NOT NULL DEFAULT 0;
         CREATE TABLE memory_namespaces (
             id INTEGER PRIMARY KEY,
             name TEXT NOT NULL UNIQUE,
             entries INTEGER NOT NULL,
             tokens INTEGER NOT NULL
         );
         CREATE TABLE memory_postings (
             ns INTEGER NOT NULL,
             term TEXT NOT NULL,
             entry INTEGER NOT NULL,
             length INTEGER NOT NULL,
             positions BLOB NOT NULL,
             PRIMARY KEY (ns, term, entry)
         ) WITHOUT ROWID;",
    )
    .context("create the version 2 tables")?;
    let mut after = i64::MIN;
    loop {
        let batch: Vec<(i64, String, String)> = tx
            .prepare(
                "SELECT id, namespace, content FROM memory_entries
                 WHERE id > ?1 ORDER BY id LIMIT ?2",
            )
            .context("prepare the migration read")?
            .query_map([after, MIGRATION_BATCH], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .context("read entries to migrate")?
            .collect::<Result<_, _>>()
            .map_err(|e| {
                Error::SchemaUnusable(format!(
                    "an entry of this version 1 file cannot be read ({e}); \
                     the file was left at version 1"
                ))
            })?;
        let Some(last) = batch.last() else {
            break;
        };
        after = last.0;
        for (id, namespace, content) in &batch {
            let doc = Document::of(content);
            let ns: i64 = tx
                .prepare_cached(
                    "INSERT INTO memory_namespaces (name, entries, tokens) VALUES (?1, 1, ?2)
                     ON CONFLICT (name) DO UPDATE SET
                         entries = entries + 1, tokens = tokens + excluded.tokens
                     RETURNING id",
                )
                .context("prepare the namespace statistics")?
                .query_row(rusqlite::params![namespace, doc.length], |r| r.get(0))
                .context("count a namespace")?;
            tx.prepare_cached("UPDATE memory_entries SET terms = ?2, length = ?3 WHERE id = ?1")
                .context("prepare the entry update")?
                .execute(rusqlite::params![id, doc.term_list(), doc.length])
                .context("record an entry's terms")?;
            insert_postings(tx, ns, *id, &doc)?;
        }
    }
    tx.execute_batch("DROP TABLE memory_fts")
        .context("drop the version 1 index")
}

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
        if ANY_VERSION_TABLES
            .iter()
            .map(|t| has(t))
            .collect::<Result<Vec<_>, _>>()?
            .contains(&true)
        {
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
/// `timestamp` is spelt as `now_rfc3339` spells it: the SQL form of
/// [`tinymemory_api::is_canonical_timestamp`] for a valid timestamp. Among
/// such timestamps `MAX` is the newest; only imports bring others.
pub(crate) const CANONICAL: &str = "length(timestamp) = 27 AND substr(timestamp, 11, 1) = 'T' \
     AND substr(timestamp, 20, 1) = '.' AND substr(timestamp, 27, 1) = 'Z'";

/// A partial index of the entries whose timestamp is spelt otherwise
/// (rare: imported ones), so `namespaces()` finds them without testing
/// every row. An index changes no table, so it is created on any file of
/// the current version, and older code opening the file keeps it up to
/// date as SQLite keeps every index.
fn other_spellings_index() -> String {
    format!(
        "CREATE INDEX IF NOT EXISTS memory_entries_other_spellings
             ON memory_entries (namespace, timestamp) WHERE NOT ({CANONICAL})"
    )
}

pub(crate) fn ensure(conn: &mut Connection) -> Result<(), Error> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .context("begin the schema transaction")?;
    let found = stored_version(&tx)?;
    check_supported(found)?;
    match found {
        None => {
            tx.execute_batch(CREATE_V2).context("create the schema")?;
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
                step(&tx)?;
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
    tx.execute_batch(&other_spellings_index())
        .context("create the index of other timestamp spellings")?;
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
        for table in TABLES {
            let mut c = Connection::open_in_memory().unwrap();
            ensure(&mut c).unwrap();
            c.execute_batch(&format!("DROP TABLE {table}")).unwrap();
            match ensure(&mut c).unwrap_err() {
                Error::SchemaUnusable(m) => assert_eq!(
                    m,
                    format!("schema version 2 is recorded but table {table} is missing")
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
