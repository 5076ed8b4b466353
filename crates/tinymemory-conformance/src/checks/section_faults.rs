//! Section API rules a driver can break: the section API must refuse a
//! driver's fault with an error, and a conforming driver never triggers one.

use tinymemory_api::{MemoryCategory, MemoryError, MemorySection, MemoryTaint, RecallOptions};
use tinymemory_sections::{SectionHits, Sections};

use super::support::{fresh, put};
use crate::failure::{ensure_eq, Step, Stop};
use crate::CheckContext;

/// The hits as sorted `(namespace, key)` pairs.
fn pairs(hits: &SectionHits) -> Vec<(String, String)> {
    let mut v: Vec<_> = hits
        .hits
        .iter()
        .map(|h| (h.namespace.clone().unwrap_or_default(), h.key.clone()))
        .collect();
    v.sort();
    v
}

fn pair(ns: &str, key: &str) -> (String, String) {
    (ns.to_owned(), key.to_owned())
}

/// A failed `across_section`, worded by what the section API reported: a
/// backend error there is the section API refusing a driver fault.
fn across_failed(query: &str, e: &MemoryError) -> Stop {
    match e {
        MemoryError::Backend { .. } => Stop::caused_by(
            format!("across_section(learning, {query:?}) reported a driver fault: {e}"),
            e,
        ),
        _ => Stop::caused_by(
            format!("across_section(learning, {query:?}) failed: {e}"),
            e,
        ),
    }
}

pub(crate) async fn pinned_hits_only(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    // Each name extends the one before it, so a driver matching the pinned
    // namespace as a prefix (or a pattern) answers with its neighbours'
    // entries.
    let data = [
        ("learning:ru", "k1", "borrow rules"),
        ("learning:rust", "k2", "borrow checker"),
        ("learning:rust-async", "k3", "borrow across await"),
        ("learning:rust/tokio", "k4", "borrow in tasks"),
        ("conversation:rust", "k5", "borrow in another section"),
    ];
    for (ns, key, text) in data {
        put(d.as_ref(), ns, key, text).await?;
    }
    let got = Sections::new(d.as_ref())
        .recall()
        .across_section(
            &MemorySection::Learning,
            "borrow",
            10,
            &RecallOptions::default(),
        )
        .await
        .map_err(|e| across_failed("borrow", &e))?;
    ensure_eq!(
        got.searched,
        [
            "learning:ru",
            "learning:rust",
            "learning:rust-async",
            "learning:rust/tokio"
        ],
        "namespaces searched"
    );
    ensure_eq!(
        pairs(&got),
        [
            pair("learning:ru", "k1"),
            pair("learning:rust", "k2"),
            pair("learning:rust-async", "k3"),
            pair("learning:rust/tokio", "k4"),
        ],
        "hits of across_section(learning, \"borrow\")"
    );
    // Keys are unique, so they say where each hit came from (whether the
    // hit names its namespace is `recall.hit_namespace`'s business).
    for (ns, key, _) in data {
        let hits = d
            .recall("borrow", 10, &RecallOptions::in_namespace(ns))
            .await?;
        let got: Vec<&str> = hits.iter().map(|h| h.key.as_str()).collect();
        ensure_eq!(got, [key], "keys recalled by \"borrow\" pinned to {ns:?}");
    }
    Ok(())
}

pub(crate) async fn namespaces_listed_once(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    // One namespace mixes categories and sessions, so a driver grouping
    // namespaces() by more than the name lists it more than once.
    for (key, category, session) in [
        ("k1", MemoryCategory::Core, None),
        ("k2", MemoryCategory::Daily, Some("session-1")),
        (
            "k3",
            MemoryCategory::Custom("projects".into()),
            Some("session-2"),
        ),
        ("k4", MemoryCategory::Conversation, Some("session-1")),
    ] {
        d.store(
            "learning:mixed",
            key,
            "a mixed note",
            category,
            session,
            MemoryTaint::Internal,
        )
        .await?;
    }
    put(d.as_ref(), "learning:plain", "k5", "a plain note").await?;
    let sections = Sections::new(d.as_ref());
    let got = sections
        .recall()
        .across_section(
            &MemorySection::Learning,
            "note",
            10,
            &RecallOptions::default(),
        )
        .await
        .map_err(|e| across_failed("note", &e))?;
    ensure_eq!(
        got.searched,
        ["learning:mixed", "learning:plain"],
        "namespaces searched"
    );
    ensure_eq!(
        pairs(&got),
        [
            pair("learning:mixed", "k1"),
            pair("learning:mixed", "k2"),
            pair("learning:mixed", "k3"),
            pair("learning:mixed", "k4"),
            pair("learning:plain", "k5"),
        ],
        "hits of across_section(learning, \"note\")"
    );
    let scopes: Vec<_> = sections
        .learnings()
        .scopes()
        .await?
        .into_iter()
        .map(|s| (s.scope, s.count))
        .collect();
    ensure_eq!(
        scopes,
        [("mixed".to_owned(), 4), ("plain".to_owned(), 1)],
        "learnings().scopes()"
    );
    Ok(())
}
