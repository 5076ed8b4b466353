//! Mutants of the export's paging: `overlapping-pages`, `cursor-restarts`
//! and `empty-page-ends`, for the `portability.*` checks. Each breaks one
//! rule of [`MemoryProvider::export_page`] the way public bug reports show
//! real drivers breaking it; every other method is forwarded unchanged.

use std::collections::HashMap;
use std::sync::Mutex;

use tinymemory_api::portability::{ExportCursor, ExportPage, KeysetCursor, MemoryRecord};
use tinymemory_api::{rules, MemoryError, MemoryProvider};

use crate::lock::lock;

/// Breaks "every entry is in exactly one page" (check
/// `portability.pages_partition`): each page after the first starts with
/// the last record of the page whose cursor it was asked with, as a driver
/// resuming with `>=` instead of `>` after its cursor would.
///
/// The wrapped driver's pages are returned with that record put first:
/// this wrapper remembers, for every `next_cursor` it hands out, the last
/// record of the page that carried it. A page asked with a limit of 0, or
/// with a cursor this wrapper did not hand out, is the wrapped driver's.
/// A page after the first thus holds up to `limit + 1` records; the
/// export still advances by the wrapped driver's pages, so it ends, and
/// an import of every page (an upsert) stores the same entries as a
/// correct export would.
#[derive(Debug, Default)]
pub struct OverlappingPages<P: ?Sized> {
    /// `next_cursor` handed out → the last record of its page.
    issued: Mutex<HashMap<ExportCursor, MemoryRecord>>,
    inner: P,
}

impl<P> OverlappingPages<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            issued: Mutex::new(HashMap::new()),
            inner,
        }
    }

    /// Unwraps the provider; the remembered cursors are dropped.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> OverlappingPages<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    /// The wrapped provider, mutably.
    #[must_use]
    pub fn get_mut(&mut self) -> &mut P {
        &mut self.inner
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `export_page` repeats the previous page's last
    /// record, as described on the type.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for OverlappingPages<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many, import, interface;

        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            let mut page = self.inner.export_page(cursor, limit).await?;
            let repeated = match cursor {
                Some(c) if limit > 0 => lock(&self.issued).get(c).cloned(),
                _ => None,
            };
            if let Some(record) = repeated {
                page.records.insert(0, record);
            }
            if let (Some(next), Some(last)) = (&page.next_cursor, page.records.last()) {
                lock(&self.issued).insert(next.clone(), last.clone());
            }
            Ok(page)
        }
    }
}

/// Breaks "an unknown cursor is [`MemoryError::Invalid`], never a restart"
/// (check `portability.unknown_cursor`): when the wrapped driver refuses a
/// cursor with rule [`rules::EXPORT_CURSOR`], the page is asked again from
/// the start (`cursor: None`), as a driver falling back to offset 0 for a
/// token it cannot parse would. A resumed export with a stale or mangled
/// token silently starts over. Cursors the driver issued, and every other
/// method, are forwarded unchanged.
#[derive(Debug, Clone, Default)]
pub struct CursorRestarts<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(CursorRestarts);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `export_page` restarts on an unknown cursor.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for CursorRestarts<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many, import, interface;

        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            match self.inner.export_page(cursor, limit).await {
                Err(e) if cursor.is_some() && e.rule() == Some(rules::EXPORT_CURSOR) => {
                    self.inner.export_page(None, limit).await
                }
                other => other,
            }
        }
    }
}

/// Breaks "only `next_cursor: None` ends an export, and only when no
/// record follows" (checks `portability.end_of_export` and
/// `portability.pages_partition`): pages never cross a namespace, and once
/// the cursor's namespace has no record left, the page is empty with
/// `next_cursor: None`, though later namespaces still hold records, as a
/// driver paging namespace by namespace that forgets to move on would.
///
/// The records are the wrapped driver's whole export (read through its
/// `export_page`), paged here with this wrapper's own keyset cursors
/// ([`KeysetCursor`], so an unknown cursor is still `Invalid`): a page
/// holds at most `limit` records after the cursor, all in the namespace
/// of the cursor's position (at the start, the first record's
/// namespace). Its `next_cursor` is `None` when no record follows it in
/// the whole store, or when the page is empty because its namespace is
/// exhausted (the fault); otherwise after its last record (after the
/// cursor's position for an empty page of limit 0). A store with one
/// namespace is exported correctly; with two or more, the export ends at
/// the end of the first, on an empty page.
#[derive(Debug, Clone, Default)]
pub struct EmptyPageEnds<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(EmptyPageEnds);

