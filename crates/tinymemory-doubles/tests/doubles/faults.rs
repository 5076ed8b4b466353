//! Faults, FaultKind and FaultHandle.

use std::sync::Arc;

use tinymemory_api::{rules, MemoryError, MemoryProvider, RecallOptions};
use tinymemory_doubles::{CallLog, FaultHandle, FaultKind, Faults, Method, Recording};
use tinymemory_reference::ReferenceDriver;

use crate::support::put;

#[tokio::test]
async fn fails_exactly_the_third_call() {
    let d = Faults::new(
        Recording::new(ReferenceDriver::new(), CallLog::new()),
        FaultHandle::new().with_nth(3, FaultKind::unavailable("engine down")),
    );
    let handle = d.hook().clone();
    let log = d.get_ref().hook().clone();
    put(&d, "global", "a", "x").await; // 1
    assert!(d.get("global", "a").await.unwrap().is_some()); // 2
    assert_eq!(
        d.list(None, None, None).await, // 3
        Err(MemoryError::unavailable("engine down"))
    );
    assert_eq!(d.list(None, None, None).await.unwrap().len(), 1); // 4
    assert_eq!((handle.calls(), handle.struck()), (4, 1));
    // The struck call never reached the wrapped provider.
    assert_eq!(log.methods(), [Method::Store, Method::Get, Method::List]);
}

#[tokio::test]
async fn fails_every_call_addressed_to_one_namespace() {
    let d = Faults::new(
        ReferenceDriver::new(),
        FaultHandle::new().with_namespace("learning:b", FaultKind::backend("disk on fire")),
    );
    fn fire<T>() -> Result<T, MemoryError> {
        Err(MemoryError::fault("disk on fire"))
    }
    put(&d, "learning:a", "k", "rust").await;
    assert_eq!(
        d.store(
            "learning:b",
            "k",
            "x",
            Default::default(),
            None,
            Default::default()
        )
        .await,
        fire()
    );
    assert_eq!(d.get("learning:b", "k").await, fire());
    assert_eq!(d.forget("learning:b", "k").await, fire());
    assert_eq!(d.list(Some("learning:b"), None, None).await, fire());
    let b = RecallOptions::in_namespace("learning:b");
    assert_eq!(d.recall("rust", 5, &b).await, fire());
    // Not addressed to learning:b: enumeration, other namespaces, unpinned calls.
    assert_eq!(d.namespaces().await.unwrap().len(), 1);
    assert_eq!(d.list(None, None, None).await.unwrap().len(), 1);
    let a = RecallOptions::in_namespace("learning:a");
    assert_eq!(d.recall("rust", 5, &a).await.unwrap().len(), 1);
    assert!(d.recall("rust", 5, &RecallOptions::default()).await.is_ok());
    assert_eq!(d.hook().struck(), 5);
}

#[tokio::test]
async fn an_unpinned_recall_is_addressed_to_global() {
    let d = Faults::new(ReferenceDriver::new(), FaultHandle::new());
    d.hook().fail_namespace(
        "global",
        FaultKind::invalid(rules::NAMESPACE_CHARSET, "nope"),
    );
    let e = d
        .recall("x", 1, &RecallOptions::default())
        .await
        .unwrap_err();
    assert_eq!(e, MemoryError::invalid(rules::NAMESPACE_CHARSET, "nope"));
    d.hook().clear();
    assert!(d.recall("x", 1, &RecallOptions::default()).await.is_ok());
    assert_eq!(d.hook().calls(), 2);
}

#[tokio::test]
async fn rules_can_be_added_through_the_handle_after_boxing() {
    let d = Faults::new(ReferenceDriver::new(), FaultHandle::new());
    let handle = d.hook().clone();
    let boxed: Box<dyn MemoryProvider> = Box::new(d);
    assert!(boxed.namespaces().await.is_ok());
    handle.fail_nth(2, FaultKind::backend("second"));
    handle.fail_nth(3, FaultKind::backend("third"));
    assert_eq!(boxed.namespaces().await, Err(MemoryError::fault("second")));
    assert_eq!(boxed.namespaces().await, Err(MemoryError::fault("third")));
    assert!(boxed.namespaces().await.is_ok());
}

