//! Paging rules: pages partition the store, `None` ends an export, limits
//! of 0 and `usize::MAX`, unknown cursors, and cursors under concurrent
//! writes.

use std::collections::BTreeSet;

use tinymemory_api::portability::{ExportCursor, MemoryRecord};
use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint};

use super::support::{differences, export_all, export_from, listed, portable, unsupported};
use crate::checks::support::put;
use crate::failure::{ensure, ensure_eq, Step, Stop};
use crate::CheckContext;

/// Namespaces whose names sort next to each other (`learning:a` <
/// `learning:a-b` < `learning:a.b` < `learning:a/b` < `learning:ab`), so
/// that an export ordering by something else than bytes, or paging per
/// namespace, shows.
const NAMESPACES: [&str; 7] = [
    "global",
    "learning:a",
    "learning:a-b",
    "learning:a.b",
    "learning:a/b",
    "learning:ab",
    "conversation:t-1",
];

/// Keys whose byte order differs from a case-insensitive, numeric or
/// locale order.
const KEYS: [&str; 6] = ["K", "k", "k ", "10", "9", "ä"];

/// Stores 7 x 6 = 42 entries (every category form, sessions, the empty
/// session and none, both taints) and returns what `list(None, ..)` gives
/// for them.
pub(crate) async fn store_mixed(d: &dyn MemoryProvider) -> Result<Vec<MemoryRecord>, Stop> {
    for (i, ns) in NAMESPACES.iter().enumerate() {
        for (j, key) in KEYS.iter().enumerate() {
            let category = match (i + j) % 4 {
                0 => MemoryCategory::Core,
                1 => MemoryCategory::Daily,
                2 => MemoryCategory::Conversation,
                _ => MemoryCategory::Custom("projects".into()),
            };
            // The empty session is a session: a serialiser writing
            // `session or null` exports it as none.
            let session = match (i + j) % 3 {
                0 => Some(format!("session-{j}")),
                1 => Some(String::new()),
                _ => None,
            };
            let taint = if (i + j) % 2 == 0 {
                MemoryTaint::Internal
            } else {
                MemoryTaint::ExternalSync
            };
            d.store(
                ns,
                key,
                &format!("entry {key} of {ns}"),
                category,
                session.as_deref(),
                taint,
            )
            .await
            .map_err(|e| Stop::caused_by(format!("store({ns:?}, {key:?}) failed: {e}"), &e))?;
        }
    }
    let listed = listed(d).await?;
    let stored = NAMESPACES.len() * KEYS.len();
    ensure!(
        listed.len() == stored,
        "list(None, ..) returned {} entries after {stored} stores of distinct (namespace, key)",
        listed.len()
    );
    Ok(listed)
}

pub(crate) async fn pages_partition(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    let want = store_mixed(d.as_ref()).await?;
    let n = want.len();
    for limit in [1, 2, 7, n - 1, n, n + 1, 1000] {
        let export = export_all(d.as_ref(), limit, n).await?;
        if let Some(diff) = differences(&want, &export.records()) {
            let sizes: Vec<usize> = export.pages.iter().map(Vec::len).collect();
            return Err(Stop::fail(format!(
                "an export in pages of {limit} (page sizes {sizes:?}) is not every entry of \
                 list(None, ..) exactly once in (namespace, key) order: {diff}"
            )));
        }
    }
    Ok(())
}

pub(crate) async fn end_of_export(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    let empty = export_all(d.as_ref(), 10, 0).await?;
    ensure_eq!(
        empty.records().len(),
        0,
        "records exported from an empty store"
    );
    // Two namespaces, so that an export paging namespace by namespace
    // meets the end of one with records left.
    for (ns, n) in [("learning:end", 3), ("learning:end-2", 2)] {
        for i in 0..n {
            put(d.as_ref(), ns, &format!("k{i}"), "an entry").await?;
        }
    }
    let want = listed(d.as_ref()).await?;
    // Pages that end exactly at the last record, one short of it, and at
    // the namespace boundary: none may end the export early, whichever the
    // driver does at the end (None at once, or a cursor and then an empty
    // last page).
    for limit in [5, 4, 3, 2] {
        let export = export_all(d.as_ref(), limit, 5).await?;
        for (i, page) in export.pages.iter().enumerate() {
            let before: usize = export.pages[..i].iter().map(Vec::len).sum();
            ensure!(
                !page.is_empty() || before == 5,
                "page {} of an export in pages of {limit} was empty with {} of 5 records \
                 still to come: an empty page is not the end, only next_cursor: None is",
                i + 1,
                5 - before
            );
        }
        let got = export.records();
        if let Some(diff) = differences(&want, &got) {
            return Err(Stop::fail(format!(
                "an export of 5 records in pages of {limit}: {diff}"
            )));
        }
    }
    Ok(())
}

