//! What the portability checks and properties share: opening a store that
//! provides the family, walking a whole export, and comparing stores.

use tinymemory_api::portability::{ExportCursor, ImportOutcome, MemoryRecord};
use tinymemory_api::{MemoryError, MemoryProvider, NamespaceSummary};

use crate::failure::Stop;
use crate::CheckContext;

/// A fresh store from the context's factory, after asking it for a first
/// page: a driver answering [`MemoryError::Unsupported`] skips the check.
pub(crate) async fn portable(ctx: &CheckContext) -> Result<Box<dyn MemoryProvider>, Stop> {
    let d = super::super::support::fresh(ctx).await?;
    d.export_page(None, 1).await.map_err(unsupported)?;
    Ok(d)
}

/// A driver error inside a portability check: a skip for
/// [`MemoryError::Unsupported`], a failure naming it otherwise.
pub(crate) fn unsupported(e: MemoryError) -> Stop {
    if e.is_unsupported() {
        Stop::Skip(format!(
            "the driver does not provide the portability family: {e}"
        ))
    } else {
        Stop::from(e)
    }
}

/// One export, page by page.
#[derive(Debug, Default)]
pub(crate) struct Export {
    /// Each page's records, in the order received.
    pub(crate) pages: Vec<Vec<MemoryRecord>>,
}

impl Export {
    /// Every record, pages concatenated.
    pub(crate) fn records(&self) -> Vec<MemoryRecord> {
        self.pages.iter().flatten().cloned().collect()
    }
}

/// Why an export could not be walked to its end.
pub(crate) enum WalkError {
    /// The driver failed.
    Driver(MemoryError),
    /// A rule of paging broke; the message says which.
    Broken(String),
}

/// Exports the whole store in pages of `limit`, starting at `cursor`.
///
/// A page may hold fewer than `limit` records (a driver may cap its page
/// size), so the walk is bounded by the records, not the limit: an export
/// of `size` records still going after `size + 3` pages (more pages than
/// records, plus an empty last page and slack) is reported as never
/// ending, as is one with more than 3 empty pages. A page longer than
/// `limit` is an error too.
pub(crate) async fn walk(
    d: &dyn MemoryProvider,
    mut cursor: Option<ExportCursor>,
    limit: usize,
    size: usize,
) -> Result<Export, WalkError> {
    let bound = size + 3;
    let mut empty = 0;
    let mut export = Export::default();
    loop {
        let page = d
            .export_page(cursor.as_ref(), limit)
            .await
            .map_err(WalkError::Driver)?;
        if page.records.len() > limit {
            return Err(WalkError::Broken(format!(
                "export_page(limit {limit}) returned {} records",
                page.records.len()
            )));
        }
        empty += usize::from(page.records.is_empty());
        export.pages.push(page.records);
        match page.next_cursor {
            None => return Ok(export),
            Some(next) => cursor = Some(next),
        }
        if export.pages.len() >= bound || empty > 3 {
            let got: usize = export.pages.iter().map(Vec::len).sum();
            return Err(WalkError::Broken(format!(
                "an export of a store of {size} records in pages of {limit} had not ended after \
                 {} pages ({empty} of them empty, {got} records so far): next_cursor never became \
                 None",
                export.pages.len()
            )));
        }
    }
}

/// [`walk`] from the start, for a check: driver errors as in
/// [`unsupported`].
pub(crate) async fn export_all(
    d: &dyn MemoryProvider,
    limit: usize,
    size: usize,
) -> Result<Export, Stop> {
    export_from(d, None, limit, size).await
}

/// [`walk`] from `cursor`, for a check: driver errors as in
/// [`unsupported`].
pub(crate) async fn export_from(
    d: &dyn MemoryProvider,
    cursor: Option<ExportCursor>,
    limit: usize,
    size: usize,
) -> Result<Export, Stop> {
    walk(d, cursor, limit, size).await.map_err(|e| match e {
        WalkError::Driver(e) => unsupported(e),
        WalkError::Broken(m) => Stop::fail(m),
    })
}

/// Every entry of the store as records, from `list(None, None, None)`, in
/// its `(namespace, key)` order.
pub(crate) async fn listed(d: &dyn MemoryProvider) -> Result<Vec<MemoryRecord>, MemoryError> {
    let entries = d.list(None, None, None).await?;
    Ok(entries
        .into_iter()
        .map(|e| {
            let key = e.key.clone();
            MemoryRecord::from_entry(e).unwrap_or_else(|| MemoryRecord {
                namespace: String::from("<none: list gave no namespace>"),
                key,
                content: String::new(),
                category: tinymemory_api::MemoryCategory::Core,
                session_id: None,
                taint: tinymemory_api::MemoryTaint::Internal,
                timestamp: String::new(),
            })
        })
        .collect())
}

