//! [`SqliteDriver`]: validation, then the SQL on the calling thread within
//! a budget, or on Tokio's blocking pool.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::Connection;
use tinymemory_api::batch::{validate_batch, NewEntry};
use tinymemory_api::portability::{
    validate_record, ExportCursor, ExportPage, ImportFailure, ImportOutcome, KeysetCursor,
    MemoryRecord,
};
use tinymemory_api::{
    validate_key, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace,
    NamespaceSummary, RecallOptions,
};

use crate::error::Error;
use crate::index::Document;
use crate::ops::{self, Timestamps};
use crate::pool::Connections;
use crate::query::phrases;
use crate::recall::{self, RecallQuery};
use crate::write::Write;
use crate::{open, DRIVER_ID};

/// How long a read (`recall`, `get`, `namespaces`, `list`, an export
/// page) may run SQLite on the calling thread before it is interrupted
/// there and run again on Tokio's blocking pool: 200 µs.
///
/// The hop to the blocking pool and back costs two thread wake-ups,
/// about 20 µs on a two-core virtual machine, as much as the SQL of a
/// recall of a rare word. Under the budget, a read costs no hop; over it,
/// the budget is lost once. 200 µs covers a recall of `what is the` in a
/// namespace of 1,000 entries on a quiet machine (about 100 µs, hop
/// included: `docs/benchmarks.md`, `sqlite_recall`); the budget is wall
/// time, so on a loaded machine more reads overrun it and fall back.
/// Tokio asks for no more than 10 to 100 µs between two `.await`s, so a
/// task sharing the thread may wait up to about twice that.
pub const INLINE_READ_BUDGET: Duration = Duration::from_micros(200);

/// How long a write (`store`, `store_many`, `forget`, `import`) to an
/// in-memory database may run SQLite on the calling thread before it is
/// interrupted there, rolled back whole and run again on Tokio's blocking
/// pool: 200 µs, as for a read.
///
/// A `store` of one short entry costs an in-memory database some tens of
/// microseconds (`docs/benchmarks.md`, `sqlite_memory`), about what the
/// hop to the blocking pool and back costs, so the hop was half of each
/// write. A file's writes always take the hop:
/// their commit waits for `fsync`, which cannot be interrupted.
pub const INLINE_WRITE_BUDGET: Duration = Duration::from_micros(200);

/// The most content (bytes, summed over the entries) a write to an
/// in-memory database tokenises on the calling thread before its budgeted
/// SQL: 16 KiB, some tens of microseconds of tokenising. A larger write is
/// tokenised and run on the blocking pool, as a file's are.
pub const INLINE_WRITE_BYTES: usize = 16 * 1024;

/// The SQLite [`MemoryProvider`]: entries in tables, recall by the driver's own
/// word index (schema version 2; version 1 used FTS5).
///
/// A handle to one database, file-backed ([`SqliteDriver::open`]) or
/// in-memory ([`SqliteDriver::open_in_memory`]). Clones are cheap and share
/// the same connections; the database closes when the last clone drops.
/// See the [crate documentation](crate) for the storage layout, scoring,
/// tokenisation, concurrency and durability.
///
/// # Blocking
///
/// Every call runs its SQL on Tokio's blocking pool
/// ([`tokio::task::spawn_blocking`]) when called inside a Tokio runtime, so
/// it never stalls the runtime's worker threads for long; outside a
/// runtime the SQL runs on the calling thread. Except:
///
/// - a read (`recall`, `get`, `namespaces`, `list`, `export_page`) first
///   runs on the calling thread when a reader connection is idle, and
///   SQLite interrupts it there once it has run for [`INLINE_READ_BUDGET`]
///   (200 µs) or meets a lock;
/// - on an in-memory database, a write (`store`, `store_many`, `forget`,
///   `import`) of at most [`INLINE_WRITE_BYTES`] of content first runs on
///   the calling thread when the connection is free, and SQLite
///   interrupts it there once it has run for [`INLINE_WRITE_BUDGET`]
///   (200 µs).
///
/// An interrupted call is rolled back whole and run again on the blocking
/// pool, so its result is the same either way. Dropping a call's future
/// does not cancel SQL already on the blocking pool: a `store` whose future
/// was dropped may still commit.
#[derive(Clone)]
pub struct SqliteDriver {
    conns: Arc<Connections>,
    path: Option<PathBuf>,
}

