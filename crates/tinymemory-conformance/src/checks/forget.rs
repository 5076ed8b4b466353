//! Contract sentence 10.

use tinymemory_api::RecallOptions;

use super::support::{fresh, keys, put};
use crate::failure::{ensure, ensure_eq, Step};
use crate::CheckContext;

pub(crate) async fn idempotent(ctx: CheckContext) -> Step {
    let d = fresh(&ctx).await?;
    put(d.as_ref(), "global", "gone", "ephemeral memory").await?;
    put(d.as_ref(), "global", "kept", "ephemeral other").await?;
    ensure_eq!(
        d.forget("global", "gone").await?,
        true,
        "first forget of a stored key"
    );
    ensure_eq!(
        d.forget("global", "gone").await?,
        false,
        "second forget of the same key"
    );
    ensure_eq!(
        d.forget("global", "never").await?,
        false,
        "forget of a key never stored"
    );
    ensure!(
        d.get("global", "gone").await?.is_none(),
        "get found a forgotten entry"
    );
    let listed = d.list(Some("global"), None, None).await?;
    ensure_eq!(keys(&listed), ["kept"], "list after forget");
    let counts: Vec<_> = d
        .namespaces()
        .await?
        .into_iter()
        .map(|s| (s.namespace, s.count))
        .collect();
    ensure_eq!(
        counts,
        [("global".to_owned(), 1)],
        "namespaces() after forget"
    );
    let hits = d.recall("ephemeral", 10, &RecallOptions::default()).await?;
    ensure_eq!(keys(&hits), ["kept"], "recall after forget");
    d.forget("global", "kept").await?;
    ensure_eq!(
        d.namespaces().await?,
        Vec::new(),
        "namespaces() once the last entry is forgotten"
    );
    Ok(())
}
