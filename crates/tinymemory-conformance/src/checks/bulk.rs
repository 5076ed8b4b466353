//! The bulk store: `store_many` keeps every entry of a batch as the same
//! `store`s would, a later entry of a key wins, and a batch with an invalid
//! entry stores nothing.

use std::time::SystemTime;

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, NewEntry, RecallOptions};

use super::metadata::{parse, CLOCK_SKEW};
use super::portability::support::{differences, listed};
use super::support::fresh;
use crate::failure::{ensure, ensure_eq, Step, Stop};
use crate::CheckContext;

const NS: &str = "learning:bulk";

fn batch() -> Vec<NewEntry> {
    vec![
        NewEntry::new(NS, "a", "comet tail over the harbour"),
        NewEntry::new(NS, "b", "first version of b")
            .with_category(MemoryCategory::Custom("projects".into()))
            .with_session("session-1"),
        NewEntry::new("global", "c", "granite quarry").with_taint(MemoryTaint::ExternalSync),
        NewEntry::new(NS, "b", "lighthouse keeper the later b")
            .with_category(MemoryCategory::Daily)
            .with_taint(MemoryTaint::ExternalSync),
        // Ends in a line break, kept as a store keeps it.
        NewEntry::new(NS, "d", "harbour lights at dawn\n")
            .with_category(MemoryCategory::Conversation),
    ]
}

/// What `list` must show after [`batch`]: the later `b`, in
/// `(namespace, key)` order (timestamps taken from `got`).
fn expected(got: &[MemoryRecord]) -> Vec<MemoryRecord> {
    let mut want: Vec<MemoryRecord> = [0, 2, 3, 4]
        .into_iter()
        .map(|i| {
            let e = &batch()[i];
            MemoryRecord {
                namespace: e.namespace.clone(),
                key: e.key.clone(),
                content: e.content.clone(),
                category: e.category.clone(),
                session_id: e.session_id.clone(),
                taint: e.taint,
                timestamp: got
                    .iter()
                    .find(|g| g.namespace == e.namespace && g.key == e.key)
                    .map_or_else(String::new, |g| g.timestamp.clone()),
            }
        })
        .collect();
    want.sort_by(|a, b| (&a.namespace, &a.key).cmp(&(&b.namespace, &b.key)));
    want
}

async fn refused(d: &dyn MemoryProvider, entries: &[NewEntry], index: usize, rule: &str) -> Step {
    let before = listed(d).await?;
    match d.store_many(entries).await {
        Err(e) if e.rule() == Some(rule) => {}
        Err(e) => {
            return Err(Stop::caused_by(
                format!(
                "store_many of {} entries, entry {index} invalid, must be refused as invalid with \
                 rule {rule}; got: {e}",
                entries.len()
            ),
                &e,
            ))
        }
        Ok(()) => {
            return Err(Stop::fail(format!(
                "store_many of {} entries returned Ok although entry {index} breaks rule {rule}",
                entries.len()
            )))
        }
    }
    let after = listed(d).await?;
    if let Some(diff) = differences(&before, &after) {
        return Err(Stop::fail(format!(
            "store_many refused a batch for entry {index} (rule {rule}), yet the store changed: \
             nothing of a refused batch is stored: {diff}"
        )));
    }
    Ok(())
}

pub(crate) async fn store_many(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    d.store_many(&[]).await?;
    ensure_eq!(
        listed(d.as_ref()).await?.len(),
        0,
        "entries after an empty store_many"
    );

    let start = SystemTime::now();
    d.store_many(&batch()).await?;
    let end = SystemTime::now();
    let got = listed(d.as_ref()).await?;
    if let Some(diff) = differences(&expected(&got), &got) {
        return Err(Stop::fail(format!(
            "after store_many of 5 entries (the 2nd and 4th at the same key, the later wins), \
             list(None, ..): {diff}"
        )));
    }
    for r in &got {
        let t = parse(
            &format!("the timestamp of {}/{}", r.namespace, r.key),
            &r.timestamp,
        )?;
        ensure!(
            t + CLOCK_SKEW >= start && t <= end + CLOCK_SKEW,
            "the timestamp of {}/{} is {:?}, but the store_many ran between {} and {}: a bulk \
             store stamps its entries with the time of the call",
            r.namespace,
            r.key,
            r.timestamp,
            humantime::format_rfc3339_micros(start),
            humantime::format_rfc3339_micros(end)
        );
    }
    let spaces: Vec<(String, u64)> = super::portability::support::summaries(d.as_ref())
        .await?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    ensure_eq!(
        spaces,
        vec![("global".to_owned(), 1), (NS.to_owned(), 3)],
        "namespaces() after the bulk store (sorted by name)"
    );
    // The index is written as a store would write it.
    let opts = RecallOptions::in_namespace(NS);
    let hits = d.recall("lighthouse keeper the later b", 3, &opts).await?;
    ensure!(
        hits.first().is_some_and(|h| h.key == "b"),
        "recall of the later b's own content in {NS} must rank b first; got {:?}",
        hits.iter().map(|h| &h.key).collect::<Vec<_>>()
    );
    if ctx.profile == tinymemory_api::RecallProfile::Lexical {
        let stale = d.recall("version", 3, &opts).await?;
        ensure!(
            stale.iter().all(|h| h.key != "b"),
            "recall(\"version\"), a word of the earlier b of the same batch only, finds b: the \
             index holds an entry the later one replaced"
        );
    }

    // One invalid entry refuses the batch, whatever its position.
    let mut bad_key = batch();
    bad_key[2] = NewEntry::new(NS, "", "empty key");
    refused(d.as_ref(), &bad_key, 2, rules::KEY_EMPTY).await?;
    let mut bad_ns = batch();
    bad_ns.push(NewEntry::new("has space", "k", "bad namespace"));
    refused(d.as_ref(), &bad_ns, 5, rules::NAMESPACE_CHARSET).await?;
    let mut long_key = batch();
    long_key.insert(0, NewEntry::new(NS, "k".repeat(1025), "too long"));
    refused(d.as_ref(), &long_key, 0, rules::KEY_TOO_LONG).await
}
