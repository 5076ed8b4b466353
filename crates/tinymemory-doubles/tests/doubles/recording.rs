//! Recording and CallLog.

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_doubles::{Call, CallLog, Method, Recording};
use tinymemory_reference::ReferenceDriver;

use crate::support::put;

#[tokio::test]
async fn records_every_call_with_its_arguments_in_order() {
    let d = Recording::new(ReferenceDriver::new(), CallLog::new());
    let log = d.hook().clone();
    d.store(
        "learning:a",
        "k",
        "rust",
        MemoryCategory::Daily,
        Some("s1"),
        MemoryTaint::ExternalSync,
    )
    .await
    .unwrap();
    d.get("learning:a", "k").await.unwrap();
    d.list(None, Some(&MemoryCategory::Daily), Some("s1"))
        .await
        .unwrap();
    d.namespaces().await.unwrap();
    let opts = RecallOptions {
        min_score: Some(0.25),
        ..RecallOptions::in_namespace("learning:a")
    };
    d.recall("rust", 5, &opts).await.unwrap();
    d.recall("rust", 3, &RecallOptions::default())
        .await
        .unwrap();
    d.forget("learning:a", "k").await.unwrap();
    assert_eq!(d.driver_id(), "reference");
    assert_eq!(
        log.calls(),
        [
            Call::Store {
                namespace: "learning:a".into(),
                key: "k".into(),
                content: "rust".into(),
                category: MemoryCategory::Daily,
                session_id: Some("s1".into()),
                taint: MemoryTaint::ExternalSync,
            },
            Call::Get {
                namespace: "learning:a".into(),
                key: "k".into(),
            },
            Call::List {
                namespace: None,
                category: Some(MemoryCategory::Daily),
                session_id: Some("s1".into()),
            },
            Call::Namespaces,
            Call::Recall {
                query: "rust".into(),
                limit: 5,
                opts: opts.clone(),
            },
            Call::Recall {
                query: "rust".into(),
                limit: 3,
                opts: RecallOptions::default(),
            },
            Call::Forget {
                namespace: "learning:a".into(),
                key: "k".into(),
            },
        ]
    );
    let calls = log.calls();
    let view: Vec<_> = calls
        .iter()
        .map(|c| {
            (
                c.method().as_str(),
                c.namespace(),
                c.key(),
                c.limit(),
                c.query(),
            )
        })
        .collect();
    assert_eq!(
        view,
        [
            ("store", Some("learning:a"), Some("k"), None, None),
            ("get", Some("learning:a"), Some("k"), None, None),
            ("list", None, None, None, None),
            ("namespaces", None, None, None, None),
            ("recall", Some("learning:a"), None, Some(5), Some("rust")),
            ("recall", None, None, Some(3), Some("rust")),
            ("forget", Some("learning:a"), Some("k"), None, None),
        ]
    );
    assert_eq!(calls[4].recall_options(), Some(&opts));
    assert_eq!(Method::Namespaces.to_string(), "namespaces");
}

#[tokio::test]
async fn proves_one_plus_n_and_namespace_pinning() {
    let d = Recording::new(ReferenceDriver::new(), CallLog::new());
    put(&d, "learning:a", "1", "rust").await;
    put(&d, "learning:b", "2", "rust").await;
    let log = d.hook().clone();
    log.clear();
    assert!(log.is_empty());
    // What a host's section-wide recall should do: 1 + N calls, each pinned.
    for summary in d.namespaces().await.unwrap() {
        let opts = RecallOptions::in_namespace(summary.namespace);
        d.recall("rust", 5, &opts).await.unwrap();
    }
    assert_eq!(log.len(), 3);
    assert_eq!(
        log.methods(),
        [Method::Namespaces, Method::Recall, Method::Recall]
    );
    assert_eq!(
        (log.count(Method::Namespaces), log.count(Method::Recall)),
        (1, 2)
    );
    let calls = log.take();
    let pinned: Vec<_> = calls.iter().map(|c| (c.namespace(), c.limit())).collect();
    assert_eq!(
        pinned,
        [
            (None, None),
            (Some("learning:a"), Some(5)),
            (Some("learning:b"), Some(5))
        ]
    );
    assert!(log.is_empty());
}

#[tokio::test]
async fn failed_calls_are_recorded_too() {
    let d = Recording::new(ReferenceDriver::new(), CallLog::new());
    assert!(d.get("a b", "k").await.is_err());
    assert_eq!(d.hook().methods(), [Method::Get]);
}

#[tokio::test]
async fn one_log_can_be_shared_and_outlives_the_wrapper() {
    let log = CallLog::new();
    let a = Recording::new(ReferenceDriver::new(), log.clone());
    let b = Recording::new(ReferenceDriver::new(), log.clone());
    a.namespaces().await.unwrap();
    b.get("global", "k").await.unwrap();
    a.namespaces().await.unwrap();
    drop(a.into_inner());
    assert_eq!(
        log.methods(),
        [Method::Namespaces, Method::Get, Method::Namespaces]
    );
}

#[tokio::test]
async fn wraps_boxed_and_unsized_providers() {
    let boxed: Box<dyn MemoryProvider> = Box::new(ReferenceDriver::new());
    let d = Recording::new(boxed, CallLog::new());
    put(&d, "global", "k", "x").await;
    assert_eq!(d.get_ref().driver_id(), "reference");
    assert_eq!(d.hook().methods(), [Method::Store]);

    // Unsizing: a recording of any provider as `Recording<dyn MemoryProvider>`.
    let r = Recording::new(ReferenceDriver::new(), CallLog::new());
    let log = r.hook().clone();
    let mut unsized_: Box<Recording<dyn MemoryProvider>> = Box::new(r);
    unsized_.namespaces().await.unwrap();
    unsized_.get_ref().namespaces().await.unwrap();
    assert_eq!(unsized_.get_mut().driver_id(), "reference");
    assert_eq!(log.methods(), [Method::Namespaces]);
}