impl SqliteDriver {
    /// Opens the database file at `path`, creating it (and its schema) when
    /// it does not exist, in WAL mode with `synchronous = FULL`. The names
    /// SQLite gives to private databases, `:memory:` and the empty path,
    /// open a new in-memory database, as [`SqliteDriver::open_in_memory`].
    ///
    /// This blocks while SQLite opens the file and checks or creates the
    /// schema; inside an async task, call it through
    /// [`tokio::task::spawn_blocking`] if that may be slow.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when the file cannot be opened or created
    /// (missing directory, no permission, not a database), when it records a
    /// schema version newer than [`SCHEMA_VERSION`](crate::SCHEMA_VERSION)
    /// (the message names both versions, and the file is left untouched), or
    /// when its tinymemory tables are not ones this driver wrote.
    /// [`MemoryError::Unavailable`] when another connection holds the file
    /// locked for longer than [`BUSY_TIMEOUT`](crate::BUSY_TIMEOUT).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, MemoryError> {
        let path = path.as_ref();
        // SQLite reads these two names as a database private to one
        // connection, which a pool of connections cannot share: each would
        // see its own empty database. They mean "in memory" here.
        if path.as_os_str() == ":memory:" || path.as_os_str().is_empty() {
            return Self::open_in_memory();
        }
        let conns = open::open_file(path).map_err(|e| with_path(e, path))?;
        Ok(Self {
            conns: Arc::new(conns),
            path: Some(path.to_owned()),
        })
    }

    /// Opens the existing tinymemory file at `path` for reading only: it is
    /// never created, its schema never created or migrated, its journal
    /// mode never changed, and every write fails with
    /// [`MemoryError::Backend`] ("attempt to write a readonly database").
    /// Used for a migration's source; a file the process may not write
    /// (mode 0444) opens too. A WAL file is read with its `-wal`: SQLite
    /// creates the `-wal` and `-shm` beside it when missing, and fails in a
    /// directory it cannot write to.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] naming the reason for an empty (0-byte)
    /// file, a file without the `tinymemory_schema` table (not a tinymemory
    /// store), a version-1 file (reading it needs the migration to version
    /// 2, which writes), a newer version, or missing tables, and when
    /// SQLite cannot open or read it (missing, not a database). Each
    /// message starts with the path.
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Self, MemoryError> {
        let path = path.as_ref();
        let conns = crate::read_only::open_read_only(path).map_err(|e| with_path(e, path))?;
        Ok(Self {
            conns: Arc::new(conns),
            path: Some(path.to_owned()),
        })
    }

    /// Opens a new, empty database held in memory by one connection. Every
    /// handle opened this way is its own database; nothing survives the
    /// last clone's drop.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when SQLite cannot allocate the database or
    /// create the schema (out of memory).
    pub fn open_in_memory() -> Result<Self, MemoryError> {
        Ok(Self {
            conns: Arc::new(open::open_memory()?),
            path: None,
        })
    }

    /// The database file, or `None` for an in-memory database.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Runs `f` with the connections, on the blocking pool when inside a
    /// Tokio runtime.
    async fn run<T, F>(&self, context: &'static str, f: F) -> Result<T, MemoryError>
    where
        T: Send + 'static,
        F: FnOnce(&Connections) -> Result<T, Error> + Send + 'static,
    {
        let conns = Arc::clone(&self.conns);
        let result = match tokio::runtime::Handle::try_current() {
            Ok(handle) => handle
                .spawn_blocking(move || f(&conns))
                .await
                .unwrap_or_else(|join| {
                    Err(Error::Task {
                        context,
                        message: join.to_string(),
                    })
                }),
            Err(_) => f(&conns),
        };
        result.map_err(MemoryError::from)
    }

    /// Runs the read `f` on the calling thread within
    /// [`INLINE_READ_BUDGET`] when inside a Tokio runtime and a connection
    /// is idle; otherwise, or when it ran out of budget or met a lock, on
    /// the blocking pool as [`SqliteDriver::run`] does.
    async fn read<T, F>(&self, context: &'static str, f: F) -> Result<T, MemoryError>
    where
        T: Send + 'static,
        F: Fn(&Connection) -> Result<T, Error> + Send + 'static,
    {
        if tokio::runtime::Handle::try_current().is_ok() {
            if let Some(result) = self.conns.try_read_within(INLINE_READ_BUDGET, &f) {
                return result.map_err(MemoryError::from);
            }
        }
        self.run(context, move |c| c.read(|conn| f(conn))).await
    }

    /// Runs the write `f` on the calling thread within
    /// [`INLINE_WRITE_BUDGET`] when inside a Tokio runtime and the database
    /// is in memory with its connection free; otherwise, or when it ran out
    /// of budget (and was rolled back), on the blocking pool as
    /// [`SqliteDriver::run`] does.
    async fn write<T, F>(&self, context: &'static str, f: F) -> Result<T, MemoryError>
    where
        T: Send + 'static,
        F: Fn(&mut Connection) -> Result<T, Error> + Send + 'static,
    {
        if tokio::runtime::Handle::try_current().is_ok() {
            if let Some(result) = self.conns.try_write_within(INLINE_WRITE_BUDGET, &f) {
                return result.map_err(MemoryError::from);
            }
        }
        self.run(context, move |c| c.write(|conn| f(conn))).await
    }

    /// Stores `entries` in one transaction, with the time of the
    /// transaction or, for an import, the `given` timestamps (one per
    /// entry). Tokenised on the calling thread and written there within
    /// the budget ([`SqliteDriver::write`]) when the database is in memory
    /// and the content is at most [`INLINE_WRITE_BYTES`]; otherwise both
    /// on the blocking pool.
    async fn put(
        &self,
        context: &'static str,
        entries: Vec<NewEntry>,
        given: Option<Vec<String>>,
    ) -> Result<(), MemoryError> {
        let bytes: usize = entries.iter().map(|e| e.content.len()).sum();
        if self.conns.in_memory() && bytes <= INLINE_WRITE_BYTES {
            let w = writes(entries);
            return self
                .write(context, move |conn| {
                    ops::store(conn, &w, stamps(given.as_deref()))
                })
                .await;
        }
        self.run(context, move |c| {
            let w = writes(entries);
            c.write(|conn| ops::store(conn, &w, stamps(given.as_deref())))
        })
        .await
    }
}

/// Adds the file name to an open failure.
fn with_path(e: Error, path: &Path) -> MemoryError {
    match MemoryError::from(e) {
        MemoryError::Backend { message, source } => MemoryError::Backend {
            message: format!("{}: {message}", path.display()),
            source,
        },
        MemoryError::Unavailable { message, source } => MemoryError::Unavailable {
            message: format!("{}: {message}", path.display()),
            source,
        },
        other => other,
    }
}

impl fmt::Debug for SqliteDriver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteDriver")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// The timestamps of a write: the `given` ones (an import), or the time
/// of its transaction.
fn stamps(given: Option<&[String]>) -> Timestamps<'_> {
    given.map_or(Timestamps::Now, Timestamps::Given)
}

/// `entries` as writes, indexed (tokenising a 1 MiB content is work, so
/// a large write does this on the blocking pool with the SQL:
/// [`INLINE_WRITE_BYTES`]).
fn writes(entries: Vec<NewEntry>) -> Vec<Write> {
    entries
        .into_iter()
        .map(|e| Write {
            doc: Document::of(&e.content),
            namespace: e.namespace,
            key: e.key,
            content: e.content,
            category: e.category,
            session_id: e.session_id,
            taint: e.taint,
        })
        .collect()
}

#[async_trait]
#[deny(clippy::missing_trait_methods)]
impl MemoryProvider for SqliteDriver {
    fn driver_id(&self) -> &str {
        DRIVER_ID
    }

    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        category: MemoryCategory,
        session_id: Option<&str>,
        taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        let entry = NewEntry {
            namespace: namespace.to_owned(),
            key: key.to_owned(),
            content: content.to_owned(),
            category,
            session_id: session_id.map(str::to_owned),
            taint,
        };
        self.put("store", vec![entry], None).await
    }

    /// One `IMMEDIATE` transaction for the whole batch, every entry with
    /// the same timestamp: all of it is stored or (on an engine failure)
    /// none. Validation ([`validate_batch`]) runs first, so an invalid entry
    /// refuses the batch, naming its index and rule, before any SQL.
    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        validate_batch(entries)?;
        if entries.is_empty() {
            return Ok(());
        }
        self.put("store_many", entries.to_vec(), None).await
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        let (ns, key) = (namespace.to_owned(), key.to_owned());
        self.read("get", move |conn| ops::get(conn, &ns, &key))
            .await
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        let (ns, key) = (namespace.to_owned(), key.to_owned());
        self.write("forget", move |conn| ops::forget(conn, &ns, &key))
            .await
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        if let Some(ns) = namespace {
            Namespace::parse(ns)?;
        }
        let ns = namespace.map(str::to_owned);
        let category = category.map(MemoryCategory::as_text);
        let session = session_id.map(str::to_owned);
        self.read("list", move |conn| {
            ops::list(conn, ns.as_deref(), category.as_deref(), session.as_deref())
        })
        .await
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        self.read("namespaces", ops::namespaces).await
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let namespace = opts.effective_namespace();
        Namespace::parse(namespace)?;
        opts.validate()?;
        if limit == 0 {
            return Ok(Vec::new());
        }
        let phrases = phrases(query);
        if phrases.is_empty() {
            return Ok(Vec::new());
        }
        let q = RecallQuery {
            phrases,
            namespace: namespace.to_owned(),
            category: opts.category.as_ref().map(MemoryCategory::as_text),
            session_id: opts.session_id.clone(),
            limit,
        };
        let mut hits = self
            .read("recall", move |conn| recall::recall(conn, &q))
            .await?;
        // Hits are sorted best first, so dropping those below `min_score`
        // after the limit keeps exactly the hits a filter-then-limit would.
        hits.retain(|h| opts.admits(h.score));
        Ok(hits)
    }

    /// A keyset page ([`KeysetCursor`]): `WHERE (namespace, key) > cursor
    /// ORDER BY namespace, key LIMIT limit + 1` on the `(namespace, key)`
    /// index, in SQLite's `BINARY` collation, which compares UTF-8 bytes
    /// as Rust orders `str`. The cursor names the last record returned, so
    /// it survives that record's forget and concurrent writes elsewhere.
    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        let position = match cursor {
            Some(c) => KeysetCursor::decode(c)?,
            None => KeysetCursor::start(),
        };
        let after = position.after.clone();
        let (entries, more) = self
            .read("export_page", move |conn| {
                ops::export(conn, after.as_ref(), limit)
            })
            .await?;
        let records: Vec<MemoryRecord> = entries
            .into_iter()
            .filter_map(MemoryRecord::from_entry)
            .collect();
        let next_cursor = match (more, records.last()) {
            (false, _) => None,
            (true, Some(last)) => Some(KeysetCursor::after(&last.namespace, &last.key).encode()),
            (true, None) => Some(position.encode()),
        };
        Ok(ExportPage {
            records,
            next_cursor,
        })
    }

    /// The valid records ([`validate_record`]) in one `IMMEDIATE`
    /// transaction, each with its own timestamp byte for byte; invalid ones
    /// are reported in [`ImportOutcome::failures`] and skipped. An engine
    /// failure writes none of them.
    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        let mut failures = Vec::new();
        let mut valid = Vec::with_capacity(records.len());
        let mut timestamps = Vec::with_capacity(records.len());
        for (index, r) in records.iter().enumerate() {
            match validate_record(r) {
                Ok(()) => {
                    timestamps.push(r.timestamp.clone());
                    valid.push(NewEntry {
                        namespace: r.namespace.clone(),
                        key: r.key.clone(),
                        content: r.content.clone(),
                        category: r.category.clone(),
                        session_id: r.session_id.clone(),
                        taint: r.taint,
                    });
                }
                Err(e) => failures.push(ImportFailure::new(index, r, e)),
            }
        }
        let imported = valid.len();
        if imported > 0 {
            self.put("import", valid, Some(timestamps)).await?;
        }
        Ok(ImportOutcome { imported, failures })
    }

    /// No framework interface: the interface family is skipped
    /// ([`tinymemory_api::interface::unsupported`]).
    async fn interface(
        &self,
        scenario: &tinymemory_api::interface::Scenario<'_>,
    ) -> Result<String, MemoryError> {
        Err(tinymemory_api::interface::unsupported(
            self.driver_id(),
            scenario,
        ))
    }
}

