//! The mutant catalogue: every mutant differs from the reference driver on
//! a concrete input, and each broken behaviour is shown with exact values.
//! (That each is caught by the check it names is the conformance crate's
//! self-test.)

use std::collections::BTreeSet;

use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, RecallOptions,
};
use tinymemory_doubles::mutants::{
    like, mutant, mutants, sanitize_namespace, CaseFoldsNamespaces, CountsEveryStore,
    DuplicatesOnStore, EngineSyntaxErrors, ForgetAlwaysTrue, IgnoresMinScore, InflatedCounts,
    LikeWildcards, LimitPlusOne, LosesConcurrentWrites, NanScores, NegatedScores,
    PrefixPinnedRecall, SanitizesNamespaces, SplitsNamespacesByCategory, StaleRecallAfterForget,
};
use tinymemory_reference::ReferenceDriver;

use crate::support::{counts, keys, put, scored};

fn reference() -> Box<dyn MemoryProvider> {
    Box::new(ReferenceDriver::new())
}

async fn put_as(
    d: &dyn MemoryProvider,
    ns: &str,
    key: &str,
    category: MemoryCategory,
    taint: MemoryTaint,
) {
    d.store(ns, key, "note", category, None, taint)
        .await
        .unwrap_or_else(|e| panic!("failed to store {ns}/{key}: {e}"));
}

fn key_ns(entries: &[MemoryEntry]) -> Vec<(&str, Option<&str>)> {
    entries
        .iter()
        .map(|e| (e.key.as_str(), e.namespace.as_deref()))
        .collect()
}

/// Every mutant's witness (its own file's entry) tells it from the driver
/// it wraps: the scenario renders exactly the stated line on a fresh
/// [`Mutant::base`](tinymemory_doubles::Mutant::base) and exactly the
/// other on the mutant.
#[tokio::test]
async fn every_mutant_differs_from_the_reference_on_its_witness() {
    for m in mutants() {
        let w = m.witness;
        assert_ne!(
            w.reference, w.mutant,
            "{}: a witness must tell them apart",
            m.name
        );
        let plain = (w.scenario)(&*m.base()).await;
        assert_eq!(
            plain.as_deref(),
            Ok(w.reference),
            "reference on the witness of {}",
            m.name
        );
        let mutated = (w.scenario)(&*m.open()).await;
        assert_eq!(
            mutated.as_deref(),
            Ok(w.mutant),
            "mutant {} on its witness",
            m.name
        );
    }
}

#[test]
fn catalogue_entries_are_unique_and_complete() {
    let names: BTreeSet<&str> = mutants().iter().map(|m| m.name).collect();
    assert_eq!(names.len(), mutants().len(), "mutant names are unique");
    for m in mutants() {
        assert!(
            m.name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{} is kebab-case",
            m.name
        );
        assert!(
            m.check
                .split_once('.')
                .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty()),
            "{}: check id {:?}",
            m.name,
            m.check
        );
        assert!(
            !m.rule.is_empty() && !m.rule.contains('\n'),
            "{}: one-line rule",
            m.name
        );
        assert!(
            !m.description.is_empty() && !m.description.contains('\n'),
            "{}",
            m.name
        );
        assert!(!m.also_caught_by.contains(&m.check), "{}", m.name);
        assert_eq!(m.expected_failures()[0], m.check, "{}", m.name);
    }
}

#[test]
fn mutants_are_found_by_name() {
    let m = mutant("limit-plus-one").unwrap();
    assert_eq!((m.name, m.check), ("limit-plus-one", "recall.limit"));
    assert_eq!(
        m.expected_failures(),
        [
            "recall.limit",
            "recall.min_score",
            "sections.across_merge_order",
            "model.differential"
        ]
    );
    assert!(mutant("recall.limit").is_none());
    assert!(mutant("nope").is_none());
    assert_eq!(
        format!("{m:?}"),
        "Mutant { name: \"limit-plus-one\", rule: \"contract 5: at most limit hits; limit 0 returns Ok(empty)\", \
         check: \"recall.limit\", also_caught_by: [\"recall.min_score\", \"sections.across_merge_order\", \"model.differential\"], \
         description: \"recall returns up to limit + 1 hits, and one hit for limit 0\", wrapper: \"LimitPlusOne::new(_)\", \
         profile: Lexical, witness: Witness { reference: \"(0, 2)\", mutant: \"(1, 3)\", .. }, .. }"
    );
}

