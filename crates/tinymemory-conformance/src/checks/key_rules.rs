//! Contract sentence 12: a key the contract refuses is refused on every
//! method that takes one, naming the rule, and nothing is stored or
//! forgotten by the refused call; a key at the limit is not refused.

use std::fmt::Debug;

use tinymemory_api::{MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, NewEntry};

use super::support::{fresh, keys, put};
use crate::failure::{ensure_eq, Step, Stop};
use crate::hostile::{invalid_keys, limit_keys};
use crate::CheckContext;

const NS: &str = "keys";
/// A valid entry stored first: a refused `forget` must leave it, and a
/// refused write must add nothing beside it.
const KEPT: &str = "kept";

/// `Ok` when `answer` is [`MemoryError::Invalid`] naming `rule`.
fn refused<T: Debug>(method: &str, name: &str, rule: &str, answer: Result<T, MemoryError>) -> Step {
    match answer {
        Err(MemoryError::Invalid { rule: got, .. }) if got == rule => Ok(()),
        Err(e) => Err(Stop::caused_by(
            format!(
                "{method} with {name} must be refused as invalid input naming rule {rule}, got: {e}"
            ),
            &e,
        )),
        Ok(v) => Err(Stop::fail(format!(
            "{method} with {name} returned Ok({v:?}), expected MemoryError::Invalid with rule \
             {rule}: a key no store can hold is refused by every method that takes a key, as an \
             invalid namespace is, not answered as absent"
        ))),
    }
}

/// `namespaces()` as `(namespace, count)`, sorted (its order is
/// unspecified).
async fn counts(d: &dyn MemoryProvider) -> Result<Vec<(String, u64)>, Stop> {
    let mut counts: Vec<_> = d
        .namespaces()
        .await?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    counts.sort();
    Ok(counts)
}

pub(crate) async fn invalid_refused(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    put(d.as_ref(), NS, KEPT, "stored before the refusals").await?;
    // What the store held before, compared whole after: a driver that
    // keeps nothing (the null double) holds nothing either time.
    let kept = d.get(NS, KEPT).await?;
    let listed = d.list(None, None, None).await?;
    let summaries = counts(d.as_ref()).await?;
    for (name, key, rule) in invalid_keys() {
        let stored = d
            .store(
                NS,
                &key,
                "text",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await;
        refused("store", name, rule, stored)?;
        let batch = [
            NewEntry::new(NS, "valid in the batch", "before the invalid key"),
            NewEntry::new(NS, key.as_str(), "text"),
        ];
        refused("store_many", name, rule, d.store_many(&batch).await)?;
        refused("get", name, rule, d.get(NS, &key).await)?;
        refused("forget", name, rule, d.forget(NS, &key).await)?;
    }
    ensure_eq!(
        d.get(NS, KEPT).await?,
        kept,
        "get({NS:?}, {KEPT:?}), stored before the refused calls"
    );
    let after = d.list(None, None, None).await?;
    ensure_eq!(
        keys(&after),
        keys(&listed),
        "the keys of list(None), before and after the refused calls"
    );
    ensure_eq!(
        after,
        listed,
        "list(None), before and after the refused calls"
    );
    ensure_eq!(
        counts(d.as_ref()).await?,
        summaries,
        "namespaces() as (namespace, count), before and after the refused calls"
    );
    Ok(())
}

/// The namespace the keys at the limit are batch-written to: apart from
/// [`NS`], so the batch adds entries rather than upserting (a duplicating
/// upsert is `store.upsert`'s to find).
const BATCH_NS: &str = "keys-batch";

/// `get(namespace, key)` as `(key, content)`: what a store holding `key`
/// must answer, byte for byte.
async fn held(
    d: &dyn MemoryProvider,
    namespace: &str,
    key: &str,
) -> Result<Option<(String, String)>, Stop> {
    Ok(d.get(namespace, key).await?.map(|e| (e.key, e.content)))
}

/// The keys of `list(namespace)`, which must be `want` (sorted).
async fn listed(d: &dyn MemoryProvider, namespace: &str, want: &[&str]) -> Step {
    let listed = d.list(Some(namespace), None, None).await?;
    ensure_eq!(
        keys(&listed),
        want,
        "the keys of list({namespace:?}) after writing each key at the limit there"
    );
    Ok(())
}

pub(crate) async fn limit_accepted(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    let limit = limit_keys();
    let mut want: Vec<&str> = limit.iter().map(|(_, key)| key.as_str()).collect();
    want.sort_unstable();
    for (name, key) in &limit {
        d.store(
            NS,
            key,
            name,
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .map_err(|e| Stop::caused_by(format!("store with {name} (a valid key) failed: {e}"), &e))?;
        ensure_eq!(
            held(d.as_ref(), NS, key).await?,
            Some((key.clone(), (*name).to_owned())),
            "get with {name}, after its store"
        );
    }
    listed(d.as_ref(), NS, &want).await?;
    let batch: Vec<NewEntry> = limit
        .iter()
        .map(|(name, key)| NewEntry::new(BATCH_NS, key.as_str(), *name))
        .collect();
    d.store_many(&batch).await.map_err(|e| {
        Stop::caused_by(
            format!("store_many of the keys at the limit (valid keys) failed: {e}"),
            &e,
        )
    })?;
    listed(d.as_ref(), BATCH_NS, &want).await?;
    for (name, key) in &limit {
        ensure_eq!(
            held(d.as_ref(), BATCH_NS, key).await?,
            Some((key.clone(), (*name).to_owned())),
            "get with {name}, after its store_many"
        );
        for namespace in [NS, BATCH_NS] {
            ensure_eq!(
                d.forget(namespace, key).await?,
                true,
                "forget({namespace:?}) with {name}, stored"
            );
            ensure_eq!(
                held(d.as_ref(), namespace, key).await?,
                None,
                "get({namespace:?}) with {name}, after its forget"
            );
        }
    }
    Ok(())
}
