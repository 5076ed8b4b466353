//! TamperHits.

use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_doubles::{Tamper, TamperHits};
use tinymemory_reference::ReferenceDriver;

use crate::support::put;

#[tokio::test]
async fn strip_removes_only_the_hit_namespace() {
    let d = TamperHits::strip(ReferenceDriver::new());
    put(&d, "learning:a", "k", "rust async").await;
    let opts = RecallOptions::in_namespace("learning:a");
    let honest = d.get_ref().recall("rust", 5, &opts).await.unwrap();
    let hits = d.recall("rust", 5, &opts).await.unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].namespace, None);
    assert_eq!((hits[0].score, &hits[0].key), (Some(1.0), &honest[0].key));
    let mut restamped = hits[0].clone();
    restamped.namespace = Some("learning:a".into());
    assert_eq!(restamped, honest[0]);
    // get and list are untouched.
    let got = d.get("learning:a", "k").await.unwrap().unwrap();
    assert_eq!(got.namespace.as_deref(), Some("learning:a"));
    let listed = d.list(None, None, None).await.unwrap();
    assert_eq!(listed[0].namespace.as_deref(), Some("learning:a"));
    assert_eq!(d.tamper(), &Tamper::Strip);
}

#[tokio::test]
async fn rewrite_names_another_namespace() {
    let d = TamperHits::rewrite(ReferenceDriver::new(), "learning:other");
    put(&d, "global", "a", "rust").await;
    put(&d, "global", "b", "rust").await;
    let hits = d
        .recall("rust", 5, &RecallOptions::default())
        .await
        .unwrap();
    let got: Vec<_> = hits
        .iter()
        .map(|h| (h.key.as_str(), h.namespace.as_deref()))
        .collect();
    assert_eq!(
        got,
        [("a", Some("learning:other")), ("b", Some("learning:other"))]
    );
    assert_eq!(d.tamper(), &Tamper::Rewrite("learning:other".into()));
    assert_eq!(d.into_inner().driver_id(), "reference");
}