#[tokio::test]
async fn a_panic_fault_panics_with_its_message() {
    let d = Arc::new(Faults::new(
        ReferenceDriver::new(),
        FaultHandle::new().with_nth(1, FaultKind::panic("driver bug")),
    ));
    let task = tokio::spawn({
        let d = Arc::clone(&d);
        async move { d.namespaces().await }
    });
    let err = task.await.unwrap_err();
    assert!(err.is_panic());
    let payload = err.into_panic();
    assert_eq!(
        payload.downcast_ref::<String>().map(String::as_str),
        Some("driver bug")
    );
    // The next call goes through.
    assert!(d.namespaces().await.is_ok());
}

#[test]
fn fault_kinds_build_their_errors() {
    assert_eq!(
        FaultKind::invalid("x.rule", "m").to_error(),
        Some(MemoryError::invalid("x.rule", "m"))
    );
    assert_eq!(
        FaultKind::unavailable("m").to_error(),
        Some(MemoryError::unavailable("m"))
    );
    assert_eq!(
        FaultKind::backend("m").to_error(),
        Some(MemoryError::fault("m"))
    );
    assert_eq!(FaultKind::panic("m").to_error(), None);
}

#[test]
#[should_panic(expected = "calls are counted from 1")]
fn nth_zero_is_refused() {
    let _ = Faults::new(
        ReferenceDriver::new(),
        FaultHandle::new().with_nth(0, FaultKind::backend("never")),
    );
}

#[tokio::test]
async fn fails_every_call_to_one_method() {
    let d = Faults::new(
        ReferenceDriver::new(),
        FaultHandle::new().with_method(Method::List, FaultKind::backend("no list")),
    );
    put(&d, "global", "k", "x").await;
    assert_eq!(
        d.list(None, None, None).await,
        Err(MemoryError::fault("no list"))
    );
    assert_eq!(
        d.list(Some("global"), None, None).await,
        Err(MemoryError::fault("no list"))
    );
    assert!(d.get("global", "k").await.unwrap().is_some());
    assert_eq!((d.hook().calls(), d.hook().struck()), (4, 2));
}

/// The tower-test style: the test keeps the handle while the section API
/// owns the driver, and the fault arms itself partway through one
/// `across_section` call, after its `namespaces()` and before its recalls.
#[tokio::test]
async fn starts_failing_after_the_namespaces_call() {
    use tinymemory_api::MemorySection;
    use tinymemory_sections::Sections;

    let d = Faults::new(
        Recording::new(ReferenceDriver::new(), CallLog::new()),
        FaultHandle::new(),
    );
    let handle = d.hook().clone();
    let log = d.get_ref().hook().clone();
    for ns in ["learning:a", "learning:b"] {
        put(&d, ns, "k", "rust").await;
    }
    let sections = Sections::new(&d);
    let opts = RecallOptions::default();
    let before = sections
        .recall()
        .across_section(&MemorySection::Learning, "rust", 5, &opts)
        .await
        .unwrap();
    assert_eq!(before.searched, ["learning:a", "learning:b"]);
    log.clear();

    handle.fail_after(
        Method::Namespaces,
        FaultKind::unavailable("connection lost"),
    );
    let err = sections
        .recall()
        .with_concurrency(1)
        .across_section(&MemorySection::Learning, "rust", 5, &opts)
        .await
        .unwrap_err();
    assert!(err.is_unavailable(), "{err:?}");
    // namespaces() reached the driver; the first recall after it was struck
    // and the fan-out stopped there.
    assert_eq!(log.methods(), [Method::Namespaces]);
    assert_eq!((handle.calls(), handle.struck()), (7, 1));
    // Still armed: every later call fails, until cleared.
    assert_eq!(
        d.namespaces().await,
        Err(MemoryError::unavailable("connection lost"))
    );
    handle.clear();
    assert_eq!(d.namespaces().await.unwrap().len(), 2);
}

#[tokio::test]
async fn an_after_rule_is_armed_only_by_calls_made_after_it_was_added() {
    let d = Faults::new(ReferenceDriver::new(), FaultHandle::new());
    assert!(d.namespaces().await.is_ok());
    d.hook()
        .fail_after(Method::Namespaces, FaultKind::backend("late"));
    assert!(d.get("global", "k").await.is_ok());
    assert!(d.namespaces().await.is_ok());
    assert_eq!(d.get("global", "k").await, Err(MemoryError::fault("late")));
}
