//! The section API against the adversarial doubles: seeded scores, a call
//! recorder, shuffled enumeration, tampered hits, injected faults, latency
//! and a driver that retains nothing.

use std::time::Duration;

use tinymemory_api::{
    MemoryCategory, MemoryError, MemoryProvider, MemorySection, MemoryTaint, RecallOptions,
};
use tinymemory_doubles::{
    Call, CallLog, FaultHandle, FaultKind, Faults, Latency, Method, NullDriver, Pause, Recording,
    ScoreSeedingStore, ShuffledNamespaces, TamperHits,
};
use tinymemory_reference::ReferenceDriver;
use tinymemory_sections::{SectionHits, Sections};

fn opts() -> RecallOptions {
    RecallOptions::default()
}

fn pairs(hits: &SectionHits) -> Vec<(String, String)> {
    hits.hits
        .iter()
        .map(|h| (h.namespace.clone().unwrap(), h.key.clone()))
        .collect()
}

fn pair(ns: &str, key: &str) -> (String, String) {
    (ns.to_owned(), key.to_owned())
}

async fn seeded(entries: &[(&str, &str, Option<f64>)]) -> ScoreSeedingStore {
    let store = ScoreSeedingStore::new();
    for (ns, key, score) in entries {
        store.store_scored(ns, key, "text", *score).await.unwrap();
    }
    store
}

#[tokio::test]
async fn none_and_nan_scores_merge_after_finite_ones() {
    let l = MemorySection::Learning;
    for missing in [None, Some(f64::NAN), Some(-f64::NAN)] {
        let store = seeded(&[
            ("learning:b", "z", missing),
            ("learning:a", "y", Some(0.2)),
            ("learning:a", "x", missing),
        ])
        .await;
        let hits = Sections::new(&store)
            .recall()
            .across_section(&l, "q", 10, &opts())
            .await
            .unwrap();
        assert_eq!(
            pairs(&hits),
            [
                pair("learning:a", "y"),
                pair("learning:a", "x"),
                pair("learning:b", "z")
            ],
            "{missing:?}"
        );
    }
}

#[tokio::test]
async fn every_edge_score_finds_its_place() {
    let store = seeded(&[
        ("learning:a", "nan", Some(f64::NAN)),
        ("learning:a", "inf", Some(f64::INFINITY)),
        ("learning:b", "max", Some(f64::MAX)),
        ("learning:b", "sub", Some(f64::MIN_POSITIVE / 4.0)),
        ("learning:c", "negzero", Some(-0.0)),
        ("learning:c", "zero", Some(0.0)),
        ("learning:c", "neginf", Some(f64::NEG_INFINITY)),
        ("learning:c", "none", None),
        ("learning:c", "neg", Some(-1.5)),
    ])
    .await;
    let hits = Sections::new(&store)
        .recall()
        .across_section(&MemorySection::Learning, "q", 100, &opts())
        .await
        .unwrap();
    let keys: Vec<_> = hits.hits.iter().map(|h| h.key.as_str()).collect();
    assert_eq!(
        keys,
        ["max", "sub", "negzero", "zero", "neg", "inf", "nan", "neginf", "none"]
    );
}

