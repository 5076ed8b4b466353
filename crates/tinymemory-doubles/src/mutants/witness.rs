//! What the mutants' witness scenarios share: writing with the default
//! metadata, and rendering what a call returned as one short line.

use tinymemory_api::portability::{ExportCursor, MemoryRecord};
use tinymemory_api::{
    now_rfc3339, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint,
    NamespaceSummary, RecallOptions,
};

/// Stores `content` at `(ns, key)` as core, without a session, internal.
pub(super) async fn put(
    d: &dyn MemoryProvider,
    ns: &str,
    key: &str,
    content: &str,
) -> Result<(), MemoryError> {
    d.store(
        ns,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
}

/// Stores `note` at `(ns, key)` with the category and taint given.
pub(super) async fn put_as(
    d: &dyn MemoryProvider,
    ns: &str,
    key: &str,
    category: MemoryCategory,
    taint: MemoryTaint,
) -> Result<(), MemoryError> {
    d.store(ns, key, "note", category, None, taint).await
}

/// A record of `(namespace, key)` with content `note`, core, without a
/// session, stamped now.
pub(super) fn record(namespace: &str, key: &str, taint: MemoryTaint) -> MemoryRecord {
    MemoryRecord {
        namespace: namespace.into(),
        key: key.into(),
        content: "note".into(),
        category: MemoryCategory::Core,
        session_id: None,
        taint,
        timestamp: now_rfc3339(),
    }
}

/// The keys of `entries`, in order.
pub(super) fn keys(entries: &[MemoryEntry]) -> Vec<&str> {
    entries.iter().map(|e| e.key.as_str()).collect()
}

/// `(key, score)` of each hit, in order.
pub(super) fn scored(entries: &[MemoryEntry]) -> Vec<(&str, Option<f64>)> {
    entries.iter().map(|e| (e.key.as_str(), e.score)).collect()
}

/// `(key, namespace)` of each entry, in order.
pub(super) fn key_ns(entries: &[MemoryEntry]) -> Vec<(&str, Option<&str>)> {
    entries
        .iter()
        .map(|e| (e.key.as_str(), e.namespace.as_deref()))
        .collect()
}

/// `(namespace, count)` of each summary, in the order given.
pub(super) fn counts(summaries: &[NamespaceSummary]) -> Vec<(&str, u64)> {
    summaries
        .iter()
        .map(|s| (s.namespace.as_str(), s.count))
        .collect()
}

/// `[("a", "1.000"), ...]`: keys and scores to three decimals, `none`
/// for an unscored hit.
pub(super) fn ranked(hits: &[MemoryEntry]) -> String {
    let got: Vec<(&str, String)> = hits
        .iter()
        .map(|h| {
            (
                h.key.as_str(),
                h.score.map_or("none".into(), |s| format!("{s:.3}")),
            )
        })
        .collect();
    format!("{got:?}")
}

/// The witness of the score mutants: `full` ("rust async") and `half`
/// ("rust tokio") recalled by "rust async", rendered as `(key, score)`
/// pairs: the reference driver scores them 1.0 and 0.5.
pub(super) async fn two_scored_hits(d: &dyn MemoryProvider) -> Result<String, MemoryError> {
    put(d, "global", "full", "rust async").await?;
    put(d, "global", "half", "rust tokio").await?;
    let hits = d
        .recall("rust async", 10, &RecallOptions::default())
        .await?;
    Ok(format!("{:?}", scored(&hits)))
}

/// Every page of an export with page size `limit`: its keys and whether
/// it carried a next cursor. Stops after 10 pages, so an export that never
/// ends still renders.
pub(super) async fn pages(
    d: &dyn MemoryProvider,
    limit: usize,
) -> Result<Vec<(Vec<String>, bool)>, MemoryError> {
    let mut out = Vec::new();
    let mut cursor: Option<ExportCursor> = None;
    for _ in 0..10 {
        let page = d.export_page(cursor.as_ref(), limit).await?;
        let keys = page.records.iter().map(|r| r.key.clone()).collect();
        out.push((keys, page.next_cursor.is_some()));
        match page.next_cursor {
            None => break,
            next => cursor = next,
        }
    }
    Ok(out)
}

/// The error of a scenario whose driver lost what it had just written:
/// neither the reference driver nor any mutant does, so it is a fault of
/// the scenario's driver, not a rendering.
pub(super) fn absent(what: &str) -> MemoryError {
    MemoryError::Backend {
        message: format!("witness scenario: {what} is missing"),
        source: None,
    }
}
