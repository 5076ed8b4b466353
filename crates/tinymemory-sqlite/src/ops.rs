//! The driver's SQL, one blocking function per operation.
//!
//! Every value reaches SQLite as a bound parameter; no user data is ever
//! formatted into SQL text. Comparisons are `=` on `TEXT` with SQLite's
//! default `BINARY` collation (byte for byte), never `LIKE`, so `%` and `_`
//! in a namespace are ordinary characters. Ordering by `(namespace, key)`
//! is bytewise, as Rust orders `String`s.

use rusqlite::{Connection, Row, TransactionBehavior};
use tinymemory_api::{now_rfc3339, MemoryCategory, MemoryEntry, MemoryTaint, NamespaceSummary};

use crate::error::{Context, Error};
use crate::score::score_from_bm25;

const ENTRY_COLUMNS: &str =
    "e.id, e.namespace, e.key, e.content, e.category, e.session_id, e.taint, e.timestamp";

/// An entry to store, already validated.
pub(crate) struct NewEntry {
    pub(crate) namespace: String,
    pub(crate) key: String,
    pub(crate) content: String,
    pub(crate) category: MemoryCategory,
    pub(crate) session_id: Option<String>,
    pub(crate) taint: MemoryTaint,
}

/// Upserts an entry and its index row (`body`, the
/// [`index_text`](tinymemory_text::index_text) of its content) in one
/// transaction. The timestamp is taken inside the transaction, so
/// timestamps follow commit order.
pub(crate) fn store(conn: &mut Connection, e: &NewEntry, body: &str) -> Result<(), Error> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .context("begin a write")?;
    let id: i64 = tx
        .prepare_cached(
            "INSERT INTO memory_entries
                 (namespace, key, content, category, session_id, taint, timestamp)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (namespace, key) DO UPDATE SET
                 content = excluded.content,
                 category = excluded.category,
                 session_id = excluded.session_id,
                 taint = excluded.taint,
                 timestamp = excluded.timestamp
             RETURNING id",
        )
        .context("prepare the upsert")?
        .query_row(
            rusqlite::params![
                e.namespace,
                e.key,
                e.content,
                e.category.as_text(),
                e.session_id,
                e.taint.as_str(),
                now_rfc3339(),
            ],
            |r| r.get(0),
        )
        .context("store an entry")?;
    tx.prepare_cached("INSERT OR REPLACE INTO memory_fts (rowid, body) VALUES (?1, ?2)")
        .context("prepare the index write")?
        .execute(rusqlite::params![id, body])
        .context("index an entry")?;
    tx.commit().context("commit a store")
}

/// Deletes an entry and its index row; `true` when there was one.
pub(crate) fn forget(conn: &mut Connection, namespace: &str, key: &str) -> Result<bool, Error> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .context("begin a write")?;
    let ids: Vec<i64> = tx
        .prepare_cached("DELETE FROM memory_entries WHERE namespace = ?1 AND key = ?2 RETURNING id")
        .context("prepare the delete")?
        .query_map([namespace, key], |r| r.get(0))
        .context("forget an entry")?
        .collect::<Result<_, _>>()
        .context("forget an entry")?;
    for id in &ids {
        tx.prepare_cached("DELETE FROM memory_fts WHERE rowid = ?1")
            .context("prepare the index delete")?
            .execute([id])
            .context("unindex an entry")?;
    }
    tx.commit().context("commit a forget")?;
    Ok(!ids.is_empty())
}

/// The entry at `(namespace, key)`.
pub(crate) fn get(
    conn: &Connection,
    namespace: &str,
    key: &str,
) -> Result<Option<MemoryEntry>, Error> {
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT {ENTRY_COLUMNS} FROM memory_entries AS e WHERE e.namespace = ?1 AND e.key = ?2"
        ))
        .context("prepare a get")?;
    let mut rows = stmt
        .query_map([namespace, key], |r| entry(r, None))
        .context("get an entry")?;
    rows.next().transpose().context("get an entry")
}

