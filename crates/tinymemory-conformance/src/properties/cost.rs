//! Pinning and cost: `across_section` makes exactly `1 + N` provider calls,
//! each recall pinned to one visited namespace and asked for the full limit.

use std::collections::BTreeMap;

use proptest::strategy::Strategy;
use tinymemory_api::{MemoryCategory, RecallOptions};
use tinymemory_doubles::{Call, CallLog, Recording};
use tinymemory_sections::Sections;

use super::data::{dataset, open_with, section_query, Dataset, SectionQuery};
use super::engine::{CaseFailure, CaseResult};
use super::run::{property, require, require_eq, Needs};
use crate::{Check, CheckContext, Family, Profiles};

pub(crate) const CHECK: Check = Check {
    id: "properties.pinning_cost",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description: "across_section makes exactly 1 + N calls: one namespaces(), then one recall per visited namespace, \
                  pinned to it, with the full limit and the caller's other options",
    run: |ctx| {
        Box::pin(property(
            ctx,
            CHECK.id,
            Needs::StoredData,
            (dataset(), section_query(0..=8), filters()),
            case,
        ))
    },
};

/// The caller's options besides the namespace, which must reach every
/// pinned recall unchanged.
fn filters() -> impl Strategy<Value = RecallOptions, Tree: Send> {
    (0..3_usize, 0..2_usize).prop_map(|(category, session)| RecallOptions {
        namespace: None,
        category: [
            None,
            Some(MemoryCategory::Core),
            Some(MemoryCategory::Daily),
        ][category]
            .clone(),
        session_id: [None, Some("session-1".to_owned())][session].clone(),
        min_score: None,
    })
}

async fn case(
    ctx: CheckContext,
    (data, q, opts): (Dataset, SectionQuery, RecallOptions),
) -> CaseResult {
    let store = open_with(&ctx, &data.entries).await?;
    let recording = Recording::new(store.as_ref(), CallLog::new());
    let log = recording.hook().clone();
    let got = Sections::new(&recording)
        .recall()
        .with_cap(q.cap)
        .across_section(&q.section, &q.query, q.limit, &opts)
        .await
        .map_err(|e| CaseFailure::caused_by(format!("{q:?} with {opts:?} failed: {e}"), &e))?;
    let calls = log.take();
    if q.limit == 0 {
        require_eq!(
            calls,
            Vec::<Call>::new(),
            "provider calls of {q:?} (limit 0 needs none)"
        );
        return Ok(());
    }
    let visited = q.cap.min(data.section_size(&q.section));
    require_eq!(got.searched.len(), visited, "namespaces {q:?} visited");
    require_eq!(
        calls.len(),
        1 + visited,
        "provider calls of {q:?}: 1 namespaces() + {visited} recalls; the calls were {calls:?}"
    );
    require_eq!(calls[0], Call::Namespaces, "first provider call of {q:?}");
    let mut pinned: BTreeMap<String, usize> = BTreeMap::new();
    for call in &calls[1..] {
        let Call::Recall {
            query,
            limit,
            opts: asked,
        } = call
        else {
            return Err(format!(
                "{q:?} made a {} call after namespaces(): {call:?}",
                call.method()
            )
            .into());
        };
        require_eq!(query, &q.query, "query of a pinned recall");
        require_eq!(*limit, q.limit, "limit of a pinned recall (the full limit)");
        let Some(ns) = &asked.namespace else {
            return Err(format!("{q:?} made an unpinned recall (namespace None): {call:?}").into());
        };
        require_eq!(
            asked,
            &RecallOptions {
                namespace: Some(ns.clone()),
                ..opts.clone()
            },
            "options of the recall pinned to {ns:?}"
        );
        *pinned.entry(ns.clone()).or_insert(0) += 1;
    }
    let mut searched: Vec<&String> = got.searched.iter().collect();
    searched.sort();
    require!(
        pinned.values().all(|n| *n == 1) && pinned.keys().eq(searched.iter().copied()),
        "{q:?} recalled namespaces {pinned:?} (namespace: times), expected each of {:?} once",
        got.searched
    );
    Ok(())
}