#[tokio::test]
async fn a_section_recall_costs_one_plus_n_pinned_calls() {
    let inner = ReferenceDriver::new();
    for (ns, key) in [
        ("learning:a", "1"),
        ("learning:a", "2"),
        ("learning:b", "1"),
        ("learning:c", "1"),
        ("document:d", "1"),
        ("global", "1"),
    ] {
        inner
            .store(
                ns,
                key,
                "async text",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap();
    }
    let recorded = Recording::new(inner, CallLog::new());
    let log = recorded.hook().clone();
    let hits = Sections::new(&recorded)
        .recall()
        .with_concurrency(1)
        .across_section(&MemorySection::Learning, "async", 7, &opts())
        .await
        .unwrap();
    assert_eq!(hits.hits.len(), 4);
    let calls = log.take();
    assert_eq!(calls.len(), 1 + 3);
    assert_eq!(calls[0], Call::Namespaces);
    let recalls: Vec<_> = calls[1..]
        .iter()
        .map(|c| {
            assert_eq!(c.method(), Method::Recall);
            (
                c.recall_options().unwrap().namespace.clone(),
                c.limit(),
                c.query(),
            )
        })
        .collect();
    assert_eq!(
        recalls,
        [
            (Some("learning:a".to_owned()), Some(7), Some("async")),
            (Some("learning:b".to_owned()), Some(7), Some("async")),
            (Some("learning:c".to_owned()), Some(7), Some("async")),
        ]
    );
}

#[tokio::test]
async fn the_cap_ignores_enumeration_order() {
    let inner = ReferenceDriver::new();
    // Counts: e=4, b=3, d=3, a=2, c=2, f=1; the cap of 3 keeps e, b, d.
    for (scope, n) in [("a", 2), ("b", 3), ("c", 2), ("d", 3), ("e", 4), ("f", 1)] {
        for i in 0..n {
            inner
                .store(
                    &format!("learning:{scope}"),
                    &format!("k{i}"),
                    &format!("shared word {i}"),
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await
                .unwrap();
        }
    }
    let mut results = Vec::new();
    for seed in [1, 2, 3] {
        let shuffled = ShuffledNamespaces::new(&inner, seed);
        let orders: Vec<Vec<String>> = {
            let mut v = Vec::new();
            for _ in 0..2 {
                v.push(
                    shuffled
                        .namespaces()
                        .await
                        .unwrap()
                        .into_iter()
                        .map(|s| s.namespace)
                        .collect(),
                );
            }
            v
        };
        assert_ne!(
            orders[0], orders[1],
            "seed {seed} should shuffle differently per call"
        );
        let hits = Sections::new(&shuffled)
            .recall()
            .with_cap(3)
            .across_section(&MemorySection::Learning, "shared", 5, &opts())
            .await
            .unwrap();
        assert!(hits.truncated);
        assert_eq!(hits.searched, ["learning:e", "learning:b", "learning:d"]);
        results.push(hits);
    }
    assert_eq!(results[0], results[1]);
    assert_eq!(results[1], results[2]);
}

#[tokio::test]
async fn concurrent_fan_out_equals_sequential_under_random_latency() {
    let inner = ReferenceDriver::new();
    for scope in 0..12 {
        for i in 0..=(scope % 4) {
            inner
                .store(
                    &format!("learning:s{scope:02}"),
                    &format!("k{i}"),
                    &format!("token {scope} {i}"),
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await
                .unwrap();
        }
    }
    let slow = Latency::new(
        &inner,
        Pause::uniform(Duration::from_millis(0), Duration::from_millis(9), 42),
    );
    let sequential = Sections::new(&slow)
        .recall()
        .with_concurrency(1)
        .across_section(&MemorySection::Learning, "token", 20, &opts())
        .await
        .unwrap();
    assert_eq!(sequential.hits.len(), 20);
    for bound in [2, 4, 16] {
        let concurrent = Sections::new(&slow)
            .recall()
            .with_concurrency(bound)
            .across_section(&MemorySection::Learning, "token", 20, &opts())
            .await
            .unwrap();
        assert_eq!(concurrent, sequential, "bound {bound}");
    }
}

#[tokio::test]
async fn stripped_hit_namespaces_are_stamped_and_foreign_ones_refused() {
    let inner = ReferenceDriver::new();
    inner
        .store(
            "learning:a",
            "k",
            "word",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
    let stripped = TamperHits::strip(&inner);
    let hits = Sections::new(&stripped)
        .recall()
        .across_section(&MemorySection::Learning, "word", 5, &opts())
        .await
        .unwrap();
    assert_eq!(pairs(&hits), [pair("learning:a", "k")]);

    let foreign = TamperHits::rewrite(&inner, "learning:other");
    let err = Sections::new(&foreign)
        .recall()
        .across_section(&MemorySection::Learning, "word", 5, &opts())
        .await
        .unwrap_err();
    assert!(matches!(err, MemoryError::Backend { .. }), "{err:?}");
}

#[tokio::test]
async fn a_failing_recall_fails_the_call_with_its_kind_and_namespace() {
    let inner = ReferenceDriver::new();
    for ns in ["learning:a", "learning:b"] {
        inner
            .store(
                ns,
                "k",
                "word",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap();
    }
    let faulty = Faults::new(
        &inner,
        FaultHandle::new().with_namespace("learning:b", FaultKind::unavailable("connection reset")),
    );
    let err = Sections::new(&faulty)
        .recall()
        .across_section(&MemorySection::Learning, "word", 5, &opts())
        .await
        .unwrap_err();
    assert!(err.is_unavailable(), "{err:?}");
    assert!(err.to_string().contains("\"learning:b\""), "{err}");
}

#[tokio::test]
async fn a_driver_that_retains_nothing_gives_ok_and_empty_everywhere() {
    let null = NullDriver::new();
    let sections = Sections::new(&null);
    let view = sections.learnings();
    view.put(
        "t",
        "k",
        "text",
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .unwrap();
    assert_eq!(view.get("t", "k").await.unwrap(), None);
    assert!(!view.forget("t", "k").await.unwrap());
    assert_eq!(view.list("t", None, None).await.unwrap(), []);
    assert_eq!(view.recall("t", "text", 5, &opts()).await.unwrap(), []);
    assert_eq!(view.scopes().await.unwrap(), []);
    assert_eq!(view.list_section(None, None).await.unwrap(), []);
    assert_eq!(
        view.across("text", 5, &opts()).await.unwrap(),
        SectionHits::default()
    );
}