/// Entries matching every given filter, ordered by `(namespace, key)`.
pub(crate) fn list(
    conn: &Connection,
    namespace: Option<&str>,
    category: Option<&str>,
    session_id: Option<&str>,
) -> Result<Vec<MemoryEntry>, Error> {
    // Two statements, so the namespace one can use the (namespace, key)
    // index instead of scanning.
    let sql = if namespace.is_some() {
        format!(
            "SELECT {ENTRY_COLUMNS} FROM memory_entries AS e
             WHERE e.namespace = ?1
               AND (?2 IS NULL OR e.category = ?2)
               AND (?3 IS NULL OR e.session_id = ?3)
             ORDER BY e.key"
        )
    } else {
        format!(
            "SELECT {ENTRY_COLUMNS} FROM memory_entries AS e
             WHERE ?1 IS NULL
               AND (?2 IS NULL OR e.category = ?2)
               AND (?3 IS NULL OR e.session_id = ?3)
             ORDER BY e.namespace, e.key"
        )
    };
    let mut stmt = conn.prepare_cached(&sql).context("prepare a list")?;
    let rows = stmt
        .query_map(rusqlite::params![namespace, category, session_id], |r| {
            entry(r, None)
        })
        .context("list entries")?;
    rows.collect::<Result<_, _>>().context("list entries")
}

/// Every non-empty namespace with its exact count and newest timestamp,
/// ordered by namespace.
pub(crate) fn namespaces(conn: &Connection) -> Result<Vec<NamespaceSummary>, Error> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT namespace, COUNT(*), MAX(timestamp) FROM memory_entries
             GROUP BY namespace ORDER BY namespace",
        )
        .context("prepare a namespaces query")?;
    let rows = stmt
        .query_map([], |r| {
            Ok(NamespaceSummary {
                namespace: r.get(0)?,
                count: r.get(1)?,
                last_updated: r.get(2)?,
            })
        })
        .context("count namespaces")?;
    rows.collect::<Result<_, _>>().context("count namespaces")
}

/// The filters of one recall.
pub(crate) struct RecallQuery {
    /// A MATCH expression from [`crate::query::match_expression`].
    pub(crate) expression: String,
    pub(crate) namespace: String,
    pub(crate) category: Option<String>,
    pub(crate) session_id: Option<String>,
    /// Row limit, at least 1.
    pub(crate) limit: i64,
}

/// At most `limit` hits of one namespace, best `bm25` first, ties by key.
pub(crate) fn recall(conn: &Connection, q: &RecallQuery) -> Result<Vec<MemoryEntry>, Error> {
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT {ENTRY_COLUMNS}, bm25(memory_fts) AS bm25_rank
             FROM memory_fts JOIN memory_entries AS e ON e.id = memory_fts.rowid
             WHERE memory_fts MATCH ?1
               AND e.namespace = ?2
               AND (?3 IS NULL OR e.category = ?3)
               AND (?4 IS NULL OR e.session_id = ?4)
             ORDER BY bm25_rank, e.key
             LIMIT ?5"
        ))
        .context("prepare a recall")?;
    let rows = stmt
        .query_map(
            rusqlite::params![q.expression, q.namespace, q.category, q.session_id, q.limit],
            |r| {
                let rank: f64 = r.get(8)?;
                entry(r, score_from_bm25(rank))
            },
        )
        .context("recall entries")?;
    rows.collect::<Result<_, _>>().context("recall entries")
}

fn entry(r: &Row<'_>, score: Option<f64>) -> rusqlite::Result<MemoryEntry> {
    let id: i64 = r.get(0)?;
    Ok(MemoryEntry {
        id: id.to_string(),
        namespace: Some(r.get(1)?),
        key: r.get(2)?,
        content: r.get(3)?,
        category: MemoryCategory::from_text(&r.get::<_, String>(4)?),
        session_id: r.get(5)?,
        taint: MemoryTaint::from_text(&r.get::<_, String>(6)?),
        timestamp: r.get(7)?,
        score,
    })
}
