//! Reading a whole export one page at a time, checking what the contract
//! promises about pages.

use std::collections::VecDeque;

use tinymemory_api::portability::{ExportCursor, MemoryRecord};
use tinymemory_api::{MemoryError, MemoryProvider};

/// The records of one store's export, in order, fetched `page_size` at a
/// time through `export_page`.
pub(crate) struct Pages<'a> {
    provider: &'a dyn MemoryProvider,
    page_size: usize,
    cursor: Option<ExportCursor>,
    buffered: VecDeque<MemoryRecord>,
    finished: bool,
    /// Pages asked for so far, the one being fetched included.
    pub(crate) pages: u64,
    last: Option<(String, String)>,
    /// Records returned so far.
    records: u64,
    /// The most records the store held when `namespaces()` was last asked:
    /// an export past it is asked again, and one still past it never ends.
    bound: u64,
}

impl<'a> Pages<'a> {
    /// An export of `provider` from its start; `page_size` is at least 1.
    pub(crate) fn new(provider: &'a dyn MemoryProvider, page_size: usize) -> Self {
        Self {
            provider,
            page_size,
            cursor: None,
            buffered: VecDeque::new(),
            finished: false,
            pages: 0,
            last: None,
            records: 0,
            bound: 0,
        }
    }

    /// The next page's records, or `None` after the last page.
    ///
    /// # Errors
    ///
    /// The driver's error; a fault when a page breaks the export's rules:
    /// a record not strictly after the one before it in `(namespace, key)`
    /// order (pages that overlap or are out of order), or an empty page
    /// with a next cursor (an export that would never end).
    pub(crate) async fn next_page(&mut self) -> Result<Option<Vec<MemoryRecord>>, MemoryError> {
        if self.finished {
            return Ok(None);
        }
        self.pages += 1;
        let n = self.pages;
        let page = self
            .provider
            .export_page(self.cursor.as_ref(), self.page_size)
            .await?;
        for r in &page.records {
            if let Some((ns, key)) = &self.last {
                if (r.namespace.as_str(), r.key.as_str()) <= (ns.as_str(), key.as_str()) {
                    return Err(MemoryError::fault(format!(
                        "page {n} of the export holds {}/{} after {ns}/{key}: pages must hold \
                         each record once, in (namespace, key) order",
                        r.namespace, r.key
                    )));
                }
            }
            self.last = Some((r.namespace.clone(), r.key.clone()));
        }
        if page.records.len() > self.page_size {
            return Err(MemoryError::fault(format!(
                "page {n} of the export holds {} records for a limit of {}",
                page.records.len(),
                self.page_size
            )));
        }
        self.records += page.records.len() as u64;
        if self.records > self.bound {
            self.bound = self.store_size().await?;
            if self.records > self.bound {
                return Err(MemoryError::fault(format!(
                    "page {n} of the export brings it to {} records, more than the {} its \
                     namespaces() counts: an export that outgrows the store it pages through \
                     (a cursor that never ends) is refused rather than read without bound",
                    self.records, self.bound
                )));
            }
        }
        match page.next_cursor {
            None => self.finished = true,
            Some(_) if page.records.is_empty() => {
                return Err(MemoryError::fault(format!(
                    "page {n} of the export is empty for a limit of {} but names a next \
                     cursor: the export would never end",
                    self.page_size
                )))
            }
            next => self.cursor = next,
        }
        Ok(Some(page.records))
    }

    /// The records `namespaces()` counts now: asked again whenever the
    /// export passes the last count, so writes made during the export
    /// (which the caller's digest detects) raise the bound, and a source
    /// that makes up records forever does not.
    async fn store_size(&self) -> Result<u64, MemoryError> {
        let listed = self.provider.namespaces().await?;
        Ok(listed.iter().map(|n| n.count).sum())
    }

    /// The next record, or `None` at the end of the export.
    ///
    /// # Errors
    ///
    /// As [`Pages::next_page`].
    pub(crate) async fn next(&mut self) -> Result<Option<MemoryRecord>, MemoryError> {
        while self.buffered.is_empty() {
            match self.next_page().await? {
                Some(records) => self.buffered.extend(records),
                None => return Ok(None),
            }
        }
        Ok(self.buffered.pop_front())
    }

    /// The next record without taking it.
    ///
    /// # Errors
    ///
    /// As [`Pages::next_page`].
    pub(crate) async fn peek(&mut self) -> Result<Option<&MemoryRecord>, MemoryError> {
        while self.buffered.is_empty() {
            match self.next_page().await? {
                Some(records) => self.buffered.extend(records),
                None => return Ok(None),
            }
        }
        Ok(self.buffered.front())
    }
}