pub(crate) async fn page_limits(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    for i in 0..5 {
        put(d.as_ref(), "learning:limits", &format!("k{i}"), "an entry").await?;
    }
    let want = listed(d.as_ref()).await?;
    // A limit of 0 wants no records, and cannot end an export that has
    // records left.
    let zero = d.export_page(None, 0).await.map_err(unsupported)?;
    ensure_eq!(
        zero.records.len(),
        0,
        "records in export_page(None, limit 0)"
    );
    let Some(cursor) = zero.next_cursor else {
        return Err(Stop::fail(
            "export_page(None, limit 0) on a store of 5 records returned next_cursor None, \
             which ends the export with every record left out; it must return a cursor",
        ));
    };
    let rest = walk_from(d.as_ref(), Some(cursor), 10, 5).await?;
    if let Some(diff) = differences(&want, &rest) {
        return Err(Stop::fail(format!(
            "after export_page(None, limit 0), an export from its cursor: {diff}"
        )));
    }
    // Mid-export: a limit of 0 keeps the place.
    let first = d.export_page(None, 2).await.map_err(unsupported)?;
    let Some(c) = first.next_cursor else {
        return Err(Stop::fail(
            "export_page(None, limit 2) of 5 records ended the export",
        ));
    };
    let zero = d.export_page(Some(&c), 0).await.map_err(unsupported)?;
    ensure_eq!(
        zero.records.len(),
        0,
        "records in a limit-0 page after the first 2"
    );
    let Some(c0) = zero.next_cursor else {
        return Err(Stop::fail(
            "a limit-0 page after the first 2 of 5 records returned next_cursor None, ending the \
             export with 3 records left",
        ));
    };
    let mut got = first.records;
    got.extend(walk_from(d.as_ref(), Some(c0), 10, 3).await?);
    if let Some(diff) = differences(&want, &got) {
        return Err(Stop::fail(format!(
            "2 records, a limit-0 page, then the rest from its cursor: {diff}"
        )));
    }
    // The largest limit is no error and no overflow.
    let huge = d
        .export_page(None, usize::MAX)
        .await
        .map_err(|e| match unsupported(e) {
            Stop::Fail(mut f) => {
                f.message = format!("export_page(None, limit usize::MAX): {}", f.message);
                Stop::Fail(f)
            }
            skip => skip,
        })?;
    // A driver may cap its pages below the limit asked ("at most limit"),
    // so the export is walked to its end.
    let mut got = huge.records;
    if let Some(c) = huge.next_cursor {
        got.extend(walk_from(d.as_ref(), Some(c), usize::MAX, 5).await?);
    }
    if let Some(diff) = differences(&want, &got) {
        return Err(Stop::fail(format!(
            "an export in pages of limit {} must hold all 5 records: {diff}",
            usize::MAX
        )));
    }
    Ok(())
}

async fn walk_from(
    d: &dyn MemoryProvider,
    cursor: Option<ExportCursor>,
    limit: usize,
    size: usize,
) -> Result<Vec<MemoryRecord>, Stop> {
    Ok(export_from(d, cursor, limit, size).await?.records())
}

/// Tokens no driver issues: the empty string, NUL, text with quotes and
/// an emoji, and 10,000 characters.
fn bogus_cursors() -> Vec<String> {
    vec![
        String::new(),
        "\0".into(),
        "not a cursor: 🦀 \" ' ; --".into(),
        "x".repeat(10_000),
    ]
}

