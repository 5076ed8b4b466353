//! The tables: their version, creation and migrations.
//!
//! Layout (version 1), all inside one PostgreSQL schema
//! ([`PostgresConfig::with_schema`](crate::PostgresConfig::with_schema),
//! `tinymemory` by default):
//!
//! - `tinymemory_schema(id = 1, version)`: one row, the layout version the
//!   schema was last written with;
//! - `memory_entries`: one row per `(namespace, key)`:
//!   - `id BIGINT` (an identity, never reused, kept when an entry is
//!     replaced) is the entry id;
//!   - `namespace TEXT COLLATE "C"`: namespaces are ASCII by the contract,
//!     and the `C` collation makes `=` and `ORDER BY` bytewise whatever the
//!     database's collation;
//!   - `key`, `content`, `category` (its text form) and `session_id` are
//!     `BYTEA` holding the UTF-8 bytes exactly as given: PostgreSQL `TEXT`
//!     cannot hold a NUL character, which the contract allows in all four,
//!     and `BYTEA` compares and orders bytewise, as Rust orders strings;
//!   - `taint` and `timestamp` are `TEXT` (their fixed text forms; the
//!     timestamp in `C` collation, so its maximum is the latest);
//!   - `body TSVECTOR`: the words of the content
//!     ([`crate::tsearch`]), with a GIN index for recall.
//!
//! Connecting takes a transaction-scoped advisory lock on the schema's name,
//! reads the version, and refuses a schema from a newer version without
//! writing anything. A missing schema is created; an older one is migrated
//! step by step in the same transaction.

use deadpool_postgres::Client;

use crate::error::{Context, Error};
use crate::sql::Sql;

/// The layout version this driver writes and reads. A schema recording a
/// higher version is refused on connect (with
/// [`MemoryError::Backend`](tinymemory_api::MemoryError::Backend) naming
/// both versions) and left untouched.
pub const SCHEMA_VERSION: u32 = 1;

/// Version 1, with `{s}` standing for the quoted schema name.
const CREATE_V1: &str = r#"
CREATE SCHEMA IF NOT EXISTS {s};
CREATE TABLE {s}.tinymemory_schema (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
CREATE TABLE {s}.memory_entries (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace TEXT COLLATE "C" NOT NULL,
    key BYTEA NOT NULL,
    content BYTEA NOT NULL,
    category BYTEA NOT NULL,
    session_id BYTEA,
    taint TEXT NOT NULL,
    timestamp TEXT COLLATE "C" NOT NULL,
    body TSVECTOR NOT NULL,
    UNIQUE (namespace, key)
);
CREATE INDEX memory_entries_body ON {s}.memory_entries USING GIN (body);
"#;

/// Migrations from version `i + 1` to `i + 2`, in order (`{s}` as above).
/// Empty while version 1 is the only one; a future version appends its step
/// here and bumps [`SCHEMA_VERSION`].
const MIGRATIONS: &[&str] = &[];

const _: () = assert!(MIGRATIONS.len() + 1 == SCHEMA_VERSION as usize);

/// The tables a tinymemory schema holds.
const TABLES: [&str; 2] = ["tinymemory_schema", "memory_entries"];

/// What connecting may do to the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Create a missing schema, migrate an older one.
    CreateOrMigrate,
    /// Only use a schema at [`SCHEMA_VERSION`] that already exists: for a
    /// store read as it is (a migration's source), which connecting must
    /// never create or rewrite.
    Existing,
}

