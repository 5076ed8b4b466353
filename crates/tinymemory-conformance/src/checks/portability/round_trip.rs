//! Export then import into a fresh store of the same driver gives the same
//! store.

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions, RecallProfile};

use super::paging::store_mixed;
use super::support::{
    differences, export_all, import_all, listed, portable, summaries, summary_difference,
};
use crate::checks::support::{fresh, put};
use crate::failure::{ensure, Step, Stop};
use crate::hostile::{HOSTILE_TEXT, TRICKY_VALID_NAMESPACES};
use crate::CheckContext;

/// Entries no one of which holds every word of another, for the recall
/// after the import.
const RECALLED: [(&str, &str); 3] = [
    ("harbour", "harbour lights at dawn"),
    ("quarry", "granite quarry beneath the ridge"),
    ("comet", "comet dust over northern hills"),
];

/// Stores hostile keys and contents, tricky namespaces, upserts and the
/// mixed set, and returns the store's records.
async fn store_everything(d: &dyn MemoryProvider) -> Result<Vec<MemoryRecord>, Stop> {
    store_mixed(d).await?;
    for (i, (_, text)) in HOSTILE_TEXT.iter().enumerate() {
        let taint = if i % 2 == 0 {
            MemoryTaint::ExternalSync
        } else {
            MemoryTaint::Internal
        };
        d.store(
            "learning:hostile",
            text,
            text,
            MemoryCategory::Custom((*text).to_owned()),
            Some(text),
            taint,
        )
        .await
        .map_err(|e| {
            Stop::caused_by(format!("store(learning:hostile, {text:?}) failed: {e}"), &e)
        })?;
    }
    for ns in TRICKY_VALID_NAMESPACES {
        put(d, ns, "k", &format!("in {ns}")).await?;
    }
    for (key, text) in RECALLED {
        put(d, "learning:recalled", key, "a first version").await?;
        put(d, "learning:recalled", key, text).await?;
    }
    Ok(listed(d).await?)
}

pub(crate) async fn round_trip(ctx: CheckContext) -> Step {
    let source = portable(&ctx).await?;
    let want = store_everything(source.as_ref()).await?;
    let want_spaces = summaries(source.as_ref()).await?;
    let export = export_all(source.as_ref(), 7, want.len()).await?;
    if let Some(diff) = differences(&want, &export.records()) {
        return Err(Stop::fail(format!("the export is not the store: {diff}")));
    }
    let target = fresh(&ctx).await?;
    for page in &export.pages {
        import_all(target.as_ref(), page).await?;
    }
    let got = listed(target.as_ref()).await?;
    if let Some(diff) = differences(&want, &got) {
        return Err(Stop::fail(format!(
            "after export, then import into a fresh store, list(None, ..) differs from the \
             source's (every field but the driver's id is compared): {diff}"
        )));
    }
    if let Some(diff) = summary_difference(&summaries(target.as_ref()).await?, &want_spaces) {
        return Err(Stop::fail(format!(
            "namespaces() of the imported store (sorted by name) against the source's: {diff}"
        )));
    }
    for r in want
        .iter()
        .filter(|r| r.namespace == "learning:hostile")
        .take(5)
    {
        let entry = target.get(&r.namespace, &r.key).await?;
        let got = entry.and_then(MemoryRecord::from_entry);
        ensure!(
            got.as_ref() == Some(r),
            "get({}, {:?}) after the import returned {got:?}, expected {r:?}",
            r.namespace,
            r.key
        );
    }
    // Imported entries are searchable: the index is written, not just the rows.
    let opts = RecallOptions::in_namespace("learning:recalled");
    for (key, text) in RECALLED {
        let hits = target.recall(text, 3, &opts).await?;
        ensure!(
            hits.first().is_some_and(|h| h.key == key),
            "recall({text:?}) in learning:recalled of the imported store must rank {key:?} \
             first, as it does in the source; got {:?}",
            hits.iter().map(|h| &h.key).collect::<Vec<_>>()
        );
    }
    // An import over an existing key replaces what recall searches, not
    // just the row.
    let (key, old_text) = RECALLED[0];
    let changed = MemoryRecord {
        content: "granite lighthouse keeper".into(),
        ..want
            .iter()
            .find(|r| r.namespace == "learning:recalled" && r.key == key)
            .cloned()
            .ok_or_else(|| {
                Stop::fail(format!("(learning:recalled, {key:?}) is not in the export"))
            })?
    };
    import_all(target.as_ref(), std::slice::from_ref(&changed)).await?;
    let hits = target.recall(&changed.content, 3, &opts).await?;
    ensure!(
        hits.first().is_some_and(|h| h.key == key && h.content == changed.content),
        "after importing new content {:?} over {key:?}, a recall of that content must rank {key:?} \
         first with the new content; got {:?}",
        changed.content,
        hits.iter().map(|h| (&h.key, &h.content)).collect::<Vec<_>>()
    );
    if ctx.profile == RecallProfile::Lexical {
        let stale = target.recall("harbour", 3, &opts).await?;
        ensure!(
            stale.iter().all(|h| h.key != key),
            "after importing new content over {key:?}, a recall of \"harbour\", a word of its \
             old content {old_text:?} only, still finds it: the index kept the old content"
        );
    }
    // Back to the exported record, for the comparisons below.
    let original = want
        .iter()
        .find(|r| r.namespace == "learning:recalled" && r.key == key)
        .cloned()
        .ok_or_else(|| Stop::fail(format!("(learning:recalled, {key:?}) is not in the export")))?;
    import_all(target.as_ref(), &[original]).await?;
    // A second import of the same records is an upsert: nothing doubles.
    for page in &export.pages {
        import_all(target.as_ref(), page).await?;
    }
    let again = listed(target.as_ref()).await?;
    if let Some(diff) = differences(&want, &again) {
        return Err(Stop::fail(format!(
            "importing the same export a second time must upsert, changing nothing: {diff}"
        )));
    }
    if let Some(diff) = summary_difference(&summaries(target.as_ref()).await?, &want_spaces) {
        return Err(Stop::fail(format!(
            "namespaces() after importing the same export twice: {diff}"
        )));
    }
    Ok(())
}
