//! Import keeps every field, taint first; it takes any content the store
//! takes; and it refuses bad records one by one.

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};

use super::support::{differences, export_all, import_all, listed, portable, unsupported};
use crate::failure::{ensure, ensure_eq, Step, Stop};
use crate::hostile::{big_content, HOSTILE_TEXT};
use crate::CheckContext;

/// A record with every field given, and a timestamp no driver would write
/// now.
fn record(namespace: &str, key: &str, content: &str, taint: MemoryTaint) -> MemoryRecord {
    MemoryRecord {
        namespace: namespace.to_owned(),
        key: key.to_owned(),
        content: content.to_owned(),
        category: MemoryCategory::Custom("synced".into()),
        session_id: Some("session-9".into()),
        taint,
        timestamp: "2021-03-04T05:06:07.891011Z".into(),
    }
}

async fn got(d: &dyn MemoryProvider, r: &MemoryRecord) -> Result<Option<MemoryRecord>, Stop> {
    Ok(d.get(&r.namespace, &r.key)
        .await?
        .and_then(MemoryRecord::from_entry))
}

pub(crate) async fn taint_kept(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    let synced = record(
        "learning:taint",
        "synced",
        "pulled from a wiki",
        MemoryTaint::ExternalSync,
    );
    let own = record(
        "learning:taint",
        "own",
        "written by the agent",
        MemoryTaint::Internal,
    );
    import_all(d.as_ref(), &[synced.clone(), own.clone()]).await?;
    for r in [&synced, &own] {
        let back = got(d.as_ref(), r).await?;
        ensure!(
            back.as_ref() == Some(r),
            "get after import of {:?} (taint {}) returned {back:?}: import keeps every field, \
             taint and timestamp included",
            r.key,
            r.taint
        );
    }
    let hits = d
        .recall("wiki", 5, &RecallOptions::in_namespace("learning:taint"))
        .await?;
    if let Some(h) = hits.iter().find(|h| h.key == "synced") {
        ensure_eq!(
            h.taint,
            MemoryTaint::ExternalSync,
            "taint of the imported synced entry in a recall"
        );
    }
    // Exported and imported again into a fresh store, ExternalSync stays.
    let export = export_all(d.as_ref(), 10, 2).await?;
    let fresh = crate::checks::support::fresh(&ctx).await?;
    for page in &export.pages {
        import_all(fresh.as_ref(), page).await?;
    }
    let back = got(fresh.as_ref(), &synced).await?;
    ensure_eq!(
        back.map(|r| r.taint),
        Some(MemoryTaint::ExternalSync),
        "taint of an ExternalSync entry exported and imported into a fresh store"
    );
    // Timestamps are kept byte for byte whatever their RFC 3339 spelling,
    // and an older one replaces a newer one: an import restores the
    // record as it was, it does not keep the newest.
    for timestamp in [
        "2020-01-01T00:00:00Z",
        "2019-05-06T07:08:09.5Z",
        "2001-02-03T04:05:06.000000Z",
    ] {
        let older = MemoryRecord {
            timestamp: timestamp.into(),
            ..synced.clone()
        };
        import_all(d.as_ref(), std::slice::from_ref(&older)).await?;
        let back = got(d.as_ref(), &older).await?;
        ensure_eq!(
            back.map(|r| r.timestamp),
            Some(timestamp.to_owned()),
            "timestamp of {:?} after importing it with timestamp {timestamp:?} over a newer one \
             (an import keeps the record's timestamp byte for byte)",
            older.key
        );
    }
    // An import is an upsert: the record's taint replaces the stored one.
    let trusted = MemoryRecord {
        taint: MemoryTaint::Internal,
        ..synced.clone()
    };
    import_all(d.as_ref(), std::slice::from_ref(&trusted)).await?;
    ensure_eq!(
        got(d.as_ref(), &synced).await?.map(|r| r.taint),
        Some(MemoryTaint::Internal),
        "taint after importing the same key again as Internal"
    );
    // The records of one import are upserts in order too: of two records
    // of one key, the later is what the store holds.
    let later = MemoryRecord {
        content: "pulled again, edited".into(),
        taint: MemoryTaint::ExternalSync,
        ..synced.clone()
    };
    import_all(d.as_ref(), &[trusted.clone(), later.clone()]).await?;
    let back = got(d.as_ref(), &later).await?;
    ensure!(
        back.as_ref() == Some(&later),
        "get after one import of two records of {:?} (content {:?} then {:?}) returned {back:?}: \
         an import writes its records as upserts, in order, so the later one wins",
        later.key,
        trusted.content,
        later.content
    );
    // Every field with a default, over a record holding other values: the
    // defaults replace them (custom:synced, session-9, external_sync).
    let (category, session, taint) = crate::checks::metadata::DEFAULTS;
    let defaults = MemoryRecord {
        key: "defaults".into(),
        ..synced.clone()
    };
    import_all(d.as_ref(), std::slice::from_ref(&defaults)).await?;
    let plain = MemoryRecord {
        category,
        session_id: session.map(str::to_owned),
        taint,
        ..defaults.clone()
    };
    import_all(d.as_ref(), std::slice::from_ref(&plain)).await?;
    let back = got(d.as_ref(), &plain).await?.ok_or_else(|| {
        Stop::fail(format!(
            "get({}, \"defaults\") after importing it twice returned None",
            plain.namespace
        ))
    })?;
    if let Some(m) = crate::checks::metadata::defaults_kept(
        "import",
        &format!("({}, \"defaults\")", plain.namespace),
        "custom:synced, session-9, external_sync",
        (&back.category, back.session_id.as_deref(), back.taint),
    ) {
        return Err(Stop::fail(m));
    }
    Ok(())
}

