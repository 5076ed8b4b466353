//! Concurrency equivalence: a concurrent fan-out returns what the
//! sequential one does, whatever order the recalls finish in.

use proptest::prelude::any;
use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_doubles::{Delay, Latency, Pause};
use tinymemory_sections::Sections;

use super::data::{dataset, open_with, section_query, Across, Dataset, SectionQuery};
use super::engine::{CaseFailure, CaseResult};
use super::run::{property, require_eq, Needs};
use crate::{Check, CheckContext, Family, Profiles};

/// The most yields to the runtime before a call, drawn per call, so
/// concurrent recalls finish in shuffled orders ([`Delay::Yields`]): the
/// order is what the rule is about, and yields shuffle it as sleeps of up
/// to 4 ms did, without a second of idle wall-clock time per run.
const MAX_YIELDS: u32 = 16;

pub(crate) const CHECK: Check = Check {
    id: "properties.concurrent_equals_sequential",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description: "under random per-call latency, a concurrent across_section returns exactly what the sequential one does",
    run: |ctx| {
        Box::pin(property(
            ctx,
            CHECK.id,
            Needs::StoredData,
            (dataset(), section_query(1..=8), 2..=16_usize, any::<u64>()),
            case,
        ))
    },
};

async fn across(
    d: &dyn MemoryProvider,
    q: &SectionQuery,
    bound: usize,
) -> Result<Across, CaseFailure> {
    Sections::new(d)
        .recall()
        .with_cap(q.cap)
        .with_concurrency(bound)
        .across_section(&q.section, &q.query, q.limit, &RecallOptions::default())
        .await
        .map(|h| Across::from(&h))
        .map_err(|e| {
            CaseFailure::caused_by(format!("{q:?} with concurrency {bound} failed: {e}"), &e)
        })
}

async fn case(
    ctx: CheckContext,
    (data, q, bound, latency_seed): (Dataset, SectionQuery, usize, u64),
) -> CaseResult {
    let store = open_with(&ctx, &data.entries).await?;
    let slow = Latency::new(
        store.as_ref(),
        Pause::new(Delay::Yields {
            max: MAX_YIELDS,
            seed: latency_seed,
        }),
    );
    let sequential = across(&slow, &q, 1).await?;
    for attempt in 1..=2 {
        let concurrent = across(&slow, &q, bound).await?;
        require_eq!(
            concurrent,
            sequential,
            "{q:?} with concurrency {bound} (attempt {attempt}) against the sequential fan-out"
        );
    }
    Ok(())
}
