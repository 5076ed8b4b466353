//! One async function per operation, over a pooled connection.
//!
//! Each operation is one statement (an upsert, a delete, a select), so it
//! is atomic on its own and needs no explicit transaction. Statements are
//! prepared once per connection and cached
//! ([`deadpool_postgres::ClientWrapper::prepare_cached`]).

use deadpool_postgres::Client;
use tinymemory_api::{now_rfc3339, MemoryCategory, MemoryEntry, MemoryTaint, NamespaceSummary};
use tokio_postgres::Row;

use crate::error::{Context, Error};
use crate::score::score_from_rank;
use crate::sql::Sql;

/// An entry to store, already validated, with its `tsvector` text.
pub(crate) struct NewEntry<'a> {
    pub(crate) namespace: &'a str,
    pub(crate) key: &'a str,
    pub(crate) content: &'a str,
    pub(crate) category: String,
    pub(crate) session_id: Option<&'a str>,
    pub(crate) taint: MemoryTaint,
    /// [`crate::tsearch::tsvector_text`] of `content`.
    pub(crate) body: String,
}

/// Upserts an entry, its words included, in one statement.
pub(crate) async fn store(c: &Client, sql: &Sql, e: &NewEntry<'_>) -> Result<(), Error> {
    let stmt = c
        .prepare_cached(&sql.upsert)
        .await
        .context("prepare the upsert")?;
    c.execute(
        &stmt,
        &[
            &e.namespace,
            &e.key.as_bytes(),
            &e.content.as_bytes(),
            &e.category.as_bytes(),
            &e.session_id.map(str::as_bytes),
            &e.taint.as_str(),
            &now_rfc3339(),
            &e.body,
        ],
    )
    .await
    .context("store an entry")?;
    Ok(())
}

/// Deletes an entry; `true` when there was one.
pub(crate) async fn forget(
    c: &Client,
    sql: &Sql,
    namespace: &str,
    key: &str,
) -> Result<bool, Error> {
    let stmt = c
        .prepare_cached(&sql.forget)
        .await
        .context("prepare the delete")?;
    let n = c
        .execute(&stmt, &[&namespace, &key.as_bytes()])
        .await
        .context("forget an entry")?;
    Ok(n > 0)
}

/// The entry at `(namespace, key)`.
pub(crate) async fn get(
    c: &Client,
    sql: &Sql,
    namespace: &str,
    key: &str,
) -> Result<Option<MemoryEntry>, Error> {
    let stmt = c.prepare_cached(&sql.get).await.context("prepare a get")?;
    let row = c
        .query_opt(&stmt, &[&namespace, &key.as_bytes()])
        .await
        .context("get an entry")?;
    row.map(|r| entry(&r, None)).transpose()
}

/// Entries matching every given filter, ordered by `(namespace, key)`.
pub(crate) async fn list(
    c: &Client,
    sql: &Sql,
    namespace: Option<&str>,
    category: Option<&str>,
    session_id: Option<&str>,
) -> Result<Vec<MemoryEntry>, Error> {
    let category = category.map(str::as_bytes);
    let session = session_id.map(str::as_bytes);
    let rows = match namespace {
        // Two statements, so the namespace one can use the (namespace, key)
        // index instead of scanning.
        Some(ns) => {
            let stmt = c
                .prepare_cached(&sql.list_one)
                .await
                .context("prepare a list")?;
            c.query(&stmt, &[&ns, &category, &session]).await
        }
        None => {
            let stmt = c
                .prepare_cached(&sql.list_all)
                .await
                .context("prepare a list")?;
            c.query(&stmt, &[&category, &session]).await
        }
    }
    .context("list entries")?;
    rows.iter().map(|r| entry(r, None)).collect()
}

