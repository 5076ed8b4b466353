//! [`ExportPage`] and the export every driver gets by default.

use serde::{Deserialize, Serialize};

use super::{ExportCursor, KeysetCursor, MemoryRecord};
use crate::{MemoryError, MemoryProvider};

/// One page of an export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportPage {
    /// At most `limit` records, in `(namespace, key)` order (ascending,
    /// bytewise), all after the cursor the page was asked with.
    pub records: Vec<MemoryRecord>,
    /// Where the next page starts, or `None` when the export is complete.
    ///
    /// Only `None` ends an export: a page may be empty and still have a
    /// next cursor (a `limit` of 0 on a store with records left).
    pub next_cursor: Option<ExportCursor>,
}

/// The default [`MemoryProvider::export_page`]: one `list(None, None,
/// None)` per page, keyset cursors ([`KeysetCursor`]).
///
/// The page holds the first `limit` listed entries after the cursor's
/// position; `next_cursor` is `None` exactly when no entry follows the
/// page. Each page costs one full `list`, so a whole export is quadratic
/// in the store's size over its page size: drivers with an index
/// override it.
///
/// # Errors
///
/// [`MemoryError::Invalid`] (rule
/// [`EXPORT_CURSOR`](crate::rules::EXPORT_CURSOR)) for a cursor
/// [`KeysetCursor::decode`] refuses; the errors of `list`; a
/// [`MemoryError::Backend`] when `list` returns an entry without a
/// namespace.
pub async fn export_from_list<P: MemoryProvider + ?Sized>(
    provider: &P,
    cursor: Option<&ExportCursor>,
    limit: usize,
) -> Result<ExportPage, MemoryError> {
    let position = match cursor {
        Some(c) => KeysetCursor::decode(c)?,
        None => KeysetCursor::start(),
    };
    let entries = provider.list(None, None, None).await?;
    let mut after = entries.into_iter().filter(|e| match &position.after {
        None => true,
        Some((ns, key)) => {
            (e.namespace.as_deref().unwrap_or(""), e.key.as_str()) > (ns.as_str(), key.as_str())
        }
    });
    let mut records = Vec::new();
    for entry in after.by_ref().take(limit) {
        let key = entry.key.clone();
        records.push(MemoryRecord::from_entry(entry).ok_or_else(|| {
            MemoryError::fault(format!(
                "list returned the entry {key:?} without a namespace"
            ))
        })?);
    }
    let next_cursor = match (after.next(), records.last()) {
        (None, _) => None,
        (Some(_), Some(last)) => Some(KeysetCursor::after(&last.namespace, &last.key).encode()),
        (Some(_), None) => Some(position.encode()),
    };
    Ok(ExportPage {
        records,
        next_cursor,
    })
}