impl<P: MemoryProvider + ?Sized> EmptyPageEnds<P> {
    /// Every record of the wrapped driver, in export order.
    async fn all_records(&self) -> Result<Vec<MemoryRecord>, MemoryError> {
        let mut records = Vec::new();
        let mut cursor = None;
        loop {
            let page = self.inner.export_page(cursor.as_ref(), usize::MAX).await?;
            records.extend(page.records);
            match page.next_cursor {
                None => return Ok(records),
                next => cursor = next,
            }
        }
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `export_page` ends at the end of a namespace.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for EmptyPageEnds<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many, import, interface;

        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            let position =
                cursor.map_or_else(|| Ok(KeysetCursor::start()), KeysetCursor::decode)?;
            let all = self.all_records().await?;
            let after: Vec<MemoryRecord> = all
                .into_iter()
                .filter(|r| {
                    position.after.as_ref().is_none_or(|(ns, key)| {
                        (r.namespace.as_str(), r.key.as_str()) > (ns.as_str(), key.as_str())
                    })
                })
                .collect();
            let namespace = match (&position.after, after.first()) {
                (Some((ns, _)), _) => ns.clone(),
                (None, Some(first)) => first.namespace.clone(),
                (None, None) => String::new(),
            };
            let in_namespace = after
                .iter()
                .take_while(|r| r.namespace == namespace)
                .count();
            let records: Vec<MemoryRecord> = after
                .iter()
                .take(in_namespace.min(limit))
                .cloned()
                .collect();
            let next_cursor = match records.last() {
                _ if after.len() == records.len() => None,
                None if in_namespace == 0 => None,
                None => Some(position.encode()),
                Some(last) => Some(KeysetCursor::after(&last.namespace, &last.key).encode()),
            };
            Ok(ExportPage {
                records,
                next_cursor,
            })
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "overlapping-pages",
        rule: "portability: every entry is in exactly one page of an export",
        check: "portability.pages_partition",
        also_caught_by: &["portability.end_of_export", "portability.page_limits", "portability.cursor_stable", "portability.round_trip", "portability.import_hostile", "properties.export_partition", "properties.export_round_trip"],
        description: "each page after the first starts with the previous page's last record, as resuming with >= instead of > does",
        wrap: OverlappingPages::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{pages, put};
            for k in ["a", "b", "c"] {
                put(d, "global", k, "note").await?;
            }
            Ok(format!("{:?}", pages(d, 2).await?))
        },
        reference: r#"[(["a", "b"], true), (["c"], false)]"#,
        mutant: r#"[(["a", "b"], true), (["b", "c"], false)]"#,
    },
    entry! {
        name: "cursor-restarts",
        rule: "portability: a malformed cursor is Invalid, never a restart",
        check: "portability.unknown_cursor",
        also_caught_by: &[],
        description: "an unknown cursor silently restarts the export from the first record",
        wrap: CursorRestarts::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            use tinymemory_api::portability::ExportCursor;
            put(d, "global", "a", "note").await?;
            let got = d
                .export_page(Some(&ExportCursor::new("bogus")), 10)
                .await
                .map(|p| p.records.into_iter().map(|r| r.key).collect::<Vec<_>>())
                .map_err(|e| e.rule().map(str::to_owned));
            Ok(format!("{got:?}"))
        },
        reference: r#"Err(Some("export.cursor_unknown"))"#,
        mutant: r#"Ok(["a"])"#,
    },
    entry! {
        name: "empty-page-ends",
        rule: "portability: only next_cursor None ends an export, and only when no record follows",
        check: "portability.end_of_export",
        also_caught_by: &["portability.pages_partition", "portability.cursor_stable", "portability.round_trip", "portability.import_hostile", "properties.export_partition", "properties.export_round_trip"],
        description: "pages stop at namespace boundaries and an exhausted namespace gives an empty page with next_cursor None, records left",
        wrap: EmptyPageEnds::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{pages, put};
            put(d, "global", "a", "note").await?;
            put(d, "learning:x", "b", "note").await?;
            Ok(format!("{:?}", pages(d, 1).await?))
        },
        reference: r#"[(["a"], true), (["b"], false)]"#,
        mutant: r#"[(["a"], true), ([], false)]"#,
    },
];
