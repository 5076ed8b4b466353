//! NullDriver.

use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_doubles::NullDriver;

use crate::support::put;

#[tokio::test]
async fn keeps_nothing_and_succeeds() {
    let d = NullDriver::new();
    assert_eq!(d.driver_id(), "null");
    put(&d, "learning:x", "k", "rust").await;
    put(&d, "global", "k", "rust").await;
    assert_eq!(d.get("learning:x", "k").await, Ok(None));
    assert_eq!(d.forget("learning:x", "k").await, Ok(false));
    assert_eq!(d.list(None, None, None).await, Ok(vec![]));
    assert_eq!(d.list(Some("global"), None, None).await, Ok(vec![]));
    assert_eq!(d.namespaces().await, Ok(vec![]));
    assert_eq!(
        d.recall("rust", 10, &RecallOptions::default()).await,
        Ok(vec![])
    );
    let pinned = RecallOptions::in_namespace("learning:x");
    assert_eq!(d.recall("\"(*", 10, &pinned).await, Ok(vec![]));
}

#[tokio::test]
async fn still_refuses_invalid_input() {
    let d = NullDriver;
    let store = d
        .store(
            "a b",
            "k",
            "c",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await;
    assert_eq!(store.unwrap_err().rule(), Some(rules::NAMESPACE_CHARSET));
    let key = d
        .store(
            "global",
            "",
            "c",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await;
    assert_eq!(key.unwrap_err().rule(), Some(rules::KEY_EMPTY));
    assert_eq!(
        d.get("", "k").await.unwrap_err().rule(),
        Some(rules::NAMESPACE_EMPTY)
    );
    assert_eq!(
        d.forget("/x", "k").await.unwrap_err().rule(),
        Some(rules::NAMESPACE_EDGE_SLASH)
    );
    assert_eq!(
        d.list(Some("a/../b"), None, None).await.unwrap_err().rule(),
        Some(rules::NAMESPACE_DOT_DOT)
    );
    let scope = RecallOptions::in_namespace("learning:");
    assert_eq!(
        d.recall("x", 1, &scope).await.unwrap_err().rule(),
        Some(rules::SCOPE_EMPTY)
    );
    let nan = RecallOptions {
        min_score: Some(f64::NAN),
        ..RecallOptions::default()
    };
    assert_eq!(
        d.recall("x", 1, &nan).await.unwrap_err().rule(),
        Some(rules::MIN_SCORE_NOT_FINITE)
    );
}