/// `namespaces()` sorted by name, since its order is unspecified.
pub(crate) async fn summaries(
    d: &dyn MemoryProvider,
) -> Result<Vec<NamespaceSummary>, MemoryError> {
    let mut all = d.namespaces().await?;
    all.sort_by(|a, b| a.namespace.cmp(&b.namespace));
    Ok(all)
}

/// What differs between the records `want` and `got` (same order
/// expected), or `None`: the first few records missing, extra, changed,
/// repeated or out of order, named by `(namespace, key)`.
pub(crate) fn differences(want: &[MemoryRecord], got: &[MemoryRecord]) -> Option<String> {
    if want == got {
        return None;
    }
    let id = |r: &MemoryRecord| (r.namespace.clone(), r.key.clone());
    let mut notes = Vec::new();
    let mut seen = std::collections::BTreeMap::new();
    for r in got {
        *seen.entry(id(r)).or_insert(0_usize) += 1;
    }
    for ((ns, key), n) in &seen {
        if *n > 1 {
            notes.push(format!("({ns}, {key:?}) came {n} times"));
        }
    }
    for w in want {
        match got.iter().find(|g| id(g) == id(w)) {
            None => notes.push(format!("({}, {:?}) is missing", w.namespace, w.key)),
            Some(g) if g != w => notes.push(format!(
                "({}, {:?}) changed: expected {}, got {}",
                w.namespace,
                w.key,
                fields(w),
                fields(g)
            )),
            Some(_) => {}
        }
    }
    for g in got {
        if !want.iter().any(|w| id(w) == id(g)) {
            notes.push(format!("({}, {:?}) was never stored", g.namespace, g.key));
        }
    }
    if notes.is_empty() {
        let order: Vec<String> = got
            .iter()
            .map(|r| format!("({}, {:?})", r.namespace, r.key))
            .collect();
        notes.push(format!(
            "the records are not in (namespace, key) order: {}",
            shorten(&order.join(", "))
        ));
    }
    let total = notes.len();
    notes.truncate(5);
    let more = if total > 5 {
        format!(" and {} more", total - 5)
    } else {
        String::new()
    };
    Some(format!("{}{more}", notes.join("; ")))
}

/// The fields of a record, long contents shortened, for messages.
fn fields(r: &MemoryRecord) -> String {
    format!(
        "{{content {}, category {}, session {:?}, taint {}, timestamp {:?}}}",
        shorten(&format!("{:?}", r.content)),
        r.category,
        r.session_id,
        r.taint,
        r.timestamp
    )
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(120) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// Imports `records` into `d`, requiring every one to be imported.
pub(crate) async fn import_all(
    d: &dyn MemoryProvider,
    records: &[MemoryRecord],
) -> Result<(), Stop> {
    let outcome: ImportOutcome = d.import(records).await.map_err(unsupported)?;
    if let Some(f) = outcome.failures.first() {
        return Err(Stop::fail(format!(
            "import refused record {} ({}, {:?}) of a batch of valid records: {}",
            f.index, f.namespace, f.key, f.error
        )));
    }
    if outcome.imported != records.len() {
        return Err(Stop::fail(format!(
            "import of {} valid records reported {} imported and no failures",
            records.len(),
            outcome.imported
        )));
    }
    Ok(())
}

/// Where two `namespaces()` answers, sorted by name, differ: the names and
/// counts exactly; `last_updated` only when both give one, by the instant
/// it names (the contract lets a driver leave it out, or spell the instant
/// its own way). `None` when they agree.
pub(crate) fn summary_difference(
    got: &[NamespaceSummary],
    want: &[NamespaceSummary],
) -> Option<String> {
    let counts = |v: &[NamespaceSummary]| -> Vec<(String, u64)> {
        v.iter().map(|s| (s.namespace.clone(), s.count)).collect()
    };
    if counts(got) != counts(want) {
        return Some(format!(
            "namespaces and counts {:?}, expected {:?}",
            counts(got),
            counts(want)
        ));
    }
    got.iter()
        .zip(want)
        .find_map(|(g, w)| match (&g.last_updated, &w.last_updated) {
            (Some(a), Some(b))
                if tinymemory_api::parse_rfc3339(a) != tinymemory_api::parse_rfc3339(b) =>
            {
                Some(format!(
                    "{} has last_updated {a:?}, expected {b:?} (the same instant in any spelling)",
                    g.namespace
                ))
            }
            _ => None,
        })
}