pub(crate) async fn import_hostile(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    let mut records: Vec<MemoryRecord> = HOSTILE_TEXT
        .iter()
        .map(|(_, text)| record("learning:hostile", text, text, MemoryTaint::Internal))
        .collect();
    records.push(record(
        "learning:big",
        "big",
        &big_content(),
        MemoryTaint::ExternalSync,
    ));
    import_all(d.as_ref(), &records).await?;
    for r in &records {
        let back = got(d.as_ref(), r).await?;
        ensure!(
            back.as_ref() == Some(r),
            "get({}, {:?}) after importing it returned {}: contents are kept byte for byte",
            r.namespace,
            r.key,
            match &back {
                None => "nothing".to_owned(),
                Some(b) if b.content != r.content => format!(
                    "a content of {} bytes (expected {})",
                    b.content.len(),
                    r.content.len()
                ),
                Some(b) => format!("{b:?}"),
            }
        );
    }
    let mut want = records.clone();
    want.sort_by(|a, b| (&a.namespace, &a.key).cmp(&(&b.namespace, &b.key)));
    let export = export_all(d.as_ref(), 4, want.len()).await?;
    if let Some(diff) = differences(&want, &export.records()) {
        return Err(Stop::fail(format!(
            "the export of the imported hostile records: {diff}"
        )));
    }
    let hits = d
        .recall("机", 5, &RecallOptions::in_namespace("learning:big"))
        .await?;
    let Some(hit) = hits.iter().find(|h| h.key == "big") else {
        return Err(Stop::fail(
            "recall(\"机\") in learning:big does not find the imported 1 MiB content holding that word",
        ));
    };
    ensure!(
        hit.content == big_content(),
        "recall(\"机\") in learning:big gives the imported 1 MiB content as {} bytes (expected {}): \
         a hit is the entry as stored, its whole content, not a snippet",
        hit.content.len(),
        big_content().len()
    );
    Ok(())
}

pub(crate) async fn import_failures(ctx: CheckContext) -> Step {
    let d = portable(&ctx).await?;
    let good = |key: &str| {
        record(
            "learning:import",
            key,
            "a valid record",
            MemoryTaint::Internal,
        )
    };
    let batch = vec![
        good("a"),
        record("has space", "k", "bad namespace", MemoryTaint::Internal),
        good("b"),
        record("learning:import", "", "empty key", MemoryTaint::Internal),
        MemoryRecord {
            timestamp: "yesterday".into(),
            ..good("c")
        },
        good("d"),
        record(
            &"n".repeat(201),
            "k",
            "namespace too long",
            MemoryTaint::Internal,
        ),
        MemoryRecord {
            key: "k".repeat(1025),
            ..good("e")
        },
        // RFC 3339 (5.7): a leap second only at 23:59:60 UTC on a
        // month's last day.
        MemoryRecord {
            timestamp: "2020-01-15T23:59:60Z".into(),
            ..good("f")
        },
    ];
    let outcome = d.import(&batch).await.map_err(unsupported)?;
    let failed: Vec<(usize, Option<&str>)> = outcome
        .failures
        .iter()
        .map(|f| (f.index, f.error.rule()))
        .collect();
    ensure_eq!(
        failed,
        vec![
            (1, Some(rules::NAMESPACE_CHARSET)),
            (3, Some(rules::KEY_EMPTY)),
            (4, Some(rules::IMPORT_TIMESTAMP)),
            (6, Some(rules::NAMESPACE_TOO_LONG)),
            (7, Some(rules::KEY_TOO_LONG)),
            (8, Some(rules::IMPORT_TIMESTAMP)),
        ],
        "(index, rule) of each refused record of a batch of 9, the last a leap second on a day \
         that has none (import reports each bad record with the rule it breaks, and writes the \
         others)"
    );
    for f in &outcome.failures {
        ensure!(
            f.error.is_invalid(),
            "record {} was refused as {} rather than invalid: {}",
            f.index,
            f.error.kind(),
            f.error
        );
        let r = &batch[f.index];
        ensure!(
            f.namespace == r.namespace && f.key == r.key,
            "the failure of record {} names ({:?}, {:?}), not the record's own ({:?}, {:?})",
            f.index,
            f.namespace,
            f.key,
            r.namespace,
            r.key
        );
    }
    ensure_eq!(
        outcome.imported,
        3,
        "records reported imported out of 3 valid ones"
    );
    let want = vec![good("a"), good("b"), good("d")];
    let stored = listed(d.as_ref()).await?;
    if let Some(diff) = differences(&want, &stored) {
        return Err(Stop::fail(format!(
            "after an import of 3 valid and 6 invalid records, the store must hold exactly the \
             3 valid ones: {diff}"
        )));
    }
    let empty = d.import(&[]).await.map_err(unsupported)?;
    ensure_eq!(
        (empty.imported, empty.failures.len()),
        (0, 0),
        "(imported, failures) of an empty import"
    );
    Ok(())
}
