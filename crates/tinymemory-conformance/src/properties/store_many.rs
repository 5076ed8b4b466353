//! The batch path under generated data: a case's entries written by one
//! `store_many` are held exactly as the same entries written by one
//! `store` each.
//!
//! Every other property writes its case's data by `store_many`, a repeated
//! `(namespace, key)` starting a new batch, and falls back to one `store`
//! per entry when a batch is refused ([`super::batch`]), so a batch fault
//! under generated data is named here, and here only. Here a batch keeps
//! its repeated keys: an upsert within one batch is what this property
//! judges.

use std::collections::BTreeMap;
use std::fmt;

use proptest::collection::vec;
use proptest::strategy::Strategy;
use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, NewEntry, RecallOptions};

use super::batch::store_each;
use super::data::{namespace, words, KEYS};
use super::engine::{CaseFailure, CaseResult};
use super::run::{property, Needs};
use crate::checks::portability::support::{differences, listed};
use crate::{Check, CheckContext, Family, Profiles};

pub(crate) const CHECK: Check = Check {
    id: "properties.store_many_matches_store",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description: "for random batches (repeated keys and equal contents included), one store_many holds \
                  what the same entries stored one store each hold: the same list(None, ..) but for \
                  timestamps (a repeated key's last entry), namespaces() counts and pinned recalls",
    run: |ctx| Box::pin(property(ctx, CHECK.id, Needs::StoredData, batch(), case)),
};

/// One entry of a generated batch: where, what, and its metadata as
/// indices (category, session), so that it shrinks towards `Core`, no
/// session and internal.
#[derive(Clone)]
struct Put {
    namespace: String,
    key: usize,
    content: String,
    category: u8,
    session: Option<u8>,
    external: bool,
}

impl Put {
    fn entry(&self) -> NewEntry {
        let category = match self.category {
            0 => MemoryCategory::Core,
            1 => MemoryCategory::Daily,
            _ => MemoryCategory::Custom("projects".into()),
        };
        NewEntry {
            namespace: self.namespace.clone(),
            key: format!("k{}", self.key),
            content: self.content.clone(),
            category,
            session_id: self.session.map(|s| format!("session-{s}")),
            taint: if self.external {
                MemoryTaint::ExternalSync
            } else {
                MemoryTaint::Internal
            },
        }
    }
}

/// `learning:a/k1 = "comet" (category 0, session None, internal)`.
impl fmt::Debug for Put {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/k{} = {:?} (category {}, session {:?}, {})",
            self.namespace,
            self.key,
            self.content,
            self.category,
            self.session,
            if self.external {
                "external_sync"
            } else {
                "internal"
            }
        )
    }
}

/// Up to 24 entries in batch order. Keys repeat (a namespace holds six),
/// so later entries upsert earlier ones within the batch, and contents
/// repeat (one to three words of five), so a batch often holds one text
/// twice. Shrinks by dropping entries, then towards the first namespace,
/// key, word and the default metadata.
fn batch() -> impl Strategy<Value = Vec<Put>, Tree: Send> {
    let put = (
        namespace(),
        0..KEYS,
        words(1..=3),
        0..3_u8,
        proptest::option::of(0..2_u8),
        proptest::bool::weighted(0.25),
    )
        .prop_map(
            |(namespace, key, content, category, session, external)| Put {
                namespace,
                key,
                content,
                category,
                session,
                external,
            },
        );
    vec(put, 1..=24)
}

/// What a store holds, compared between the two paths: every record of
/// `list(None, ..)` sorted by `(namespace, key)`, timestamps left out (a
/// batch stamps the time of its call, each `store` its own).
async fn held(d: &dyn MemoryProvider, path: &str) -> Result<Vec<MemoryRecord>, CaseFailure> {
    let mut records = listed(d).await.map_err(|e| {
        CaseFailure::caused_by(format!("list(None, ..) after {path} failed: {e}"), &e)
    })?;
    for r in &mut records {
        r.timestamp = String::new();
    }
    records.sort_by(|a, b| (&a.namespace, &a.key).cmp(&(&b.namespace, &b.key)));
    Ok(records)
}