/// Creates the tables in `sql`'s schema, or checks and migrates them, in one
/// transaction holding an advisory lock on the schema name (so two
/// processes connecting to a new schema at once do not both create it).
/// With [`Access::Existing`] it only checks.
///
/// # Errors
///
/// [`Error::SchemaTooNew`] or [`Error::SchemaUnusable`] (nothing written;
/// with [`Access::Existing`] also for a missing schema or one that needs
/// a migration), and [`Error::Postgres`] when the server fails.
pub(crate) async fn ensure(client: &mut Client, sql: &Sql, access: Access) -> Result<(), Error> {
    let tx = client
        .transaction()
        .await
        .context("begin the schema transaction")?;
    tx.execute(
        "SELECT pg_advisory_xact_lock(hashtext('tinymemory schema ' || $1::text))",
        &[&sql.schema()],
    )
    .await
    .context("lock the schema")?;
    let present: Vec<String> = tx
        .query(
            "SELECT tablename::text FROM pg_catalog.pg_tables
             WHERE schemaname = $1::text AND tablename::text = ANY($2::text[])",
            &[&sql.schema(), &TABLES.as_slice()],
        )
        .await
        .context("look for the tables")?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let found = if present.iter().any(|t| t == "tinymemory_schema") {
        Some(stored_version(&tx, sql).await?)
    } else if present.is_empty() {
        None
    } else {
        return Err(Error::SchemaUnusable {
            schema: sql.schema().to_owned(),
            message: "it has a memory_entries table but no tinymemory_schema version table".into(),
        });
    };
    check_supported(sql.schema(), found)?;
    if access == Access::Existing {
        return check_existing(sql.schema(), found);
    }
    match found {
        None => {
            tx.batch_execute(&sql.ddl(CREATE_V1))
                .await
                .context("create the schema")?;
            tx.execute(
                &format!(
                    "INSERT INTO {}.tinymemory_schema (id, version) VALUES (1, $1::integer)",
                    sql.quoted_schema()
                ),
                &[&version_i32()],
            )
            .await
            .context("record the schema version")?;
        }
        Some(v) => {
            // `check_supported` bounds v to 1..=SCHEMA_VERSION.
            let from = usize::try_from(v - 1).unwrap_or(usize::MAX);
            for step in MIGRATIONS.iter().skip(from) {
                tx.batch_execute(&sql.ddl(step))
                    .await
                    .context("migrate the schema")?;
            }
            if from < MIGRATIONS.len() {
                tx.execute(
                    &format!(
                        "UPDATE {}.tinymemory_schema SET version = $1::integer WHERE id = 1",
                        sql.quoted_schema()
                    ),
                    &[&version_i32()],
                )
                .await
                .context("record the schema version")?;
            }
        }
    }
    tx.commit().await.context("commit the schema transaction")
}

fn version_i32() -> i32 {
    i32::try_from(SCHEMA_VERSION).unwrap_or(i32::MAX)
}

/// The one version row, read as text so that a table of the right name but
/// the wrong shape is reported, not mis-read.
async fn stored_version(tx: &deadpool_postgres::Transaction<'_>, sql: &Sql) -> Result<i64, Error> {
    let rows = tx
        .query(
            &format!(
                "SELECT version::text FROM {}.tinymemory_schema",
                sql.quoted_schema()
            ),
            &[],
        )
        .await
        .context("read the schema version")?;
    let texts: Vec<Option<String>> = rows.iter().map(|r| r.get(0)).collect();
    match texts.as_slice() {
        [Some(t)] => t.parse::<i64>().map_err(|_| Error::SchemaUnusable {
            schema: sql.schema().to_owned(),
            message: format!("tinymemory_schema holds {t:?} instead of an integer version"),
        }),
        other => Err(Error::SchemaUnusable {
            schema: sql.schema().to_owned(),
            message: format!(
                "tinymemory_schema holds {} rows instead of one version",
                other.len()
            ),
        }),
    }
}

/// Refuses, for [`Access::Existing`], a schema that is missing or would
/// need a migration: both would be written by connecting.
fn check_existing(schema: &str, found: Option<i64>) -> Result<(), Error> {
    match found {
        Some(v) if v == i64::from(SCHEMA_VERSION) => Ok(()),
        Some(v) => Err(Error::SchemaUnusable {
            schema: schema.to_owned(),
            message: format!(
                "it has tinymemory schema version {v}, which only a read-write connection \
                 migrates (to {SCHEMA_VERSION}); this one must not write"
            ),
        }),
        None => Err(Error::SchemaUnusable {
            schema: schema.to_owned(),
            message: "it holds no tinymemory tables, and an existing store is never created \
                      (is this the right server and schema?)"
                .into(),
        }),
    }
}

/// Refuses a recorded version newer than [`SCHEMA_VERSION`], or one no
/// driver ever wrote.
fn check_supported(schema: &str, found: Option<i64>) -> Result<(), Error> {
    match found {
        None => Ok(()),
        Some(v) if v > i64::from(SCHEMA_VERSION) => Err(Error::SchemaTooNew {
            schema: schema.to_owned(),
            found: v,
            supported: SCHEMA_VERSION,
        }),
        Some(v) if v < 1 => Err(Error::SchemaUnusable {
            schema: schema.to_owned(),
            message: format!("schema version {v} was never written by any tinymemory driver"),
        }),
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_checked() {
        assert!(check_supported("s", None).is_ok());
        assert!(check_supported("s", Some(1)).is_ok());
        assert!(matches!(
            check_supported("s", Some(2)),
            Err(Error::SchemaTooNew {
                found: 2,
                supported: SCHEMA_VERSION,
                ..
            })
        ));
        assert!(matches!(
            check_supported("s", Some(0)),
            Err(Error::SchemaUnusable { .. })
        ));
    }
}
