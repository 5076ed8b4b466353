//! The mutant catalogue: each mutant caught by its own check only, and each
//! broken behaviour shown with exact values.

use tinymemory_api::{MemoryError, MemoryProvider, RecallOptions};
use tinymemory_doubles::mutants::{
    mutant, mutants, sanitize_namespace, DuplicatesOnStore, EngineSyntaxErrors, ForgetAlwaysTrue,
    IgnoresMinScore, InflatedCounts, LimitPlusOne, NegatedScores, SanitizesNamespaces,
};
use tinymemory_reference::ReferenceDriver;

use crate::checks::{self, CHECK_IDS};
use crate::support::{counts, keys, put, scored};

fn reference() -> Box<dyn MemoryProvider> {
    Box::new(ReferenceDriver::new())
}

/// The ids of the checks `make()` fails, each run on a fresh provider.
async fn failing_checks(make: impl Fn() -> Box<dyn MemoryProvider>) -> Vec<&'static str> {
    let mut failing = Vec::new();
    for id in CHECK_IDS {
        if checks::run(id, &*make()).await.is_err() {
            failing.push(id);
        }
    }
    failing
}

#[test]
fn catalogue_lists_one_mutant_per_check_in_sentence_order() {
    let ids: Vec<&str> = mutants().iter().map(|m| m.id).collect();
    assert_eq!(ids, CHECK_IDS);
    assert!(mutants().iter().all(|m| !m.description.is_empty()));
    assert_eq!(mutant("recall.limit").map(|m| m.id), Some("recall.limit"));
    assert!(mutant("recall.nope").is_none());
    assert!(format!("{:?}", mutants()[0]).contains("store.upsert"));
}

#[tokio::test]
async fn reference_passes_every_check() {
    for id in CHECK_IDS {
        assert_eq!(
            checks::run(id, &ReferenceDriver::new()).await,
            Ok(()),
            "{id}"
        );
    }
}

#[tokio::test]
async fn every_mutant_is_caught_by_its_own_check_only() {
    for m in mutants() {
        let failing = failing_checks(|| (m.wrap)(reference())).await;
        assert_eq!(failing, [m.id], "mutant {}", m.id);
    }
}

#[tokio::test]
async fn mutants_keep_the_wrapped_driver_id() {
    for m in mutants() {
        assert_eq!((m.wrap)(reference()).driver_id(), "reference", "{}", m.id);
    }
}

