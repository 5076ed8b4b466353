//! ScoreSeedingStore.

use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_doubles::{HitOrder, ScoreSeedingStore};

use crate::support::{keys, put};

const SUBNORMAL: f64 = 5e-324;

/// Every awkward score, plus one unseeded match and one unseeded non-match.
async fn seeded(order: HitOrder) -> ScoreSeedingStore {
    let s = ScoreSeedingStore::new().with_order(order);
    for (key, score) in [
        ("nan", Some(f64::NAN)),
        ("neg_nan", Some(-f64::NAN)),
        ("pinf", Some(f64::INFINITY)),
        ("ninf", Some(f64::NEG_INFINITY)),
        ("negzero", Some(-0.0)),
        ("zero", Some(0.0)),
        ("sub", Some(SUBNORMAL)),
        ("max", Some(f64::MAX)),
        ("none", None),
    ] {
        s.store_scored("global", key, "seeded", score)
            .await
            .unwrap();
    }
    put(&s, "global", "plain", "rust").await;
    put(&s, "global", "other", "python").await;
    s
}

/// `(key, score bits)`, so NaN signs and -0.0 compare exactly.
fn bits(hits: &[tinymemory_api::MemoryEntry]) -> Vec<(&str, Option<u64>)> {
    hits.iter()
        .map(|h| (h.key.as_str(), h.score.map(f64::to_bits)))
        .collect()
}

#[tokio::test]
async fn recall_returns_seeded_scores_bit_for_bit_in_total_order() {
    let s = seeded(HitOrder::TotalScoreDescending).await;
    assert_eq!(s.driver_id(), "score-seeding");
    let hits = s
        .recall("rust", 100, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(
        bits(&hits),
        [
            ("nan", Some(f64::NAN.to_bits())),
            ("pinf", Some(f64::INFINITY.to_bits())),
            ("max", Some(f64::MAX.to_bits())),
            ("plain", Some(1.0f64.to_bits())),
            ("sub", Some(SUBNORMAL.to_bits())),
            ("zero", Some(0.0f64.to_bits())),
            ("negzero", Some((-0.0f64).to_bits())),
            ("ninf", Some(f64::NEG_INFINITY.to_bits())),
            ("neg_nan", Some((-f64::NAN).to_bits())),
            ("none", None),
        ]
    );
    assert!(hits[8]
        .score
        .is_some_and(|s| s.is_nan() && s.is_sign_negative()));
    assert!(hits[6]
        .score
        .is_some_and(|s| s == 0.0 && s.is_sign_negative()));
    assert!(hits
        .iter()
        .all(|h| h.namespace.as_deref() == Some("global")));
}

#[tokio::test]
async fn key_order_ignores_scores() {
    let s = seeded(HitOrder::KeyAscending).await;
    assert_eq!(s.order(), HitOrder::KeyAscending);
    let hits = s
        .recall("rust", 100, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(
        keys(&hits),
        ["max", "nan", "neg_nan", "negzero", "ninf", "none", "pinf", "plain", "sub", "zero"]
    );
}

#[tokio::test]
async fn limit_blank_query_and_min_score() {
    let s = seeded(HitOrder::TotalScoreDescending).await;
    let opts = RecallOptions::default();
    assert_eq!(
        keys(&s.recall("rust", 3, &opts).await.unwrap()),
        ["nan", "pinf", "max"]
    );
    assert!(s.recall("rust", 0, &opts).await.unwrap().is_empty());
    assert!(s.recall(" \t", 10, &opts).await.unwrap().is_empty());
    // Seeded entries match any non-blank query; unseeded ones need a word.
    assert_eq!(s.recall("zzz", 100, &opts).await.unwrap().len(), 9);
    let min = RecallOptions {
        min_score: Some(0.5),
        ..RecallOptions::default()
    };
    assert_eq!(
        keys(&s.recall("rust", 100, &min).await.unwrap()),
        ["pinf", "max", "plain"]
    );
}

#[tokio::test]
async fn seeds_are_per_namespace_and_key() {
    let s = ScoreSeedingStore::new();
    s.seed_score("learning:x", "k", Some(-3.5));
    put(&s, "learning:x", "k", "anything").await;
    put(&s, "global", "k", "anything").await;
    assert_eq!(s.seeded_score("learning:x", "k"), Some(Some(-3.5)));
    assert_eq!(s.seeded_score("global", "k"), None);
    let pinned = RecallOptions::in_namespace("learning:x");
    let hits = s.recall("query", 10, &pinned).await.unwrap();
    assert_eq!(
        (hits[0].score, hits[0].namespace.as_deref()),
        (Some(-3.5), Some("learning:x"))
    );
    assert!(s
        .recall("query", 10, &RecallOptions::default())
        .await
        .unwrap()
        .is_empty());

    // A seed outlives forget, until cleared.
    assert_eq!(s.forget("learning:x", "k").await, Ok(true));
    assert!(s.recall("query", 10, &pinned).await.unwrap().is_empty());
    put(&s, "learning:x", "k", "anything").await;
    assert_eq!(
        s.recall("query", 10, &pinned).await.unwrap()[0].score,
        Some(-3.5)
    );
    assert_eq!(s.clear_score("learning:x", "k"), Some(Some(-3.5)));
    assert_eq!(s.clear_score("learning:x", "k"), None);
    assert!(s.recall("query", 10, &pinned).await.unwrap().is_empty());
    assert_eq!(
        s.recall("anything", 10, &pinned).await.unwrap()[0].score,
        Some(1.0)
    );
}

#[tokio::test]
async fn filters_and_validation_follow_the_contract() {
    let s = ScoreSeedingStore::new();
    s.store(
        "global",
        "a",
        "x",
        MemoryCategory::Daily,
        Some("s1"),
        MemoryTaint::Internal,
    )
    .await
    .unwrap();
    s.store_scored("global", "b", "x", Some(2.0)).await.unwrap();
    s.seed_score("global", "a", Some(1.0));
    let daily = RecallOptions {
        category: Some(MemoryCategory::Daily),
        ..RecallOptions::default()
    };
    assert_eq!(keys(&s.recall("x", 10, &daily).await.unwrap()), ["a"]);
    let session = RecallOptions {
        session_id: Some("s1".into()),
        ..RecallOptions::default()
    };
    assert_eq!(keys(&s.recall("x", 10, &session).await.unwrap()), ["a"]);

    let bad_ns = RecallOptions::in_namespace("a b");
    let e = s.recall("x", 10, &bad_ns).await.unwrap_err();
    assert_eq!(e.rule(), Some(rules::NAMESPACE_CHARSET));
    let nan = RecallOptions {
        min_score: Some(f64::NAN),
        ..RecallOptions::default()
    };
    let e = s.recall("x", 10, &nan).await.unwrap_err();
    assert_eq!(e.rule(), Some(rules::MIN_SCORE_NOT_FINITE));
    let e = s.store_scored("", "k", "x", None).await.unwrap_err();
    assert_eq!(e.rule(), Some(rules::NAMESPACE_EMPTY));
    assert_eq!(s.seeded_score("", "k"), None);

    // Storage is the reference driver's: upsert, list order, counts.
    s.store_scored("global", "b", "y", Some(3.0)).await.unwrap();
    assert_eq!(keys(&s.list(None, None, None).await.unwrap()), ["a", "b"]);
    assert_eq!(s.namespaces().await.unwrap()[0].count, 2);
    assert_eq!(s.get("global", "b").await.unwrap().unwrap().score, None);
}
