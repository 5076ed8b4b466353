//! Export pages: keyset reads in `(namespace, key)` order.

use deadpool_postgres::Client;
use tinymemory_api::portability::{ExportCursor, ExportPage, KeysetCursor, MemoryRecord};

use crate::error::{Context, Error};
use crate::ops::entry;
use crate::sql::Sql;

/// How many rows to read for a page of `limit`: one more, to see whether a
/// record follows, saturating at `i64::MAX` (no table holds that many, so
/// a page of `usize::MAX` is the rest of the store).
pub(crate) fn rows_to_read(limit: usize) -> i64 {
    i64::try_from(limit)
        .ok()
        .and_then(|l| l.checked_add(1))
        .unwrap_or(i64::MAX)
}

/// The page of at most `limit` records after `position`, in one statement
/// (so the page and the "does a record follow" answer see one snapshot).
///
/// `next_cursor` is after the page's last record when a record follows
/// it, `position` itself when one follows an empty page (`limit` 0), and
/// `None` when none follows.
pub(crate) async fn page(
    c: &Client,
    sql: &Sql,
    position: &KeysetCursor,
    limit: usize,
) -> Result<ExportPage, Error> {
    let fetch = rows_to_read(limit);
    let rows = match &position.after {
        None => {
            let stmt = c
                .prepare_cached(&sql.export_start)
                .await
                .context("prepare an export")?;
            c.query(&stmt, &[&fetch]).await
        }
        Some((namespace, key)) => {
            let stmt = c
                .prepare_cached(&sql.export_after)
                .await
                .context("prepare an export")?;
            c.query(&stmt, &[namespace, &key.as_bytes(), &fetch]).await
        }
    }
    .context("export entries")?;
    let more = rows.len() > limit;
    let mut records = Vec::with_capacity(rows.len().min(limit));
    for r in rows.iter().take(limit) {
        let e = entry(r, None)?;
        records.push(
            MemoryRecord::from_entry(e)
                .ok_or_else(|| Error::Corrupt("an exported row has no namespace".to_owned()))?,
        );
    }
    let next_cursor: Option<ExportCursor> = match (more, records.last()) {
        (false, _) => None,
        (true, Some(last)) => Some(KeysetCursor::after(&last.namespace, &last.key).encode()),
        (true, None) => Some(position.encode()),
    };
    Ok(ExportPage {
        records,
        next_cursor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_limits_do_not_overflow() {
        assert_eq!(rows_to_read(0), 1);
        assert_eq!(rows_to_read(7), 8);
        assert_eq!(rows_to_read(usize::MAX), i64::MAX);
        assert_eq!(rows_to_read(i64::MAX as usize), i64::MAX);
        assert_eq!(rows_to_read(i64::MAX as usize - 1), i64::MAX);
    }
}
