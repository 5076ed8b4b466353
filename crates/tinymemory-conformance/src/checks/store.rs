//! Contract sentence 1.

use tinymemory_api::{MemoryCategory, MemoryTaint};

use super::support::{fresh, put};
use crate::failure::{ensure_eq, Step};
use crate::CheckContext;

pub(crate) async fn upsert(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    put(d.as_ref(), "global", "k", "first version").await?;
    let category = MemoryCategory::Custom("projects".into());
    d.store(
        "global",
        "k",
        "second version",
        category.clone(),
        Some("session-7"),
        MemoryTaint::ExternalSync,
    )
    .await?;
    let got = d.get("global", "k").await?;
    let Some(e) = got else {
        return Err(crate::failure::Stop::fail(
            "get after two stores returned None",
        ));
    };
    ensure_eq!(e.content, "second version", "content after upsert");
    ensure_eq!(e.category, category, "category after upsert");
    ensure_eq!(
        e.session_id.as_deref(),
        Some("session-7"),
        "session after upsert"
    );
    ensure_eq!(e.taint, MemoryTaint::ExternalSync, "taint after upsert");
    ensure_eq!(e.namespace.as_deref(), Some("global"), "namespace of get");
    let listed = d.list(Some("global"), None, None).await?;
    ensure_eq!(
        listed.len(),
        1,
        "entries listed in global after two stores of one key"
    );
    let counts: Vec<_> = d
        .namespaces()
        .await?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    ensure_eq!(
        counts,
        [("global".to_owned(), 1)],
        "namespaces() after upsert"
    );
    Ok(())
}
