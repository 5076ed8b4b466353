//! Writes: an entry and its postings, and the namespace statistics, always
//! changed together inside one transaction.
//!
//! Storing an entry (an upsert on `(namespace, key)`):
//!
//! 1. the namespace's row in `memory_namespaces` is found or created;
//! 2. an entry already at `(namespace, key)` has its postings deleted (by
//!    primary key, from its stored term list) and its length taken off the
//!    namespace's token total;
//! 3. the entry row is upserted (its id is kept) with the new term list and
//!    length, and one posting per distinct term is inserted;
//! 4. the namespace's entry count and token total are updated.
//!
//! Forgetting deletes the entry, its postings and, when it was the last,
//! the namespace's row. The counts are integers, so the statistics after
//! any history equal those of a fresh store holding the same data.

use rusqlite::{OptionalExtension, Transaction};
use tinymemory_api::{MemoryCategory, MemoryTaint};

use crate::error::{Context, Error};
use crate::index::{encode_positions, Document};

/// An entry to write, validated, with its index.
pub(crate) struct Write {
    pub(crate) namespace: String,
    pub(crate) key: String,
    pub(crate) content: String,
    pub(crate) category: MemoryCategory,
    pub(crate) session_id: Option<String>,
    pub(crate) taint: MemoryTaint,
    pub(crate) doc: Document,
}

/// The id of `namespace`'s statistics row, created (empty) when missing.
fn namespace_id(tx: &Transaction<'_>, namespace: &str) -> Result<i64, Error> {
    let found: Option<i64> = tx
        .prepare_cached("SELECT id FROM memory_namespaces WHERE name = ?1")
        .context("prepare a namespace lookup")?
        .query_row([namespace], |r| r.get(0))
        .optional()
        .context("look up a namespace")?;
    if let Some(id) = found {
        return Ok(id);
    }
    tx.prepare_cached(
        "INSERT INTO memory_namespaces (name, entries, tokens) VALUES (?1, 0, 0) RETURNING id",
    )
    .context("prepare a namespace insert")?
    .query_row([namespace], |r| r.get(0))
    .context("create a namespace")
}

/// Deletes the postings of entry `id` for the space-separated `terms`.
fn delete_postings(tx: &Transaction<'_>, ns: i64, id: i64, terms: &str) -> Result<(), Error> {
    let mut stmt = tx
        .prepare_cached("DELETE FROM memory_postings WHERE ns = ?1 AND term = ?2 AND entry = ?3")
        .context("prepare a postings delete")?;
    for term in terms.split(' ').filter(|t| !t.is_empty()) {
        stmt.execute(rusqlite::params![ns, term, id])
            .context("delete a posting")?;
    }
    Ok(())
}

/// Adds `entries` and `tokens` to namespace `ns`'s counts, deleting its
/// row when no entry is left.
fn adjust(tx: &Transaction<'_>, ns: i64, entries: i64, tokens: i64) -> Result<(), Error> {
    let left: i64 = tx
        .prepare_cached(
            "UPDATE memory_namespaces SET entries = entries + ?2, tokens = tokens + ?3
             WHERE id = ?1 RETURNING entries",
        )
        .context("prepare a statistics update")?
        .query_row(rusqlite::params![ns, entries, tokens], |r| r.get(0))
        .context("update the namespace statistics")?;
    if left == 0 {
        tx.prepare_cached("DELETE FROM memory_namespaces WHERE id = ?1")
            .context("prepare a namespace delete")?
            .execute([ns])
            .context("delete an empty namespace")?;
    }
    Ok(())
}

/// Upserts `w` with `timestamp`, inside `tx`.
pub(crate) fn put(tx: &Transaction<'_>, w: &Write, timestamp: &str) -> Result<(), Error> {
    let ns = namespace_id(tx, &w.namespace)?;
    let old: Option<(i64, String, i64)> = tx
        .prepare_cached(
            "SELECT id, terms, length FROM memory_entries WHERE namespace = ?1 AND key = ?2",
        )
        .context("prepare an entry lookup")?
        .query_row([&w.namespace, &w.key], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()
        .context("look up an entry")?;
    let length = i64::from(w.doc.length);
    let (added, old_length) = match &old {
        Some((id, terms, old_length)) => {
            delete_postings(tx, ns, *id, terms)?;
            (0, *old_length)
        }
        None => (1, 0),
    };
    let id: i64 = tx
        .prepare_cached(
            "INSERT INTO memory_entries
                 (namespace, key, content, category, session_id, taint, timestamp, terms, length)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT (namespace, key) DO UPDATE SET
                 content = excluded.content,
                 category = excluded.category,
                 session_id = excluded.session_id,
                 taint = excluded.taint,
                 timestamp = excluded.timestamp,
                 terms = excluded.terms,
                 length = excluded.length
             RETURNING id",
        )
        .context("prepare the upsert")?
        .query_row(
            rusqlite::params![
                w.namespace,
                w.key,
                w.content,
                w.category.as_text(),
                w.session_id,
                w.taint.as_str(),
                timestamp,
                w.doc.term_list(),
                length,
            ],
            |r| r.get(0),
        )
        .context("store an entry")?;
    insert_postings(tx, ns, id, &w.doc)?;
    adjust(tx, ns, added, length - old_length)
}

/// Inserts one posting per term of `doc` for entry `id` of namespace `ns`.
pub(crate) fn insert_postings(
    tx: &Transaction<'_>,
    ns: i64,
    id: i64,
    doc: &Document,
) -> Result<(), Error> {
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO memory_postings (ns, term, entry, length, positions)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .context("prepare a posting insert")?;
    for (term, positions) in &doc.terms {
        stmt.execute(rusqlite::params![
            ns,
            term,
            id,
            doc.length,
            encode_positions(positions)
        ])
        .context("index an entry")?;
    }
    Ok(())
}

/// Deletes the entry at `(namespace, key)` and its postings, inside `tx`;
/// `true` when there was one.
pub(crate) fn remove(tx: &Transaction<'_>, namespace: &str, key: &str) -> Result<bool, Error> {
    let gone: Option<(i64, String, i64)> = tx
        .prepare_cached(
            "DELETE FROM memory_entries WHERE namespace = ?1 AND key = ?2
             RETURNING id, terms, length",
        )
        .context("prepare the delete")?
        .query_row([namespace, key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()
        .context("forget an entry")?;
    let Some((id, terms, length)) = gone else {
        return Ok(false);
    };
    let ns: i64 = tx
        .prepare_cached("SELECT id FROM memory_namespaces WHERE name = ?1")
        .context("prepare a namespace lookup")?
        .query_row([namespace], |r| r.get(0))
        .context("look up a namespace")?;
    delete_postings(tx, ns, id, &terms)?;
    adjust(tx, ns, -1, -length)?;
    Ok(true)
}