#[test]
fn a_mutants_wrapper_is_the_constructor_its_wrap_calls() {
    let wrapper = |name| mutant(name).unwrap().wrapper;
    assert_eq!(wrapper("duplicates-on-upsert"), "DuplicatesOnStore::new(_)");
    assert_eq!(
        wrapper("strips-hit-namespace"),
        "crate::TamperHits::strip(_)"
    );
    assert_eq!(
        wrapper("short-top-k"),
        "RankingFault::new(RankingFaultKind::ShortTopK, _)"
    );
    assert_eq!(
        wrapper("defaults-kept-by-import"),
        "DefaultsAsAbsent::new(UpsertPath::Import, DefaultFields::ALL, _)"
    );
    assert_eq!(
        wrapper("stale-embedding-on-upsert"),
        "StaleIndex::new(&[UpsertPath::Store, UpsertPath::StoreMany, UpsertPath::Import], _)"
    );
}

#[tokio::test]
async fn mutants_keep_the_wrapped_driver_id() {
    for m in mutants() {
        assert_eq!((m.wrap)(reference()).driver_id(), "reference", "{}", m.name);
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
        ("don't read", "'"),
        ("read.", "."),
        ("a,b", ","),
        ("\u{1}read", "\u{1}"),
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
        keys(&d.recall("lése Größe 読む", 10, &opts).await.unwrap()),
        Vec::<&str>::new()
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

#[tokio::test]
async fn drops_taint_keeps_category_and_session() {
    let d = tinymemory_doubles::mutants::DropsTaint::new(ReferenceDriver::new());
    d.store(
        "global",
        "k",
        "x",
        MemoryCategory::Daily,
        Some("s1"),
        MemoryTaint::ExternalSync,
    )
    .await
    .unwrap();
    let e = d.get("global", "k").await.unwrap().unwrap();
    assert_eq!(
        (e.category, e.session_id.as_deref(), e.taint),
        (MemoryCategory::Daily, Some("s1"), MemoryTaint::Internal)
    );
}

#[tokio::test]
async fn concurrent_writes_mutant_keeps_sequential_writes_and_refuses_bad_input() {
    let d = LosesConcurrentWrites::new(ReferenceDriver::new());
    for k in ["a", "b", "c"] {
        put(&d, "global", k, "x").await;
    }
    assert_eq!(
        keys(&d.list(None, None, None).await.unwrap()),
        ["a", "b", "c"]
    );
    let bad_ns = d
        .store(
            "a b",
            "k",
            "x",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await;
    assert_eq!(
        bad_ns.unwrap_err().rule(),
        Some(tinymemory_api::rules::NAMESPACE_CHARSET)
    );
    let bad_key = d
        .store(
            "global",
            "",
            "x",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await;
    assert_eq!(
        bad_key.unwrap_err().rule(),
        Some(tinymemory_api::rules::KEY_EMPTY)
    );
    // Four at once: the first is written, the three that overlap it are lost;
    // afterwards nothing is in flight, so the next store lands again.
    tokio::join!(
        put(&d, "learning:w", "1", "x"),
        put(&d, "learning:w", "2", "x"),
        put(&d, "learning:w", "3", "x"),
        put(&d, "learning:w", "4", "x"),
    );
    put(&d, "learning:w", "5", "x").await;
    let got = d.list(Some("learning:w"), None, None).await.unwrap();
    assert_eq!(keys(&got), ["1", "5"]);
}

#[tokio::test]
async fn nan_scores_mutant_drops_the_nan_hit_under_min_score() {
    let d = NanScores::new(ReferenceDriver::new());
    put(&d, "global", "full", "rust async").await;
    put(&d, "global", "half", "rust tokio").await;
    let opts = RecallOptions {
        min_score: Some(0.1),
        ..RecallOptions::default()
    };
    let hits = d.recall("rust async", 10, &opts).await.unwrap();
    assert_eq!(scored(&hits), [("half", Some(0.5))]);
    let bad = RecallOptions {
        min_score: Some(f64::NAN),
        ..RecallOptions::default()
    };
    assert!(d.recall("rust", 10, &bad).await.unwrap_err().is_invalid());
}

#[tokio::test]
async fn stale_recall_mutant_forgets_the_ghost_once_the_key_is_stored_again() {
    let d = StaleRecallAfterForget::new(ReferenceDriver::new());
    put(&d, "global", "k", "zebra crossing").await;
    put(&d, "global", "j", "zebra").await;
    assert_eq!(d.forget("global", "k").await, Ok(true));
    assert_eq!(d.forget("global", "k").await, Ok(false));
    assert_eq!(d.get("global", "k").await, Ok(None));
    assert_eq!(counts(&d.namespaces().await.unwrap()), [("global", 1)]);
    let opts = RecallOptions::default();
    let hits = d.recall("zebra crossing", 10, &opts).await.unwrap();
    assert_eq!(scored(&hits), [("k", Some(1.0)), ("j", Some(0.5))]);
    assert_eq!(keys(&d.recall("zebra", 1, &opts).await.unwrap()), ["j"]);
    let other = RecallOptions::in_namespace("learning:x");
    assert!(d.recall("zebra", 10, &other).await.unwrap().is_empty());
    put(&d, "global", "k", "horse").await;
    assert_eq!(keys(&d.recall("zebra", 10, &opts).await.unwrap()), ["j"]);
}

#[tokio::test]
async fn case_folding_mutant_lowercases_every_namespace_but_refuses_invalid_ones() {
    let d = CaseFoldsNamespaces::new(ReferenceDriver::new());
    put(&d, "learning:Rust", "k", "borrow").await;
    assert_eq!(
        counts(&d.namespaces().await.unwrap()),
        [("learning:rust", 1)]
    );
    assert_eq!(
        keys(&d.list(Some("learning:RUST"), None, None).await.unwrap()),
        ["k"]
    );
    let opts = RecallOptions::in_namespace("LEARNING:rust");
    assert_eq!(
        key_ns(&d.recall("borrow", 5, &opts).await.unwrap()),
        [("k", Some("learning:rust"))]
    );
    assert_eq!(d.forget("Learning:RUST", "k").await, Ok(true));
    assert!(d.get("Bad Name", "k").await.unwrap_err().is_invalid());
}

#[test]
fn like_matches_sql_like_patterns() {
    for (pattern, value, want) in [
        ("learning:a_b", "learning:a_b", true),
        ("learning:a_b", "learning:axb", true),
        ("learning:a_b", "learning:ab", false),
        ("learning:a_b", "learning:axxb", false),
        ("learning:a%", "learning:a", true),
        ("learning:a%", "learning:abc", true),
        ("%:a", "learning:a", true),
        ("%b%", "abc", true),
        ("%b%", "ac", false),
        ("a", "A", false),
        ("", "", true),
        ("_", "é", true),
    ] {
        assert_eq!(like(pattern, value), want, "like({pattern:?}, {value:?})");
    }
}

#[tokio::test]
async fn wildcard_mutant_widens_list_only() {
    let d = LikeWildcards::new(ReferenceDriver::new());
    put(&d, "learning:a_b", "k1", "borrow").await;
    put(&d, "learning:axb", "k2", "borrow").await;
    assert_eq!(
        keys(&d.list(Some("learning:axb"), None, None).await.unwrap()),
        ["k2"]
    );
    let opts = RecallOptions::in_namespace("learning:a_b");
    assert_eq!(keys(&d.recall("borrow", 5, &opts).await.unwrap()), ["k1"]);
    assert_eq!(d.get("learning:a_b", "k2").await, Ok(None));
    assert!(d
        .list(Some("a b"), None, None)
        .await
        .unwrap_err()
        .is_invalid());
    assert_eq!(d.list(None, None, None).await.unwrap().len(), 2);
}

#[tokio::test]
async fn split_namespaces_mutant_sums_to_the_true_count() {
    let d = SplitsNamespacesByCategory::new(ReferenceDriver::new());
    for (key, category) in [
        ("k1", MemoryCategory::Core),
        ("k2", MemoryCategory::Daily),
        ("k3", MemoryCategory::Core),
        ("k4", MemoryCategory::Custom("projects".into())),
    ] {
        put_as(&d, "learning:m", key, category, MemoryTaint::Internal).await;
    }
    put(&d, "global", "g", "x").await;
    let listed = d.namespaces().await.unwrap();
    assert_eq!(
        counts(&listed),
        [
            ("global", 1),
            ("learning:m", 2),
            ("learning:m", 1),
            ("learning:m", 1)
        ]
    );
    let newest = d.get("learning:m", "k3").await.unwrap().unwrap().timestamp;
    assert_eq!(listed[1].last_updated.as_deref(), Some(newest.as_str()));
}

#[tokio::test]
async fn prefix_mutant_merges_every_namespace_the_pin_prefixes() {
    let d = PrefixPinnedRecall::new(ReferenceDriver::new());
    put(&d, "learning:rust", "k1", "borrow checker").await;
    put(&d, "learning:rust-async", "k2", "borrow").await;
    put(&d, "learning:rust/tokio", "k3", "borrow checker").await;
    put(&d, "learning:ru", "k4", "borrow").await;
    let opts = RecallOptions::in_namespace("learning:rust");
    let hits = d.recall("borrow checker", 10, &opts).await.unwrap();
    assert_eq!(
        key_ns(&hits),
        [
            ("k1", Some("learning:rust")),
            ("k3", Some("learning:rust/tokio")),
            ("k2", Some("learning:rust-async")),
        ]
    );
    assert_eq!(
        keys(&d.recall("borrow checker", 1, &opts).await.unwrap()),
        ["k1"]
    );
    let exact = RecallOptions::in_namespace("learning:rust/tokio");
    assert_eq!(keys(&d.recall("borrow", 10, &exact).await.unwrap()), ["k3"]);
    assert!(d
        .recall("x", 1, &RecallOptions::in_namespace("a b"))
        .await
        .unwrap_err()
        .is_invalid());
}

#[tokio::test]
async fn counts_every_store_mutant_counts_upserts_until_forgotten() {
    let d = CountsEveryStore::new(ReferenceDriver::new());
    put(&d, "learning:a", "k1", "x").await;
    put(&d, "learning:a", "k1", "y").await;
    put(&d, "learning:a", "k1", "z").await;
    put(&d, "learning:a", "k2", "x").await;
    put(&d, "global", "g", "x").await;
    assert_eq!(
        counts(&d.namespaces().await.unwrap()),
        [("global", 1), ("learning:a", 4)]
    );
    assert_eq!(
        d.list(Some("learning:a"), None, None).await.unwrap().len(),
        2
    );
    assert_eq!(d.forget("learning:a", "k1").await, Ok(true));
    assert_eq!(
        counts(&d.namespaces().await.unwrap()),
        [("global", 1), ("learning:a", 1)]
    );
    put(&d, "learning:a", "k1", "again").await;
    assert_eq!(
        counts(&d.namespaces().await.unwrap()),
        [("global", 1), ("learning:a", 2)]
    );
}
