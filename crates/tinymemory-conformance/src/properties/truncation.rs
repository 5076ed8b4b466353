//! Truncation: `truncated` says namespaces were skipped, and nothing else.

use std::collections::BTreeSet;

use tinymemory_api::{MemoryProvider, Namespace, RecallOptions};
use tinymemory_sections::{Sections, MAX_SECTION_NAMESPACES};

use super::data::{dataset, open_with, section_query, Dataset, SectionQuery};
use super::engine::{CaseFailure, CaseResult};
use super::memo::Memo;
use super::run::{property, require_eq, Needs};
use crate::{Check, CheckContext, Family, Profiles};

pub(crate) const CHECK: Check = Check {
    id: "properties.truncation",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description:
        "truncated is set exactly when namespaces of the section were skipped by the cap, \
                  never because hits were cut by the limit",
    run: |ctx| {
        Box::pin(property(
            ctx,
            CHECK.id,
            Needs::StoredData,
            (dataset(), section_query(1..=8)),
            case,
        ))
    },
};

async fn case(ctx: CheckContext, (data, q): (Dataset, SectionQuery)) -> CaseResult {
    let d = open_with(&ctx, &data.entries).await?;
    // The data does not change after the write: the section recalls'
    // namespaces() is the one asked here, asked of the driver once.
    let d = Memo::new(d.as_ref());
    let listed: BTreeSet<String> = d
        .namespaces()
        .await
        .map_err(|e| CaseFailure::caused_by(format!("namespaces() failed: {e}"), &e))?
        .into_iter()
        .map(|s| s.namespace)
        .filter(|ns| Namespace::parse(ns).is_ok_and(|n| n.is_in(&q.section)))
        .collect();
    require_eq!(
        listed.len(),
        data.section_size(&q.section),
        "namespaces of section {} listed by namespaces()",
        q.section
    );
    let recall = Sections::new(&d).recall();
    let opts = RecallOptions::default();
    for cap in [q.cap, MAX_SECTION_NAMESPACES] {
        let got = recall
            .with_cap(cap)
            .across_section(&q.section, &q.query, q.limit, &opts)
            .await
            .map_err(|e| CaseFailure::caused_by(format!("{q:?} with cap {cap} failed: {e}"), &e))?;
        let skipped: Vec<&String> = listed
            .iter()
            .filter(|ns| !got.searched.contains(ns))
            .collect();
        require_eq!(
            got.truncated,
            !skipped.is_empty(),
            "truncated of {q:?} with cap {cap}, which skipped {skipped:?} and returned {} hits",
            got.hits.len()
        );
        require_eq!(
            got.searched.len(),
            cap.min(listed.len()),
            "namespaces searched by {q:?} with cap {cap}"
        );
    }
    Ok(())
}
