//! The contract, where the PostgreSQL driver has something of its own to
//! show: exact scores, bytewise order, NUL everywhere, the text-search
//! limits.

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_postgres::{PostgresFactory, DRIVER_ID};

use crate::common::{admin, factory_or_skip, fresh, keys, put};

fn scores(hits: &[tinymemory_api::MemoryEntry]) -> Vec<f64> {
    hits.iter()
        .map(|h| h.score.expect("every hit is scored"))
        .collect()
}

#[tokio::test]
async fn scores_are_ts_rank_exactly_best_first_ties_by_key() {
    let factory = factory_or_skip!("contract::scores_are_ts_rank_exactly_best_first_ties_by_key");
    let d = fresh(&factory).await;
    assert_eq!(d.driver_id(), DRIVER_ID);
    // Stored in an order that is neither key nor score order.
    for (key, text) in [
        ("m-one", "alpha gamma delta epsilon"),
        ("z-both", "alpha beta gamma delta"),
        ("a-one", "alpha gamma delta epsilon"),
        ("b-both", "alpha beta gamma delta"),
        ("none", "gamma delta"),
    ] {
        put(&d, "global", key, text).await;
    }
    let hits = d
        .recall("Alpha BETA", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(keys(&hits), ["b-both", "z-both", "a-one", "m-one"]);
    let s = scores(&hits);
    assert!(
        s[0] == s[1] && s[1] > s[2] && s[2] == s[3] && s[3] > 0.0,
        "{s:?}"
    );
    // The same numbers the server computes for the same vector and query.
    let admin = admin().await;
    let want: Vec<f32> = admin
        .query(
            "SELECT ts_rank($1::text::tsvector, $2::text::tsquery) FROM (VALUES (1), (2)) AS v",
            &[
                &"'alpha':1 'beta':2 'gamma':3 'delta':4",
                &"'alpha' | 'beta'",
            ],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(s[0], f64::from(want[0]));
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn nul_and_odd_text_round_trip_in_every_column() {
    let factory = factory_or_skip!("contract::nul_and_odd_text_round_trip_in_every_column");
    let d = fresh(&factory).await;
    let category = MemoryCategory::Custom("cat\0egory 🦀".into());
    d.store(
        "learning:nul",
        "key\0one",
        "content\0with NUL and words",
        category.clone(),
        Some("session\0x"),
        MemoryTaint::ExternalSync,
    )
    .await
    .unwrap();
    let got = d.get("learning:nul", "key\0one").await.unwrap().unwrap();
    assert_eq!(got.key, "key\0one");
    assert_eq!(got.content, "content\0with NUL and words");
    assert_eq!(got.category, category);
    assert_eq!(got.session_id.as_deref(), Some("session\0x"));
    assert_eq!(got.taint, MemoryTaint::ExternalSync);
    assert_eq!(got.namespace.as_deref(), Some("learning:nul"));
    assert_eq!(got.score, None);
    // The filters compare the same bytes.
    let listed = d
        .list(Some("learning:nul"), Some(&category), Some("session\0x"))
        .await
        .unwrap();
    assert_eq!(listed, std::slice::from_ref(&got));
    assert_eq!(
        d.list(None, Some(&category), Some("session"))
            .await
            .unwrap(),
        []
    );
    let opts = RecallOptions {
        namespace: Some("learning:nul".into()),
        category: Some(category.clone()),
        session_id: Some("session\0x".into()),
        min_score: None,
    };
    assert_eq!(
        keys(&d.recall("words", 5, &opts).await.unwrap()),
        ["key\0one"]
    );
    let other = RecallOptions {
        category: Some(MemoryCategory::Core),
        ..opts
    };
    assert_eq!(d.recall("words", 5, &other).await.unwrap(), []);
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn list_orders_by_namespace_then_key_bytewise() {
    let factory = factory_or_skip!("contract::list_orders_by_namespace_then_key_bytewise");
    let d = fresh(&factory).await;
    // Bytewise: uppercase before lowercase, '_' (0x5F) between them, NUL
    // first, multibyte after ASCII; a collation-aware order would differ.
    let keys_in = ["b", "B", "_", "a\0", "a", "é", "🦀", "Z", "aa"];
    for ns in ["learning:b", "learning:B", "global", "learning:_"] {
        for k in keys_in {
            put(&d, ns, k, "ordered").await;
        }
    }
    let mut want: Vec<(String, String)> = ["learning:b", "learning:B", "global", "learning:_"]
        .iter()
        .flat_map(|ns| {
            keys_in
                .iter()
                .map(move |k| ((*ns).to_owned(), (*k).to_owned()))
        })
        .collect();
    want.sort();
    let got: Vec<(String, String)> = d
        .list(None, None, None)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.namespace.unwrap(), e.key))
        .collect();
    assert_eq!(got, want);
    let mut names: Vec<String> = d
        .namespaces()
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.namespace)
        .collect();
    let sorted = {
        let mut s = names.clone();
        s.sort();
        s
    };
    names.dedup();
    assert_eq!(
        names, sorted,
        "namespaces() are distinct (and happen to come sorted)"
    );
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn namespaces_count_exactly_with_the_latest_timestamp() {
    let factory = factory_or_skip!("contract::namespaces_count_exactly_with_the_latest_timestamp");
    let d = fresh(&factory).await;
    put(&d, "learning:a", "k1", "first").await;
    put(&d, "learning:a", "k2", "second").await;
    put(&d, "document:b", "k1", "other").await;
    let newest = d.get("learning:a", "k2").await.unwrap().unwrap().timestamp;
    let summaries = d.namespaces().await.unwrap();
    let a = summaries
        .iter()
        .find(|s| s.namespace == "learning:a")
        .unwrap();
    assert_eq!(a.count, 2);
    assert_eq!(a.last_updated.as_deref(), Some(newest.as_str()));
    assert_eq!(summaries.len(), 2);
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn ids_are_kept_on_replace_and_never_reused() {
    let factory = factory_or_skip!("contract::ids_are_kept_on_replace_and_never_reused");
    let d = fresh(&factory).await;
    put(&d, "global", "a", "one").await;
    let first = d.get("global", "a").await.unwrap().unwrap().id;
    put(&d, "global", "a", "two").await;
    assert_eq!(d.get("global", "a").await.unwrap().unwrap().id, first);
    assert!(d.forget("global", "a").await.unwrap());
    put(&d, "global", "a", "three").await;
    let again = d.get("global", "a").await.unwrap().unwrap().id;
    assert_ne!(again, first);
    assert!(again.parse::<i64>().unwrap() > first.parse::<i64>().unwrap());
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn text_search_limits_cut_never_fail() {
    let factory = factory_or_skip!("contract::text_search_limits_cut_never_fail");
    let d = fresh(&factory).await;
    // A word longer than PostgreSQL's 2046-byte lexeme limit.
    let long_word = "x".repeat(3000);
    put(&d, "global", "long", &format!("{long_word} tail")).await;
    assert_eq!(
        keys(
            &d.recall(&long_word, 5, &RecallOptions::default())
                .await
                .unwrap()
        ),
        ["long"]
    );
    // Distinct words beyond the 1 MiB tsvector limit: stored whole, the
    // early words found.
    let many: Vec<String> = (0..150_000).map(|i| format!("w{i:07}")).collect();
    let text = many.join(" ");
    put(&d, "global", "many", &text).await;
    assert_eq!(
        d.get("global", "many").await.unwrap().unwrap().content,
        text
    );
    assert_eq!(
        keys(
            &d.recall("w0000001", 5, &RecallOptions::default())
                .await
                .unwrap()
        ),
        ["many"]
    );
    // One word repeated past 256 positions and position 16383.
    put(&d, "global", "repeat", &"again ".repeat(20_000)).await;
    assert_eq!(
        keys(
            &d.recall("again", 5, &RecallOptions::default())
                .await
                .unwrap()
        ),
        ["repeat"]
    );
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn every_script_of_the_hostile_table_is_found_by_its_words() {
    let factory =
        factory_or_skip!("contract::every_script_of_the_hostile_table_is_found_by_its_words");
    let d = fresh(&factory).await;
    for (key, text) in [
        ("zh", "机器人是人工智能的分支"),
        ("ja", "日本語のテキストを検索する"),
        ("th", "กินข้าวหรือยัง"),
        ("hi", "नमस्ते दुनिया"),
        ("ru", "Привет МИР"),
        ("ar", "مرحبا بالعالم"),
    ] {
        put(&d, "global", key, text).await;
    }
    for (query, want) in [
        ("人工智能", "zh"),
        ("机", "zh"),
        ("テキスト", "ja"),
        ("検索", "ja"),
        ("ข้าว", "th"),
        ("दुनिया", "hi"),
        ("мир", "ru"),
        ("ПРИВЕТ", "ru"),
        ("بالعالم", "ar"),
    ] {
        let hits = d
            .recall(query, 10, &RecallOptions::default())
            .await
            .unwrap();
        assert!(keys(&hits).contains(&want), "{query:?} → {:?}", keys(&hits));
    }
    factory.cleanup().await.unwrap();
}

/// `PostgresFactory` is a `Send + Sync` value any test can hold.
#[test]
fn factory_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<PostgresFactory>();
}