/// Every non-empty namespace with its exact count and newest timestamp
/// (by instant: [`tinymemory_api::newest_timestamp`]). One scan
/// ([`Sql::namespaces`]) gives the bytewise `MAX`, the newest among
/// canonical timestamps, and the other spellings, compared here by
/// instant; where one of those was the bytewise `MAX`, the namespace's
/// canonical `MAX` is read again.
pub(crate) async fn namespaces(c: &Client, sql: &Sql) -> Result<Vec<NamespaceSummary>, Error> {
    let stmt = c
        .prepare_cached(&sql.namespaces)
        .await
        .context("prepare a namespaces query")?;
    let rows = c.query(&stmt, &[]).await.context("count namespaces")?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let namespace: String = r.try_get(0).context("count namespaces")?;
        let count: i64 = r.try_get(1).context("count namespaces")?;
        let mut last_updated: Option<String> = r.try_get(2).context("count namespaces")?;
        let spelt: Option<Vec<String>> = r.try_get(3).context("count namespaces")?;
        if let Some(spelt) = spelt {
            if last_updated
                .as_deref()
                .is_some_and(|t| !tinymemory_api::is_canonical_timestamp(t))
            {
                let stmt = c
                    .prepare_cached(&sql.namespace_canonical_max)
                    .await
                    .context("prepare a namespaces query")?;
                last_updated = c
                    .query_one(&stmt, &[&namespace])
                    .await
                    .context("read a namespace's newest timestamp")?
                    .try_get(0)
                    .context("read a namespace's newest timestamp")?;
            }
            for t in spelt {
                if tinymemory_api::is_newer_timestamp(&t, last_updated.as_deref()) {
                    last_updated = Some(t);
                }
            }
        }
        out.push(NamespaceSummary {
            namespace,
            count: u64::try_from(count).unwrap_or(0),
            last_updated,
        });
    }
    Ok(out)
}

/// The filters of one recall.
pub(crate) struct RecallQuery<'a> {
    /// [`crate::tsearch::tsquery_text`] of the query.
    pub(crate) tsquery: String,
    pub(crate) namespace: &'a str,
    pub(crate) category: Option<String>,
    pub(crate) session_id: Option<&'a str>,
    /// Row limit, at least 1.
    pub(crate) limit: i64,
}

/// At most `limit` hits of one namespace, best `ts_rank` first, ties by key.
pub(crate) async fn recall(
    c: &Client,
    sql: &Sql,
    q: &RecallQuery<'_>,
) -> Result<Vec<MemoryEntry>, Error> {
    let stmt = c
        .prepare_cached(&sql.recall)
        .await
        .context("prepare a recall")?;
    let rows = c
        .query(
            &stmt,
            &[
                &q.tsquery,
                &q.namespace,
                &q.category.as_deref().map(str::as_bytes),
                &q.session_id.map(str::as_bytes),
                &q.limit,
            ],
        )
        .await
        .context("recall entries")?;
    rows.iter()
        .map(|r| {
            let rank: f32 = r.try_get(8).context("recall entries")?;
            entry(r, score_from_rank(rank))
        })
        .collect()
}

/// A `BYTEA` column as the UTF-8 text it was stored from.
fn text(r: &Row, i: usize, what: &str) -> Result<String, Error> {
    let bytes: Vec<u8> = r.try_get(i).context("read an entry")?;
    String::from_utf8(bytes)
        .map_err(|e| Error::Corrupt(format!("the stored {what} is not UTF-8: {e}")))
}

/// The entry of a row selected with the entry columns.
pub(crate) fn entry(r: &Row, score: Option<f64>) -> Result<MemoryEntry, Error> {
    let id: i64 = r.try_get(0).context("read an entry")?;
    let session: Option<Vec<u8>> = r.try_get(5).context("read an entry")?;
    let taint: String = r.try_get(6).context("read an entry")?;
    Ok(MemoryEntry {
        id: id.to_string(),
        namespace: Some(r.try_get(1).context("read an entry")?),
        key: text(r, 2, "key")?,
        content: text(r, 3, "content")?,
        category: MemoryCategory::from_text(&text(r, 4, "category")?),
        session_id: session
            .map(|s| {
                String::from_utf8(s)
                    .map_err(|e| Error::Corrupt(format!("the stored session id is not UTF-8: {e}")))
            })
            .transpose()?,
        taint: MemoryTaint::from_text(&taint),
        timestamp: r.try_get(7).context("read an entry")?,
        score,
    })
}
