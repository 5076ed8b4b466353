//! Ordering: what `across_section` returns, for any stored data and any
//! query, against the driver's own per-namespace recalls.

use tinymemory_api::{Namespace, RecallOptions};
use tinymemory_sections::{compare_hits, Sections};

use super::data::{dataset, hits, open_with, section_query, Dataset, Hit, SectionQuery};
use super::engine::{CaseFailure, CaseResult};
use super::run::{property, require, require_eq, Needs};
use crate::{Check, CheckContext, Family, Profiles};

pub(crate) const CHECK: Check = Check {
    id: "properties.across_ordering",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description: "for any data and query, across_section hits obey the merge order, number min(limit, total), \
                  come from searched namespaces of the section and from their per-namespace recalls",
    run: |ctx| Box::pin(property(ctx, CHECK.id, Needs::StoredData, (dataset(), section_query(1..=8)), case)),
};

async fn case(ctx: CheckContext, (data, q): (Dataset, SectionQuery)) -> CaseResult {
    let d = open_with(&ctx, &data.entries).await?;
    let got = Sections::new(d.as_ref())
        .recall()
        .with_cap(q.cap)
        .across_section(&q.section, &q.query, q.limit, &RecallOptions::default())
        .await
        .map_err(|e| CaseFailure::caused_by(format!("{q:?} failed: {e}"), &e))?;
    for ns in &got.searched {
        require!(
            Namespace::parse(ns).is_ok_and(|n| n.is_in(&q.section)),
            "{q:?} searched {ns:?}, which is not a namespace of section {}",
            q.section
        );
    }
    for pair in got.hits.windows(2) {
        require!(
            compare_hits(&pair[0], &pair[1]).is_lt(),
            "{q:?} returned {:?} before {:?}, against the merge order (score descending, \
             absent and non-finite last, ties by namespace then key)",
            Hit::of(&pair[0]),
            Hit::of(&pair[1])
        );
    }
    // The per-namespace recalls across_section is built on, asked directly,
    // with hits lacking a namespace stamped as the section API stamps them.
    let mut union: Vec<Hit> = Vec::new();
    for ns in &got.searched {
        let direct = d
            .recall(&q.query, q.limit, &RecallOptions::in_namespace(ns.as_str()))
            .await
            .map_err(|e| {
                CaseFailure::caused_by(
                    format!("recall({:?}, {}) in {ns:?} failed: {e}", q.query, q.limit),
                    &e,
                )
            })?;
        union.extend(hits(&direct).into_iter().map(|mut h| {
            h.namespace.get_or_insert_with(|| ns.clone());
            h
        }));
    }
    require_eq!(
        got.hits.len(),
        q.limit.min(union.len()),
        "number of hits of {q:?} (the per-namespace recalls hold {})",
        union.len()
    );
    for h in hits(&got.hits) {
        require!(
            h.namespace
                .as_ref()
                .is_some_and(|ns| got.searched.contains(ns)),
            "{q:?} returned {h:?}, outside the searched namespaces {:?}",
            got.searched
        );
        require!(
            union.contains(&h),
            "{q:?} returned {h:?}, which no per-namespace recall returned (they returned {union:?})"
        );
    }
    Ok(())
}
