//! Contract sentence 1 under concurrency: no acknowledged write is lost.

use std::collections::BTreeSet;

use futures::future::join_all;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};

use super::support::fresh;
use crate::failure::{ensure, ensure_eq, Step, Stop};
use crate::CheckContext;

/// Writers running at once, all through one driver handle.
const WRITERS: usize = 8;
/// Distinct keys each writer stores, one after another.
const KEYS_PER_WRITER: usize = 25;
/// The namespace every writer writes to, so they contend for one place.
const NAMESPACE: &str = "learning:writers";

fn key(writer: usize, i: usize) -> String {
    format!("w{writer}-k{i:02}")
}

fn content(writer: usize, i: usize) -> String {
    format!("writer {writer} entry {i}")
}

/// One writer: its keys, in order; the first failed store stops it.
async fn writer(d: &dyn MemoryProvider, w: usize) -> Step {
    for i in 0..KEYS_PER_WRITER {
        d.store(
            NAMESPACE,
            &key(w, i),
            &content(w, i),
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .map_err(|e| {
            Stop::caused_by(
                format!(
                "store({NAMESPACE:?}, {:?}) by writer {w} of {WRITERS} running at once failed: {e}",
                key(w, i)
            ),
                &e,
            )
        })?;
    }
    Ok(())
}

pub(crate) async fn concurrent_writes(ctx: CheckContext) -> Step {
    let owned = fresh(&ctx).await?;
    let d: &dyn MemoryProvider = owned.as_ref();
    // `join_all` polls every writer from this one task, so their stores
    // interleave at each await point: the overlap a host with several
    // request handlers sharing one driver produces. A driver that runs its
    // I/O on other threads (SQLite's blocking pool) also runs them in
    // parallel.
    for step in join_all((0..WRITERS).map(|w| writer(d, w))).await {
        step?;
    }
    let total = WRITERS * KEYS_PER_WRITER;
    let mut missing = Vec::new();
    for w in 0..WRITERS {
        for i in 0..KEYS_PER_WRITER {
            let got = d.get(NAMESPACE, &key(w, i)).await?;
            match got {
                None => missing.push(key(w, i)),
                Some(e) => ensure_eq!(e.content, content(w, i), "content of {}", key(w, i)),
            }
        }
    }
    ensure!(
        missing.is_empty(),
        "{} of {total} stores that returned Ok are missing after {WRITERS} writers ran at once, first: {}",
        missing.len(),
        missing.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
    );
    let listed: BTreeSet<String> = d
        .list(Some(NAMESPACE), None, None)
        .await?
        .into_iter()
        .map(|e| e.key)
        .collect();
    ensure_eq!(listed.len(), total, "distinct keys listed in {NAMESPACE}");
    let counts: Vec<_> = d
        .namespaces()
        .await?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    ensure_eq!(
        counts,
        [(NAMESPACE.to_owned(), total as u64)],
        "namespaces() after {total} concurrent stores"
    );
    Ok(())
}
