//! The driver's SQL, one blocking function per operation.
//!
//! Every value reaches SQLite as a bound parameter; no user data is ever
//! formatted into SQL text. Comparisons are `=` on `TEXT` with SQLite's
//! default `BINARY` collation (byte for byte), never `LIKE`, so `%` and `_`
//! in a namespace are ordinary characters. Ordering by `(namespace, key)`
//! is bytewise, as Rust orders `String`s.

use std::collections::HashMap;

use rusqlite::{Connection, Row, TransactionBehavior};
use tinymemory_api::{now_rfc3339, MemoryCategory, MemoryEntry, MemoryTaint, NamespaceSummary};

use crate::error::{Context, Error};
use crate::schema::CANONICAL;
use crate::write::{self, Write};

/// The columns [`entry`] reads, in its order, from `memory_entries AS e`.
pub(crate) const ENTRY_COLUMNS: &str =
    "e.id, e.namespace, e.key, e.content, e.category, e.session_id, e.taint, e.timestamp";

/// Upserts `writes` in order (a later write to the same `(namespace, key)`
/// replaces an earlier one) in one `IMMEDIATE` transaction, all with
/// `timestamp` or, when `None`, the time taken inside the transaction (so
/// timestamps follow commit order). Nothing is written unless all are.
pub(crate) fn store(
    conn: &mut Connection,
    writes: &[Write],
    timestamps: Timestamps<'_>,
) -> Result<(), Error> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .context("begin a write")?;
    let now = now_rfc3339();
    for (i, w) in writes.iter().enumerate() {
        let timestamp = match timestamps {
            Timestamps::Now => now.as_str(),
            Timestamps::Given(given) => given[i].as_str(),
        };
        write::put(&tx, w, timestamp)?;
    }
    tx.commit().context(commit_context(timestamps))
}

/// What a failed commit of [`store`] was doing, for its message: an
/// import keeps given timestamps, so a disk filling up during `migrate`
/// says the import failed, not a store.
fn commit_context(timestamps: Timestamps<'_>) -> &'static str {
    match timestamps {
        Timestamps::Now => "commit a store",
        Timestamps::Given(_) => "commit an import",
    }
}

/// Where the timestamps of a [`store`] come from.
#[derive(Clone, Copy)]
pub(crate) enum Timestamps<'a> {
    /// The time of the transaction, for every write.
    Now,
    /// One per write, kept byte for byte (an import).
    Given(&'a [String]),
}

/// Deletes an entry and its postings; `true` when there was one.
pub(crate) fn forget(conn: &mut Connection, namespace: &str, key: &str) -> Result<bool, Error> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .context("begin a write")?;
    let removed = write::remove(&tx, namespace, key)?;
    tx.commit().context("commit a forget")?;
    Ok(removed)
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

/// Every non-empty namespace with its exact count and newest timestamp
/// (by instant: [`tinymemory_api::newest_timestamp`]), ordered by
/// namespace.
///
/// One scan counts and takes `MAX(timestamp)`, which is the newest while a
/// namespace holds only canonical timestamps
/// ([`CANONICAL`](crate::schema::CANONICAL)). The others (imported
/// spellings) are read through a partial index that holds only them, and
/// compared by instant; where one of them was the bytewise `MAX`, the
/// namespace's canonical `MAX` is read again.
pub(crate) fn namespaces(conn: &Connection) -> Result<Vec<NamespaceSummary>, Error> {
    // One read transaction: the counts and the other spellings come from
    // one snapshot of the file.
    let tx = conn
        .unchecked_transaction()
        .context("begin a namespaces read")?;
    let conn = &*tx;
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
    let mut out: Vec<NamespaceSummary> =
        rows.collect::<Result<_, _>>().context("count namespaces")?;
    let mut others: HashMap<String, Vec<String>> = HashMap::new();
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT namespace, timestamp FROM memory_entries WHERE NOT ({CANONICAL})"
        ))
        .context("prepare a namespaces query")?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .context("read other timestamp spellings")?;
    for row in rows {
        let (ns, t) = row.context("read other timestamp spellings")?;
        others.entry(ns).or_default().push(t);
    }
    if others.is_empty() {
        return Ok(out);
    }
    let mut canonical_max = conn
        .prepare_cached(&format!(
            "SELECT MAX(timestamp) FROM memory_entries WHERE namespace = ?1 AND {CANONICAL}"
        ))
        .context("prepare a namespaces query")?;
    for summary in &mut out {
        let Some(spelt) = others.get(&summary.namespace) else {
            continue;
        };
        if summary
            .last_updated
            .as_deref()
            .is_some_and(|t| !tinymemory_api::is_canonical_timestamp(t))
        {
            summary.last_updated = canonical_max
                .query_row([&summary.namespace], |r| r.get(0))
                .context("read a namespace's newest timestamp")?;
        }
        for t in spelt {
            if tinymemory_api::is_newer_timestamp(t, summary.last_updated.as_deref()) {
                summary.last_updated = Some(t.clone());
            }
        }
    }
    Ok(out)
}

/// At most `limit` entries in `(namespace, key)` bytewise order strictly
/// after `after`, and whether any entry follows them. `limit` may be any
/// `usize`: it is clamped to `i64::MAX` rows.
pub(crate) fn export(
    conn: &Connection,
    after: Option<&(String, String)>,
    limit: usize,
) -> Result<(Vec<MemoryEntry>, bool), Error> {
    // One row more than asked says whether the export goes on.
    let fetch = i64::try_from(limit.saturating_add(1)).unwrap_or(i64::MAX);
    let mut rows: Vec<MemoryEntry> = match after {
        None => conn
            .prepare_cached(&format!(
                "SELECT {ENTRY_COLUMNS} FROM memory_entries AS e
                 ORDER BY e.namespace, e.key LIMIT ?1"
            ))
            .context("prepare an export")?
            .query_map([fetch], |r| entry(r, None))
            .context("export entries")?
            .collect::<Result<_, _>>(),
        Some((ns, key)) => conn
            .prepare_cached(&format!(
                "SELECT {ENTRY_COLUMNS} FROM memory_entries AS e
                 WHERE (e.namespace, e.key) > (?1, ?2)
                 ORDER BY e.namespace, e.key LIMIT ?3"
            ))
            .context("prepare an export")?
            .query_map(rusqlite::params![ns, key, fetch], |r| entry(r, None))
            .context("export entries")?
            .collect::<Result<_, _>>(),
    }
    .context("export entries")?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    Ok((rows, more))
}

pub(crate) fn entry(r: &Row<'_>, score: Option<f64>) -> rusqlite::Result<MemoryEntry> {
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

#[cfg(test)]
mod tests {
    use super::{commit_context, Timestamps};

    #[test]
    fn a_failed_commit_names_the_import_it_was() {
        assert_eq!(commit_context(Timestamps::Now), "commit a store");
        assert_eq!(commit_context(Timestamps::Given(&[])), "commit an import");
    }
}
