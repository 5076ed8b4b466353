//! Many upserts in one transaction: the write path of `store_many` and
//! `import`.
//!
//! Rows go to the server as one array per column, unnested into a
//! multi-row `INSERT … ON CONFLICT` ([`Sql::bulk_upsert`]), at most
//! [`CHUNK_ROWS`] rows or about [`CHUNK_BYTES`] bytes per statement, every
//! statement in one transaction: a batch is stored whole or not at all,
//! and costs a round trip per chunk instead of one per row.

use std::collections::HashSet;
use std::ops::Range;

use deadpool_postgres::Client;
use tinymemory_api::MemoryTaint;

use crate::error::{Context, Error};
use crate::sql::Sql;

/// Most rows one statement carries. Past a few hundred rows the round trip
/// is a small part of a statement's cost, and a bounded statement keeps the
/// server's per-statement memory bounded too.
pub(crate) const CHUNK_ROWS: usize = 1000;

/// Bytes of contents and word vectors after which a statement is closed
/// even with fewer than [`CHUNK_ROWS`] rows, so that a batch of 1 MiB
/// contents does not become one message of a gigabyte (PostgreSQL's limit
/// for one message).
pub(crate) const CHUNK_BYTES: usize = 8 * 1024 * 1024;

/// One row to upsert, already validated, with its `tsvector` text.
pub(crate) struct BulkRow<'a> {
    pub(crate) namespace: &'a str,
    pub(crate) key: &'a str,
    pub(crate) content: &'a str,
    /// The category's text form.
    pub(crate) category: String,
    pub(crate) session_id: Option<&'a str>,
    pub(crate) taint: MemoryTaint,
    /// RFC 3339, stored as given.
    pub(crate) timestamp: &'a str,
    /// [`crate::tsearch::tsvector_text`] of `content`.
    pub(crate) body: String,
}

/// The indices of `items` to write so that a later item with the same
/// `(namespace, key)` replaces an earlier one, in `(namespace, key)` order.
///
/// One `INSERT … ON CONFLICT DO UPDATE` may not touch a row twice
/// (PostgreSQL: "command cannot affect row a second time"), so a batch that
/// repeats a key is reduced to the last of each before it is sent; in one
/// transaction with one outcome, that is what upserting in order leaves.
///
/// The order is the index's: a transaction holds each row it writes until
/// it commits, so two batches writing the same keys in different orders
/// would each wait for the other (`40P01`, deadlock detected); written in
/// one order, the later simply waits for the earlier.
pub(crate) fn last_of_each<T>(items: &[T], key: impl Fn(&T) -> (&str, &str)) -> Vec<usize> {
    let mut seen = HashSet::with_capacity(items.len());
    let mut keep: Vec<usize> = (0..items.len())
        .rev()
        .filter(|&i| seen.insert(key(&items[i])))
        .collect();
    keep.sort_unstable_by(|&a, &b| key(&items[a]).cmp(&key(&items[b])));
    keep
}

/// Consecutive ranges of `rows`, each at most [`CHUNK_ROWS`] rows and,
/// unless it is a single row, at most about [`CHUNK_BYTES`] bytes.
fn chunks(rows: &[BulkRow<'_>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, r) in rows.iter().enumerate() {
        let size = r.content.len() + r.body.len() + r.key.len();
        if i > start && (i - start == CHUNK_ROWS || bytes + size > CHUNK_BYTES) {
            out.push(start..i);
            (start, bytes) = (i, 0);
        }
        bytes += size;
    }
    if start < rows.len() {
        out.push(start..rows.len());
    }
    out
}

/// Upserts every row, in chunks, in one transaction: all of them, or
/// (on any error) none. `rows` must not repeat a `(namespace, key)`
/// ([`last_of_each`]).
///
/// # Errors
///
/// [`Error::Postgres`] when the server fails; the transaction is rolled
/// back (dropping it unfinished rolls it back), so nothing was written.
pub(crate) async fn upsert(c: &mut Client, sql: &Sql, rows: &[BulkRow<'_>]) -> Result<(), Error> {
    let tx = c
        .transaction()
        .await
        .context("begin a bulk store transaction")?;
    let stmt = tx
        .prepare_cached(&sql.bulk_upsert)
        .await
        .context("prepare the bulk upsert")?;
    for range in chunks(rows) {
        let part = &rows[range];
        let namespaces: Vec<&str> = part.iter().map(|r| r.namespace).collect();
        let keys: Vec<&[u8]> = part.iter().map(|r| r.key.as_bytes()).collect();
        let contents: Vec<&[u8]> = part.iter().map(|r| r.content.as_bytes()).collect();
        let categories: Vec<&[u8]> = part.iter().map(|r| r.category.as_bytes()).collect();
        let sessions: Vec<Option<&[u8]>> = part
            .iter()
            .map(|r| r.session_id.map(str::as_bytes))
            .collect();
        let taints: Vec<&str> = part.iter().map(|r| r.taint.as_str()).collect();
        let timestamps: Vec<&str> = part.iter().map(|r| r.timestamp).collect();
        let bodies: Vec<&str> = part.iter().map(|r| r.body.as_str()).collect();
        tx.execute(
            &stmt,
            &[
                &namespaces,
                &keys,
                &contents,
                &categories,
                &sessions,
                &taints,
                &timestamps,
                &bodies,
            ],
        )
        .await
        .context("store a batch of entries")?;
    }
    tx.commit().await.context("commit a bulk store")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(content: &str) -> BulkRow<'_> {
        BulkRow {
            namespace: "global",
            key: "k",
            content,
            category: "core".into(),
            session_id: None,
            taint: MemoryTaint::Internal,
            timestamp: "2026-01-01T00:00:00.000000Z",
            body: String::new(),
        }
    }

    #[test]
    fn the_last_of_each_key_is_kept_in_key_order() {
        let items = [
            ("a", "1"),
            ("b", "1"),
            ("a", "1"),
            ("a", "2"),
            ("b", "1"),
            ("c", "1"),
        ];
        assert_eq!(last_of_each(&items, |&(n, k)| (n, k)), [2, 3, 4, 5]);
        let unordered = [("b", "1"), ("a", "z"), ("b", "1"), ("a", "B"), ("_", "a")];
        assert_eq!(last_of_each(&unordered, |&(n, k)| (n, k)), [4, 3, 1, 2]);
        assert_eq!(
            last_of_each(&[] as &[(&str, &str)], |&(n, k)| (n, k)),
            [] as [usize; 0]
        );
    }

    #[test]
    fn chunks_close_at_the_row_and_byte_bounds() {
        let small = "x".repeat(10);
        let rows: Vec<BulkRow<'_>> = (0..2500).map(|_| row(&small)).collect();
        assert_eq!(chunks(&rows), [0..1000, 1000..2000, 2000..2500]);
        let big = "y".repeat(CHUNK_BYTES / 2);
        let rows = [row(&big), row(&big), row(&big), row(&small)];
        // Each big row is CHUNK_BYTES / 2 + 1 bytes with its key: two
        // exceed the bound.
        assert_eq!(chunks(&rows), [0..1, 1..2, 2..4]);
        let huge = "z".repeat(CHUNK_BYTES * 2);
        assert_eq!(chunks(&[row(&huge)]), vec![0..1]);
        assert_eq!(chunks(&[]), [] as [Range<usize>; 0]);
    }
}