#[cfg(test)]
mod tests {
    use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, NewEntry, RecallOptions};

    use super::{SqliteDriver, INLINE_WRITE_BYTES};

    /// Writes to an in-memory database run on the calling thread, or past
    /// their budget or size on the blocking pool; either way each is
    /// stored exactly once, and an attempt rolled back takes no entry id.
    #[tokio::test]
    async fn writes_in_memory_are_stored_once_wherever_they_ran() {
        let d = SqliteDriver::open_in_memory().unwrap();
        // Likely past the budget: rolled back, then run on the pool.
        let many: Vec<NewEntry> = (0..300)
            .map(|i| NewEntry::new("global", format!("k{i:03}"), format!("entry {i} of many")))
            .collect();
        d.store_many(&many).await.unwrap();
        // Short: on this thread.
        d.store(
            "global",
            "one",
            "a single short entry",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        // Too large to tokenise here: on the pool from the start.
        let big = "word ".repeat(INLINE_WRITE_BYTES / 5 + 1);
        assert!(big.len() > INLINE_WRITE_BYTES);
        d.store(
            "global",
            "big",
            &big,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        assert!(d.forget("global", "k000").await.unwrap());
        let listed = d.list(Some("global"), None, None).await.unwrap();
        assert_eq!(listed.len(), 301);
        let mut ids: Vec<u64> = listed.iter().map(|e| e.id.parse().unwrap()).collect();
        ids.sort_unstable();
        let expected: Vec<u64> = (2..=302).collect();
        assert_eq!(ids, expected);
        assert_eq!(d.namespaces().await.unwrap()[0].count, 301);
        assert_eq!(d.get("global", "big").await.unwrap().unwrap().content, big);
    }

    #[tokio::test]
    async fn the_private_database_names_open_a_working_in_memory_store() {
        for name in [":memory:", ""] {
            let d = SqliteDriver::open(name).unwrap();
            assert_eq!(d.path(), None, "{name:?}");
            d.store(
                "global",
                "k",
                "an entry kept in memory",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap();
            assert_eq!(
                d.get("global", "k").await.unwrap().unwrap().key,
                "k",
                "{name:?}"
            );
            let hits = d
                .recall("memory", 10, &RecallOptions::default())
                .await
                .unwrap();
            assert_eq!(hits.len(), 1, "{name:?}");
            assert_eq!(d.namespaces().await.unwrap().len(), 1, "{name:?}");
            assert!(!std::path::Path::new(name).exists() || name.is_empty());
        }
    }
}
