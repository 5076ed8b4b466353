//! NoneMeansAll and NoneMeansGlobal, side by side.

use tinymemory_api::{rules, MemoryEntry, MemoryProvider, RecallOptions};
use tinymemory_doubles::{Call, CallLog, Method, NoneMeansAll, NoneMeansGlobal, Recording};
use tinymemory_reference::ReferenceDriver;

use crate::support::put;

async fn three_namespaces<P: MemoryProvider>(d: &P) {
    put(d, "global", "g", "rust").await;
    put(d, "learning:a", "a", "rust async").await;
    put(d, "learning:b", "b", "rust").await;
}

fn hits(entries: &[MemoryEntry]) -> Vec<(&str, Option<&str>, Option<f64>)> {
    entries
        .iter()
        .map(|e| (e.key.as_str(), e.namespace.as_deref(), e.score))
        .collect()
}

#[tokio::test]
async fn none_means_all_merges_every_namespace() {
    let d = NoneMeansAll::new(ReferenceDriver::new());
    three_namespaces(&d).await;
    let all = d
        .recall("rust async", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(
        hits(&all),
        [
            ("a", Some("learning:a"), Some(1.0)),
            ("g", Some("global"), Some(0.5)),
            ("b", Some("learning:b"), Some(0.5)),
        ]
    );
    let two = d
        .recall("rust async", 2, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(hits(&two).len(), 2);
    let pinned = d
        .recall("rust async", 10, &RecallOptions::in_namespace("learning:b"))
        .await
        .unwrap();
    assert_eq!(hits(&pinned), [("b", Some("learning:b"), Some(0.5))]);
}

#[tokio::test]
async fn the_contract_twin_searches_global_only() {
    let twin = NoneMeansGlobal::new(ReferenceDriver::new());
    three_namespaces(&twin).await;
    let got = twin
        .recall("rust async", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(hits(&got), [("g", Some("global"), Some(0.5))]);
    let plain = twin
        .get_ref()
        .recall("rust async", 10, &RecallOptions::default())
        .await;
    assert_eq!(plain.unwrap(), got);
}

#[tokio::test]
async fn none_means_all_costs_one_plus_n_calls() {
    let d = NoneMeansAll::new(Recording::new(ReferenceDriver::new(), CallLog::new()));
    three_namespaces(&d).await;
    let log = d.get_ref().hook().clone();
    log.clear();
    d.recall("rust", 7, &RecallOptions::default())
        .await
        .unwrap();
    let calls = log.take();
    assert_eq!(calls[0], Call::Namespaces);
    let pinned: Vec<(Method, Option<&str>, Option<usize>)> = calls
        .iter()
        .map(|c| (c.method(), c.namespace(), c.limit()))
        .collect();
    assert_eq!(
        pinned,
        [
            (Method::Namespaces, None, None),
            (Method::Recall, Some("global"), Some(7)),
            (Method::Recall, Some("learning:a"), Some(7)),
            (Method::Recall, Some("learning:b"), Some(7)),
        ]
    );
}

#[tokio::test]
async fn the_twin_pins_none_before_the_inner_driver_sees_it() {
    let d = NoneMeansGlobal::new(Recording::new(ReferenceDriver::new(), CallLog::new()));
    let log = d.get_ref().hook().clone();
    d.recall("x", 3, &RecallOptions::default()).await.unwrap();
    d.recall("x", 3, &RecallOptions::in_namespace("learning:a"))
        .await
        .unwrap();
    let calls = log.calls();
    let seen: Vec<Option<&str>> = calls.iter().map(Call::namespace).collect();
    assert_eq!(seen, [Some("global"), Some("learning:a")]);
}

#[tokio::test]
async fn none_means_all_still_refuses_a_non_finite_min_score() {
    let d = NoneMeansAll::new(ReferenceDriver::new());
    let nan = RecallOptions {
        min_score: Some(f64::NAN),
        ..RecallOptions::default()
    };
    let e = d.recall("x", 10, &nan).await.unwrap_err();
    assert_eq!(e.rule(), Some(rules::MIN_SCORE_NOT_FINITE));
}