/// `namespaces()` as `(namespace, count)`, sorted by name.
async fn counts(d: &dyn MemoryProvider, path: &str) -> Result<Vec<(String, u64)>, CaseFailure> {
    let mut all: Vec<(String, u64)> = d
        .namespaces()
        .await
        .map_err(|e| CaseFailure::caused_by(format!("namespaces() after {path} failed: {e}"), &e))?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    all.sort();
    Ok(all)
}

/// The `(key, content)` hits of a recall of `query` pinned to `ns`, asked
/// for every entry the namespace holds, sorted: which entries the index
/// finds, whatever order ties come in.
async fn found(
    d: &dyn MemoryProvider,
    path: &str,
    ns: &str,
    query: &str,
    limit: usize,
) -> Result<Vec<(String, String)>, CaseFailure> {
    let mut hits: Vec<(String, String)> = d
        .recall(query, limit, &RecallOptions::in_namespace(ns))
        .await
        .map_err(|e| {
            CaseFailure::caused_by(
                format!("recall({query:?}, {limit}) in {ns} after {path} failed: {e}"),
                &e,
            )
        })?
        .into_iter()
        .map(|e| (e.key, e.content))
        .collect();
    hits.sort();
    Ok(hits)
}

async fn case(ctx: CheckContext, puts: Vec<Put>) -> CaseResult {
    let entries: Vec<NewEntry> = puts.iter().map(Put::entry).collect();
    let batched = ctx.fresh().await?;
    let single = ctx.fresh().await?;
    let stored_one_by_one = store_each(single.as_ref(), &entries).await;
    match (batched.store_many(&entries).await, stored_one_by_one) {
        (Ok(()), Ok(())) => {}
        // Both paths refuse the data: a fault of `store`, which other
        // checks name, and no difference between the paths.
        (Err(_), Err(_)) => return Ok(()),
        (Err(e), Ok(())) => {
            return Err(CaseFailure::caused_by(
                format!(
                    "store_many of the case's {} entries failed: {e}; the same entries, one store \
                     each in the batch's order, were accepted: a batch must store what those \
                     stores would",
                    entries.len()
                ),
                &e,
            ))
        }
        (Ok(()), Err(refused)) => {
            return Err(format!(
                "store_many of the case's {} entries was accepted, but one store each refused \
                 one of them: {}",
                entries.len(),
                refused.message
            )
            .into())
        }
    }
    let path = format!("store_many of the case's {} entries", entries.len());
    let want = held(single.as_ref(), "the stores one by one").await?;
    let got = held(batched.as_ref(), &path).await?;
    if let Some(diff) = differences(&want, &got) {
        return Err(format!(
            "after {path}, list(None, ..) differs from the same entries stored one store each \
             (timestamps aside; a repeated key keeps its last entry): {diff}"
        )
        .into());
    }
    let (want_counts, got_counts) = (
        counts(single.as_ref(), "the stores one by one").await?,
        counts(batched.as_ref(), &path).await?,
    );
    if got_counts != want_counts {
        return Err(format!(
            "after {path}, namespaces() gives {got_counts:?}, and {want_counts:?} after the same \
             entries stored one store each"
        )
        .into());
    }
    // The last text written to each namespace, recalled there for every
    // entry it holds: what the batch's index finds, against the stores'.
    let mut last: BTreeMap<&str, &str> = BTreeMap::new();
    for e in &entries {
        last.insert(&e.namespace, &e.content);
    }
    for (ns, query) in last {
        let limit = want_counts
            .iter()
            .find(|(n, _)| n == ns)
            .map_or(1, |(_, c)| usize::try_from(*c).unwrap_or(usize::MAX));
        let want = found(single.as_ref(), "the stores one by one", ns, query, limit).await?;
        let got = found(batched.as_ref(), &path, ns, query, limit).await?;
        if got != want {
            return Err(format!(
                "after {path}, recall({query:?}, {limit}) in {ns} finds {got:?} (key, content), \
                 and {want:?} after the same entries stored one store each"
            )
            .into());
        }
    }
    Ok(())
}