pub(crate) async fn unknown_cursor(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    for i in 0..3 {
        put(d.as_ref(), "learning:cursor", &format!("k{i}"), "an entry").await?;
    }
    let before = listed(d.as_ref()).await?;
    let issued = d
        .export_page(None, 1)
        .await
        .map_err(unsupported)?
        .next_cursor;
    let mut bogus = bogus_cursors();
    if let Some(c) = issued {
        // An issued token with its middle removed.
        let text = c.as_str();
        let cut: String = text.chars().take(text.chars().count() / 2).collect();
        if !cut.is_empty() && cut != text {
            bogus.push(format!("{cut}\u{1}"));
        }
    }
    for token in bogus {
        let shown: String = token.chars().take(40).collect();
        match d
            .export_page(Some(&ExportCursor::new(token.clone())), 10)
            .await
        {
            Err(e) if e.rule() == Some(rules::EXPORT_CURSOR) => {}
            Err(e) if e.is_unsupported() => return Err(unsupported(e)),
            Err(e) => {
                return Err(Stop::caused_by(
                    format!(
                        "export_page with the malformed cursor {shown:?} must be refused as \
                     invalid with rule {}; got: {e}",
                        rules::EXPORT_CURSOR
                    ),
                    &e,
                ))
            }
            Ok(page) => {
                let keys: Vec<&str> = page.records.iter().map(|r| r.key.as_str()).collect();
                return Err(Stop::fail(format!(
                    "export_page with the malformed cursor {shown:?} returned Ok with \
                     records {keys:?}: an unknown cursor must be MemoryError::Invalid (rule {}), \
                     never a silent restart",
                    rules::EXPORT_CURSOR
                )));
            }
        }
    }
    let after = listed(d.as_ref()).await?;
    if let Some(diff) = differences(&before, &after) {
        return Err(Stop::fail(format!(
            "refused cursors changed the store: {diff}"
        )));
    }
    Ok(())
}

pub(crate) async fn cursor_stable(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    let ns = "learning:stable";
    for i in 0..20 {
        put(d.as_ref(), ns, &format!("k{i:02}"), "an entry").await?;
    }
    put(d.as_ref(), "learning:stable-2", "k00", "an entry").await?;
    let first = d.export_page(None, 5).await.map_err(unsupported)?;
    let first_keys: Vec<&str> = first.records.iter().map(|r| r.key.as_str()).collect();
    ensure_eq!(
        first_keys,
        vec!["k00", "k01", "k02", "k03", "k04"],
        "keys of the first page of 5"
    );
    let Some(cursor) = first.next_cursor else {
        return Err(Stop::fail(
            "the first page of 5 of 21 records ended the export",
        ));
    };
    // Writes between pages: the entry the cursor stands on, two behind it
    // and one ahead are forgotten, one is stored behind the cursor and one
    // ahead, one ahead is upserted.
    // Three forgotten behind the cursor against one stored there, so an
    // offset cursor (the nth record) would skip two records.
    d.forget(ns, "k00").await?;
    d.forget(ns, "k01").await?;
    d.forget(ns, "k04").await?;
    d.forget(ns, "k10").await?;
    put(d.as_ref(), ns, "k02b", "stored behind the cursor").await?;
    put(d.as_ref(), ns, "k07b", "stored ahead of the cursor").await?;
    put(d.as_ref(), ns, "k12", "upserted during the export").await?;
    let rest = walk_from(d.as_ref(), Some(cursor), 5, 25)
        .await
        .map_err(|e| match e {
            Stop::Fail(mut f) => {
                f.message = format!(
                    "after forgetting the entry a cursor stands on (and other writes), the export \
                     from that cursor: {}",
                    f.message
                );
                Stop::Fail(f)
            }
            skip => skip,
        })?;
    let mut seen = BTreeSet::new();
    for r in first.records.iter().chain(&rest) {
        ensure!(
            seen.insert((r.namespace.clone(), r.key.clone())),
            "({}, {:?}) was exported twice across the pages of one export",
            r.namespace,
            r.key
        );
    }
    for r in &rest {
        ensure!(
            !(r.namespace == ns && r.key.as_str() < "k05"),
            "({ns}, {:?}) sorts before the first page's end yet came after it: a cursor \
             resumes after its position, it does not restart",
            r.key
        );
    }
    // Every entry present for the whole export is in it exactly once.
    let mut present: Vec<String> = (5..20)
        .filter(|i| *i != 10)
        .map(|i| format!("k{i:02}"))
        .collect();
    present.retain(|k| !rest.iter().any(|r| r.namespace == ns && &r.key == k));
    ensure!(
        present.is_empty(),
        "entries present for the whole export are missing from it after writes between pages: {present:?}"
    );
    ensure!(
        rest.iter().any(|r| r.namespace == "learning:stable-2"),
        "(learning:stable-2, \"k00\"), present for the whole export, is missing from it"
    );
    Ok(())
}