#[tokio::test]
async fn store_upsert_mutant_keeps_superseded_entries() {
    let d = DuplicatesOnStore::new(ReferenceDriver::new());
    put(&d, "global", "k", "alpha").await;
    put(&d, "global", "k", "beta").await;
    put(&d, "global", "j", "gamma").await;
    let list = d.list(None, None, None).await.unwrap();
    let got: Vec<(&str, &str)> = list
        .iter()
        .map(|e| (e.key.as_str(), e.content.as_str()))
        .collect();
    assert_eq!(got, [("j", "gamma"), ("k", "beta"), ("k", "alpha")]);
    assert_eq!(counts(&d.namespaces().await.unwrap()), [("global", 3)]);
    assert_eq!(d.get("global", "k").await.unwrap().unwrap().content, "beta");
    let hits = d
        .recall("alpha beta", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(keys(&hits), ["k"]);
    assert_eq!(
        (d.forget("global", "k").await, d.forget("global", "k").await),
        (Ok(true), Ok(false))
    );
    assert_eq!(keys(&d.list(None, None, None).await.unwrap()), ["j"]);
}

#[tokio::test]
async fn scores_mutant_negates_and_filters_on_the_negated_scores() {
    let d = NegatedScores::new(ReferenceDriver::new());
    put(&d, "global", "full", "rust async").await;
    put(&d, "global", "half", "rust tokio").await;
    let hits = d
        .recall("rust async", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(scored(&hits), [("full", Some(-1.0)), ("half", Some(-0.5))]);
    let opts = RecallOptions {
        min_score: Some(-0.5),
        ..RecallOptions::default()
    };
    let hits = d.recall("rust async", 10, &opts).await.unwrap();
    assert_eq!(scored(&hits), [("half", Some(-0.5))]);
    let nan = RecallOptions {
        min_score: Some(f64::NAN),
        ..RecallOptions::default()
    };
    assert!(d.recall("rust", 10, &nan).await.unwrap_err().is_invalid());
}

#[tokio::test]
async fn limit_mutant_returns_one_hit_too_many() {
    let d = LimitPlusOne::new(ReferenceDriver::new());
    for k in ["a", "b", "c", "d", "e"] {
        put(&d, "global", k, "rust").await;
    }
    let opts = RecallOptions::default();
    assert_eq!(
        keys(&d.recall("rust", 2, &opts).await.unwrap()),
        ["a", "b", "c"]
    );
    assert_eq!(keys(&d.recall("rust", 0, &opts).await.unwrap()), ["a"]);
    assert_eq!(d.recall("rust", 9, &opts).await.unwrap().len(), 5);
    assert_eq!(d.get_ref().driver_id(), "reference");
}

#[tokio::test]
async fn plain_text_query_mutant_fails_like_unescaped_fts5() {
    let d = EngineSyntaxErrors::new(ReferenceDriver::new());
    put(&d, "global", "k", "read and write").await;
    let opts = RecallOptions::default();
    for (query, token) in [
        ("\"read\"", "\""),
        ("read AND write", "AND"),
        ("NEAR", "NEAR"),
        ("rust*", "*"),
        ("col:read", ":"),
        ("-read", "-"),
        ("", ""),
        ("  \t", ""),
    ] {
        assert_eq!(
            d.recall(query, 10, &opts).await,
            Err(MemoryError::fault(format!(
                "fts5: syntax error near \"{token}\""
            ))),
            "{query:?}"
        );
    }
    assert_eq!(
        keys(&d.recall("read and write", 10, &opts).await.unwrap()),
        ["k"]
    );
    assert_eq!(
        keys(&d.recall("don't read", 10, &opts).await.unwrap()),
        ["k"]
    );
    let bad = RecallOptions::in_namespace("a b");
    assert!(d.recall("\"", 10, &bad).await.unwrap_err().is_invalid());
}

#[tokio::test]
async fn min_score_mutant_keeps_hits_below_min_score() {
    let d = IgnoresMinScore::new(ReferenceDriver::new());
    put(&d, "global", "full", "rust async").await;
    put(&d, "global", "half", "rust tokio").await;
    let opts = RecallOptions {
        min_score: Some(0.9),
        ..RecallOptions::default()
    };
    let hits = d.recall("rust async", 10, &opts).await.unwrap();
    assert_eq!(scored(&hits), [("full", Some(1.0)), ("half", Some(0.5))]);
    let nan = RecallOptions {
        min_score: Some(f64::INFINITY),
        ..RecallOptions::default()
    };
    assert!(d.recall("rust", 10, &nan).await.unwrap_err().is_invalid());
}

#[tokio::test]
async fn exact_counts_mutant_reports_one_too_many() {
    let d = InflatedCounts::new(ReferenceDriver::new());
    put(&d, "global", "a", "x").await;
    put(&d, "learning:a", "a", "x").await;
    put(&d, "learning:a", "b", "x").await;
    assert_eq!(
        counts(&d.namespaces().await.unwrap()),
        [("global", 2), ("learning:a", 3)]
    );
    d.forget("global", "a").await.unwrap();
    assert_eq!(counts(&d.namespaces().await.unwrap()), [("learning:a", 3)]);
}

#[tokio::test]
async fn invalid_refused_mutant_stores_under_a_sanitised_name() {
    let d = SanitizesNamespaces::new(ReferenceDriver::new());
    put(&d, "a b", "k", "rust").await;
    let list = d.list(None, None, None).await.unwrap();
    assert_eq!(list[0].namespace.as_deref(), Some("a_b"));
    assert_eq!(
        d.get("a b", "k")
            .await
            .unwrap()
            .unwrap()
            .namespace
            .as_deref(),
        Some("a_b")
    );
    let hits = d
        .recall("rust", 5, &RecallOptions::in_namespace("a b"))
        .await
        .unwrap();
    assert_eq!(keys(&hits), ["k"]);
    assert_eq!(d.forget("a b", "k").await, Ok(true));
    // Only the mutant rewrites: the wrapped driver still refuses the raw name.
    assert!(d.get_ref().get("a b", "k").await.unwrap_err().is_invalid());
}

#[test]
fn sanitize_namespace_examples() {
    let long = "x".repeat(250);
    for (input, expected) in [
        ("learning:ok", "learning:ok"),
        ("a b", "a_b"),
        ("", "_"),
        ("/x/", "x"),
        ("a/../b", "a/__/b"),
        ("..", "__"),
        ("learning:", "learning:_"),
        ("é", "_"),
        ("//", "_"),
        (long.as_str(), &long[..200]),
    ] {
        assert_eq!(sanitize_namespace(input), expected, "{input:?}");
    }
}

#[tokio::test]
async fn forget_mutant_always_says_true() {
    let d = ForgetAlwaysTrue::new(ReferenceDriver::new());
    put(&d, "global", "k", "x").await;
    assert_eq!(d.forget("global", "k").await, Ok(true));
    assert_eq!(d.forget("global", "k").await, Ok(true));
    assert_eq!(d.forget("global", "never").await, Ok(true));
    assert_eq!(d.get("global", "k").await, Ok(None));
    assert!(d.forget("a b", "k").await.unwrap_err().is_invalid());
}
