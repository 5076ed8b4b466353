//! A store over a key an import wrote is a new write: it stamps the time
//! of the store and gives every field anew, as a store over a stored key
//! does.
//!
//! An import writes the record's own timestamp, so a driver (or an
//! adapter over a store that merges values on put) can keep that
//! timestamp, or the imported metadata, on every later store of the key:
//! no other check stores over an imported key, so such a store stays
//! stamped years in the past while passing every other check.

use std::time::SystemTime;

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint, NewEntry, RecallOptions,
};

use super::support::{import_all, portable};
use crate::checks::metadata::{parse, CLOCK_SKEW};
use crate::failure::{ensure, Step, Stop};
use crate::CheckContext;

const NS: &str = "learning:restamp";

/// The imported timestamp: far from any clock a store could read.
const IMPORTED_AT: &str = "2001-01-01T00:00:00Z";

/// What the import writes at each key: every field other than what the
/// stores after it give.
fn imported(key: &str) -> MemoryRecord {
    MemoryRecord {
        namespace: NS.to_owned(),
        key: key.to_owned(),
        content: "imported lantern note".to_owned(),
        category: MemoryCategory::Custom("synced".into()),
        session_id: Some("session-9".into()),
        taint: MemoryTaint::ExternalSync,
        timestamp: IMPORTED_AT.to_owned(),
    }
}

/// `(path, what it writes)`: one key per write path. The `store` gives no
/// session, so a store that merges the new fields into the imported ones
/// keeps `session-9`; `store_many` gives another session.
fn stores() -> [(&'static str, NewEntry); 2] {
    [
        (
            "store",
            NewEntry::new(NS, "by-store", "stored lantern note")
                .with_category(MemoryCategory::Daily),
        ),
        (
            "store_many",
            NewEntry::new(NS, "by-store-many", "stored lantern note")
                .with_category(MemoryCategory::Daily)
                .with_session("session-2"),
        ),
    ]
}

/// `(content, category, session, taint)` of an entry, for comparisons.
fn fields(e: &MemoryEntry) -> (&str, &MemoryCategory, Option<&str>, MemoryTaint) {
    (
        e.content.as_str(),
        &e.category,
        e.session_id.as_deref(),
        e.taint,
    )
}

pub(crate) async fn store_after_import(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    let writes = stores();
    let records: Vec<MemoryRecord> = writes.iter().map(|(_, e)| imported(&e.key)).collect();
    import_all(d.as_ref(), &records).await?;
    let before = SystemTime::now();
    for (path, e) in &writes {
        let done = if *path == "store" {
            d.store(
                &e.namespace,
                &e.key,
                &e.content,
                e.category.clone(),
                e.session_id.as_deref(),
                e.taint,
            )
            .await
        } else {
            d.store_many(std::slice::from_ref(e)).await
        };
        done.map_err(|err| {
            Stop::caused_by(
                format!(
                    "{path}({NS:?}, {:?}) after importing it failed: {err}",
                    e.key
                ),
                &err,
            )
        })?;
    }
    let after = SystemTime::now();
    let listed = d.list(Some(NS), None, None).await?;
    let recalled = d
        .recall("lantern", 10, &RecallOptions::in_namespace(NS))
        .await?;
    for (path, e) in &writes {
        let at = format!("({NS}, {:?})", e.key);
        let want = (
            e.content.as_str(),
            &e.category,
            e.session_id.as_deref(),
            e.taint,
        );
        let got = d.get(NS, &e.key).await?.ok_or_else(|| {
            Stop::fail(format!(
                "get{at} after an import then a {path} returned None"
            ))
        })?;
        let stamped = parse(&format!("the timestamp get gave {at}"), &got.timestamp)?;
        ensure!(
            stamped + CLOCK_SKEW >= before && stamped <= after + CLOCK_SKEW,
            "get{at} gives the timestamp {:?} after an import of it stamped {IMPORTED_AT:?} then a \
             {path} that ran between {} and {}: a store over a key an import wrote stamps the time \
             of the store, not the imported timestamp",
            got.timestamp,
            humantime::format_rfc3339_micros(before),
            humantime::format_rfc3339_micros(after)
        );
        let in_list = listed.iter().find(|h| h.key == e.key).ok_or_else(|| {
            Stop::fail(format!(
                "list({NS}) does not give {:?} after an import then a {path} of it",
                e.key
            ))
        })?;
        // Whether a recall finds the entry is for the recall checks to say;
        // a hit it gives must show the entry as the store wrote it.
        let in_recall = recalled.iter().filter(|h| h.key == e.key);
        let read = [("get", &got), ("list", in_list)]
            .into_iter()
            .chain(in_recall.map(|h| ("recall(\"lantern\")", h)));
        for (how, entry) in read {
            ensure!(
                fields(entry) == want,
                "{how} gives {at} the (content, category, session, taint) {:?} after importing \
                 (\"imported lantern note\", custom:synced, session-9, external_sync) then a \
                 {path} of {want:?}: a store over an imported key gives every field anew, as \
                 over a stored one",
                fields(entry)
            );
            ensure!(
                parse(&format!("the timestamp {how} gave {at}"), &entry.timestamp)? == stamped,
                "{how} gives {at} the timestamp {:?}, get gives {:?} (after an import stamped \
                 {IMPORTED_AT:?} then a {path})",
                entry.timestamp,
                got.timestamp
            );
        }
    }
    Ok(())
}
