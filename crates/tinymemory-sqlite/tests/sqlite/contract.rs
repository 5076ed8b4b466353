//! The ten contract sentences, and the SQLite-specific promises around them
//! (scores are negated bm25, ties by key, plain-text queries in every
//! form), on an in-memory and a file-backed database. Every assertion is on
//! exact values.

use crate::common;

use std::future::Future as _;

use common::{fixtures, put};
use tinymemory_api::{
    rules, MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint, RecallOptions,
};
use tinymemory_sqlite::{SqliteDriver, DRIVER_ID};

fn keys(hits: &[MemoryEntry]) -> Vec<&str> {
    hits.iter().map(|h| h.key.as_str()).collect()
}

fn scores(hits: &[MemoryEntry]) -> Vec<f64> {
    hits.iter().map(|h| h.score.unwrap()).collect()
}

#[test]
fn driver_id_is_sqlite() {
    let d = SqliteDriver::open_in_memory().unwrap();
    assert_eq!(d.driver_id(), "sqlite");
    assert_eq!(DRIVER_ID, "sqlite");
    assert_eq!(d.path(), None);
}

#[tokio::test]
async fn store_upserts_and_keeps_what_was_given() {
    for f in fixtures() {
        let d = &f.driver;
        d.store(
            "global",
            "k",
            "first",
            MemoryCategory::Core,
            Some("s1"),
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        let first = d.get("global", "k").await.unwrap().unwrap();
        d.store(
            "global",
            "k",
            "second",
            MemoryCategory::Custom("projects".into()),
            None,
            MemoryTaint::ExternalSync,
        )
        .await
        .unwrap();
        let all = d.list(None, None, None).await.unwrap();
        assert_eq!(all.len(), 1, "{}", f.name);
        let e = &all[0];
        assert_eq!(e.key, "k");
        assert_eq!(e.content, "second");
        assert_eq!(e.namespace.as_deref(), Some("global"));
        assert_eq!(e.category, MemoryCategory::Custom("projects".into()));
        assert_eq!(e.session_id, None);
        assert_eq!(e.taint, MemoryTaint::ExternalSync);
        assert_eq!(e.score, None);
        assert_eq!(e.id, first.id, "an upsert keeps the entry id");
        assert!(e.timestamp >= first.timestamp);
        assert_eq!(d.get("global", "k").await.unwrap().as_ref(), Some(e));
        // The index was replaced too: the old content is not found.
        assert_eq!(
            d.recall("first", 10, &RecallOptions::default())
                .await
                .unwrap(),
            []
        );
        assert_eq!(
            keys(
                &d.recall("second", 10, &RecallOptions::default())
                    .await
                    .unwrap()
            ),
            ["k"]
        );
    }
}

#[tokio::test]
async fn categories_and_taints_round_trip() {
    for f in fixtures() {
        let d = &f.driver;
        let categories = [
            MemoryCategory::Core,
            MemoryCategory::Daily,
            MemoryCategory::Conversation,
            MemoryCategory::Custom("core".into()),
            MemoryCategory::Custom("custom:x".into()),
            MemoryCategory::Custom(String::new()),
        ];
        for (i, c) in categories.iter().enumerate() {
            let taint = if i % 2 == 0 {
                MemoryTaint::Internal
            } else {
                MemoryTaint::ExternalSync
            };
            d.store("global", &format!("k{i}"), "x", c.clone(), None, taint)
                .await
                .unwrap();
        }
        for (i, c) in categories.iter().enumerate() {
            let e = d.get("global", &format!("k{i}")).await.unwrap().unwrap();
            assert_eq!(&e.category, c, "{}", f.name);
            assert_eq!(e.taint == MemoryTaint::Internal, i % 2 == 0);
            let listed = d.list(None, Some(c), None).await.unwrap();
            assert_eq!(keys(&listed), [format!("k{i}")], "list by {c:?}");
        }
    }
}

#[tokio::test]
async fn unknown_taint_text_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let d = SqliteDriver::open(&path).unwrap();
    put(&d, "global", "k", "x").await;
    drop(d);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute(
        "UPDATE memory_entries SET taint = 'INTERNAL', category = 'later'",
        [],
    )
    .unwrap();
    drop(raw);
    let d = SqliteDriver::open(&path).unwrap();
    let e = d.get("global", "k").await.unwrap().unwrap();
    assert_eq!(e.taint, MemoryTaint::ExternalSync);
    assert_eq!(e.category, MemoryCategory::Custom("later".into()));
}

#[tokio::test]
async fn recall_without_namespace_searches_global_only() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "g", "rust async").await;
        put(d, "learning:rust", "l", "rust async").await;
        put(d, "globalx", "x", "rust async").await;
        let hits = d
            .recall("rust", 10, &RecallOptions::default())
            .await
            .unwrap();
        assert_eq!(keys(&hits), ["g"], "{}", f.name);
        assert_eq!(hits[0].namespace.as_deref(), Some("global"));
        let hits = d
            .recall("rust", 10, &RecallOptions::in_namespace("learning:rust"))
            .await
            .unwrap();
        assert_eq!(keys(&hits), ["l"]);
        assert_eq!(hits[0].namespace.as_deref(), Some("learning:rust"));
    }
}

#[tokio::test]
async fn scores_are_negated_bm25_best_first_ties_by_key() {
    for f in fixtures() {
        let d = &f.driver;
        // Equal content under keys stored out of order: equal scores.
        for k in ["c", "a", "b"] {
            put(d, "global", k, "alpha beta").await;
        }
        put(d, "global", "z", "alpha beta alpha").await;
        put(d, "global", "d", "alpha gamma delta epsilon").await;
        put(d, "global", "n", "nothing relevant").await;
        let hits = d
            .recall("alpha", 10, &RecallOptions::default())
            .await
            .unwrap();
        assert_eq!(keys(&hits), ["z", "a", "b", "c", "d"], "{}", f.name);
        let s = scores(&hits);
        assert!(s.iter().all(|x| x.is_finite() && *x > 0.0));
        assert!(
            s[0] > s[1] && s[1] == s[2] && s[2] == s[3] && s[3] > s[4],
            "{s:?}"
        );
        assert!(hits
            .iter()
            .all(|h| h.namespace.as_deref() == Some("global")));

        // Six rows, "alpha" in five: IDF is clamped to 1e-6, and
        // score = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))
        // with k1 = 1.2, b = 0.75 (SQLite FTS5 documentation, bm25).
        let avg = (2.0 * 3.0 + 3.0 + 4.0 + 2.0) / 6.0;
        let bm25 = |tf: f64, len: f64| 1e-6 * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len / avg));
        let want = [
            bm25(2.0, 3.0),
            bm25(1.0, 2.0),
            bm25(1.0, 2.0),
            bm25(1.0, 2.0),
            bm25(1.0, 4.0),
        ];
        for (got, want) in s.iter().zip(want) {
            assert!((got - want).abs() <= 1e-15, "{got} vs {want}");
        }

        // A rare word: IDF = ln((6 - 1 + 0.5) / (1 + 0.5)).
        let hits = d
            .recall("gamma", 10, &RecallOptions::default())
            .await
            .unwrap();
        assert_eq!(keys(&hits), ["d"]);
        let want = (5.5_f64 / 1.5).ln() * 2.2 / (1.0 + 1.2 * (0.25 + 0.75 * 4.0 / avg));
        assert!((hits[0].score.unwrap() - want).abs() < 1e-12);
    }
}

/// FTS5's own `bm25()` over a table holding only `docs` (tokenised as
/// schema version 1 did), negated: `(key, score)` best first, ties by key.
fn fts5_scores(docs: &[(&str, &str)], expression: &str) -> Vec<(String, f64)> {
    let raw = rusqlite::Connection::open_in_memory().unwrap();
    raw.execute_batch(
        "CREATE VIRTUAL TABLE t USING fts5(key UNINDEXED, body,
             tokenize = \"unicode61 remove_diacritics 0 categories 'L* N* Co M*'\")",
    )
    .unwrap();
    for (k, c) in docs {
        raw.execute(
            "INSERT INTO t (key, body) VALUES (?1, ?2)",
            [*k, tinymemory_text::index_text(c).as_str()],
        )
        .unwrap();
    }
    let mut stmt = raw
        .prepare("SELECT key, bm25(t) FROM t WHERE t MATCH ?1 ORDER BY 2, 1")
        .unwrap();
    stmt.query_map([expression], |r| Ok((r.get(0)?, -r.get::<_, f64>(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// [`fts5_scores`] as `(key, score bits)`.
fn fts5_bits(docs: &[(&str, &str)], expression: &str) -> Vec<(String, u64)> {
    fts5_scores(docs, expression)
        .into_iter()
        .map(|(k, s)| (k, s.to_bits()))
        .collect()
}

/// The driver's recall of `query` in `global` as `(key, score bits)`.
async fn driver_bits(d: &SqliteDriver, query: &str, limit: usize) -> Vec<(String, u64)> {
    d.recall(query, limit, &RecallOptions::default())
        .await
        .unwrap()
        .into_iter()
        .map(|h| (h.key, h.score.unwrap().to_bits()))
        .collect()
}

#[tokio::test]
async fn scores_equal_fts5_bm25_on_the_namespace_alone_bit_for_bit() {
    let global = [
        ("a", "the quick brown fox"),
        ("b", "the lazy dog and the fox"),
        ("c", "quick quick quick"),
        ("d", "机器人喜欢学习，机器人会写代码"),
        ("e", "我是机器，不是人"),
        ("f", "人工智能和机器学习"),
        ("g", "Quick thinking, FOX hunting"),
    ];
    let d = SqliteDriver::open_in_memory().unwrap();
    for (k, c) in global {
        put(&d, "global", k, c).await;
    }
    // Entries elsewhere sharing the words change nothing (sentence 11).
    for i in 0..20 {
        put(&d, "other", &format!("o{i}"), "fox quick 机器人 机器 人").await;
    }
    for (query, expression) in [
        ("quick fox", r#""quick" OR "fox""#),
        ("the", r#""the""#),
        ("机器人", r#""机器 器人" OR "机器" OR "器人""#),
        ("人", r#""人" *"#),
        (
            "机器人 fox 我",
            r#""机器 器人" OR "机器" OR "器人" OR "fox" OR "我" *"#,
        ),
    ] {
        let got = driver_bits(&d, query, 100).await;
        let want = fts5_bits(&global, expression);
        assert_eq!(got, want, "{query}");
        assert!(!got.is_empty(), "{query}");
    }
}

/// A phrase (an unspaced run of three characters or more) matches where
/// its bigrams are adjacent, and only there, however far into an entry:
/// positions are stored as LEB128 gaps, and a gap of 128 or more takes two
/// bytes. Bit-identical to FTS5 on the namespace alone.
#[tokio::test]
async fn phrases_match_far_into_long_entries_exactly_as_fts5() {
    let filler = |from: usize| -> String {
        (from..from + 150)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // The run's bigrams at tokens 127 and 128, the gaps of one and two
    // bytes, and the run again about 150 tokens later (two bytes each).
    let long = format!(
        "{} 机器人 {} 机器人",
        filler(0).split(' ').take(127).collect::<Vec<_>>().join(" "),
        filler(150)
    );
    let unrelated: Vec<(String, String)> = (0..16)
        .map(|i| (format!("other{i:02}"), format!("unrelated text {i}")))
        .collect();
    let mut docs = vec![
        ("long", long.as_str()),
        ("short", "机器人"),
        // Both bigrams, never adjacent: not the phrase.
        ("apart", "机器很好，器人不对"),
        ("neither", "人工智能"),
    ];
    // Enough entries that the phrase's IDF is not clamped: one more entry
    // counted as holding it changes every score.
    docs.extend(unrelated.iter().map(|(k, c)| (k.as_str(), c.as_str())));
    let d = SqliteDriver::open_in_memory().unwrap();
    for &(k, c) in &docs {
        put(&d, "global", k, c).await;
    }
    let got = driver_bits(&d, "机器人", 10).await;
    let want = fts5_bits(&docs, r#""机器 器人" OR "机器" OR "器人""#);
    assert_eq!(got, want);
    let order: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(order, ["short", "apart", "long"]);
}

#[tokio::test]
async fn same_data_same_order_whatever_the_history() {
    let docs: Vec<(String, String)> = (0..60)
        .map(|i| {
            let words = ["rust", "async", "tokio", "sqlite", "memory", "agent"];
            let content: Vec<&str> = (0..=(i % 5)).map(|j| words[(i * 7 + j * 3) % 6]).collect();
            (format!("k{:02}", (i * 37) % 60), content.join(" "))
        })
        .collect();
    let a = SqliteDriver::open_in_memory().unwrap();
    for (k, c) in &docs {
        put(&a, "global", k, c).await;
    }
    // B: reverse order, with churn (overwritten and forgotten entries).
    let b = SqliteDriver::open_in_memory().unwrap();
    put(&b, "global", "gone", "rust rust tokio").await;
    for (k, c) in docs.iter().rev() {
        put(&b, "global", k, "temporary text about rust").await;
        put(&b, "global", k, c).await;
    }
    assert!(b.forget("global", "gone").await.unwrap());
    for q in ["rust", "async tokio", "memory agent sqlite", "nothing"] {
        let ha = a.recall(q, 100, &RecallOptions::default()).await.unwrap();
        let hb = b.recall(q, 100, &RecallOptions::default()).await.unwrap();
        let pa: Vec<_> = ha.iter().map(|h| (&h.key, h.score)).collect();
        let pb: Vec<_> = hb.iter().map(|h| (&h.key, h.score)).collect();
        assert_eq!(pa, pb, "{q}");
        for w in ha.windows(2) {
            let (x, y) = (w[0].score.unwrap(), w[1].score.unwrap());
            assert!(x > y || (x == y && w[0].key < w[1].key), "{q}: order");
        }
    }
}

#[tokio::test]
async fn limit_caps_hits_and_zero_is_empty() {
    for f in fixtures() {
        let d = &f.driver;
        for k in ["a", "b", "c", "d"] {
            put(d, "global", k, "same words").await;
        }
        let opts = RecallOptions::default();
        assert_eq!(d.recall("same", 0, &opts).await.unwrap(), []);
        assert_eq!(keys(&d.recall("same", 1, &opts).await.unwrap()), ["a"]);
        assert_eq!(
            keys(&d.recall("same", 3, &opts).await.unwrap()),
            ["a", "b", "c"]
        );
        assert_eq!(d.recall("same", usize::MAX, &opts).await.unwrap().len(), 4);
        // limit 0 wins over a bad query and no data.
        assert_eq!(d.recall("\"", 0, &opts).await.unwrap(), []);
    }
}

/// `(query, keys expected, best first)` over the entries of
/// [`plain_text_queries_are_never_syntax`].
const QUERIES: &[(&str, &[&str])] = &[
    ("read AND write", &["lock", "andy"]),
    ("AND", &["lock"]),
    ("OR", &[]),
    ("NOT", &["not"]),
    ("NEAR", &["near"]),
    ("NEAR(", &["near"]),
    ("NEAR(door", &["near"]),
    ("don't", &["dont"]),
    ("\"don't\"", &["dont"]),
    ("multi-agent", &["multi"]),
    ("-agent", &["multi"]),
    ("lock*", &["lock"]),
    ("^lock", &["lock"]),
    ("col:lock", &["lock"]),
    ("body:lock", &["lock"]),
    ("(lock)", &["lock"]),
    ("lock)", &["lock"]),
    ("+lock", &["lock"]),
    ("\"lock", &["lock"]),
    ("lock\0", &["lock"]),
    ("\u{1}\u{7f}lock\u{1b}", &["lock"]),
    ("lo\0ck", &[]),
    ("\"", &[]),
    ("\"\"", &[]),
    ("*", &[]),
    ("^", &[]),
    (":", &[]),
    ("(", &[]),
    (")", &[]),
    ("-", &[]),
    ("* ^ : ( ) \" - + {} [] ,", &[]),
    ("\0", &[]),
    ("", &[]),
    ("   \t\n ", &[]),
    ("🦀", &[]),
    ("机器", &["robot"]),
    ("人", &["robot"]),
    ("機械", &[]),
    // Letters newer than Unicode 6.1, the tables of FTS5's tokenizer: it
    // reads U+A7C0 as a separator (alone it finds nothing, and is no error)
    // and the whole CJK block as letters.
    ("\u{A7C0}", &[]),
    ("\u{9FD0}", &["newer"]),
    ("\u{9FD0}\u{9FD1}\u{9FD2}", &["newer"]),
    ("new\u{A7C0}", &["newer"]),
];

#[tokio::test]
async fn plain_text_queries_are_never_syntax() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "lock", "read AND write lock").await;
        put(d, "global", "andy", "write it down").await;
        put(d, "global", "not", "this is NOT a drill").await;
        put(d, "global", "near", "meet me NEAR(the door)").await;
        put(d, "global", "dont", "I don't know").await;
        put(d, "global", "multi", "multi-agent systems").await;
        put(d, "global", "robot", "机器人").await;
        put(
            d,
            "global",
            "newer",
            "new\u{A7C0} \u{9FD0}\u{9FD1}\u{9FD2} \u{9FD0}",
        )
        .await;
        let opts = RecallOptions::default();
        for (q, want) in QUERIES {
            let hits = d
                .recall(q, 10, &opts)
                .await
                .unwrap_or_else(|e| panic!("{}: query {q:?}: {e}", f.name));
            assert_eq!(keys(&hits), *want, "{}: query {q:?}", f.name);
        }
        // 10,000 characters of operators and words, and of one word.
        let long: String = "NEAR(\"a\" AND b* OR ^c) NOT d:e - ".repeat(320);
        assert!(long.len() >= 10_000);
        let mut got: Vec<String> = d
            .recall(&long, 10, &opts)
            .await
            .unwrap()
            .into_iter()
            .map(|h| h.key)
            .collect();
        got.sort();
        assert_eq!(got, ["lock", "near", "not"], "operators are words");
        let words: String = (0..2000).map(|i| format!("w{i} ")).collect::<String>() + "lock";
        assert!(words.len() >= 10_000);
        assert_eq!(d.recall(&words, 10, &opts).await.unwrap(), []);
        let one = "a".repeat(10_000);
        assert_eq!(d.recall(&one, 10, &opts).await.unwrap(), []);
        let lock_first: String = "lock ".to_owned() + &"x ".repeat(5000);
        assert_eq!(
            keys(&d.recall(&lock_first, 10, &opts).await.unwrap()),
            ["lock"]
        );
    }
}

#[tokio::test]
async fn min_score_drops_lower_hits() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "a", "rust rust rust").await;
        put(d, "global", "b", "rust and more words here").await;
        put(d, "global", "c", "rust with many many other words in it").await;
        for i in 0..5 {
            put(d, "global", &format!("pad{i}"), "padding").await;
        }
        let all = d
            .recall("rust", 10, &RecallOptions::default())
            .await
            .unwrap();
        assert_eq!(keys(&all), ["a", "b", "c"], "{}", f.name);
        let s = scores(&all);
        let at = |min: f64| RecallOptions {
            min_score: Some(min),
            ..RecallOptions::default()
        };
        assert_eq!(
            keys(&d.recall("rust", 10, &at(s[1])).await.unwrap()),
            ["a", "b"]
        );
        assert_eq!(keys(&d.recall("rust", 10, &at(s[0])).await.unwrap()), ["a"]);
        assert_eq!(d.recall("rust", 10, &at(s[0] + 1.0)).await.unwrap(), []);
        assert_eq!(
            keys(&d.recall("rust", 10, &at(-1.0)).await.unwrap()),
            ["a", "b", "c"]
        );
        assert_eq!(keys(&d.recall("rust", 1, &at(s[2])).await.unwrap()), ["a"]);
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let e = d.recall("rust", 10, &at(bad)).await.unwrap_err();
            assert_eq!(e.rule(), Some(rules::MIN_SCORE_NOT_FINITE));
        }
    }
}

#[tokio::test]
async fn recall_and_list_filter_by_category_and_session() {
    for f in fixtures() {
        let d = &f.driver;
        let c = MemoryCategory::Daily;
        d.store(
            "global",
            "a",
            "note",
            c.clone(),
            Some("s1"),
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        d.store(
            "global",
            "b",
            "note",
            c.clone(),
            Some("s2"),
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        d.store(
            "global",
            "c",
            "note",
            MemoryCategory::Core,
            Some("s1"),
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        d.store(
            "global",
            "d",
            "note",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        let by = |category: Option<MemoryCategory>, session: Option<&str>| RecallOptions {
            category,
            session_id: session.map(str::to_owned),
            ..RecallOptions::default()
        };
        let r = |o: RecallOptions| async move { d.recall("note", 10, &o).await.unwrap() };
        assert_eq!(
            keys(&r(by(None, None)).await),
            ["a", "b", "c", "d"],
            "{}",
            f.name
        );
        assert_eq!(keys(&r(by(Some(c.clone()), None)).await), ["a", "b"]);
        assert_eq!(keys(&r(by(None, Some("s1"))).await), ["a", "c"]);
        assert_eq!(keys(&r(by(Some(c.clone()), Some("s1"))).await), ["a"]);
        assert_eq!(
            keys(&r(by(Some(MemoryCategory::Custom("daily".into())), None)).await),
            Vec::<&str>::new()
        );
        assert_eq!(
            keys(&d.list(None, Some(&c), None).await.unwrap()),
            ["a", "b"]
        );
        assert_eq!(
            keys(&d.list(Some("global"), None, Some("s1")).await.unwrap()),
            ["a", "c"]
        );
        assert_eq!(
            keys(&d.list(None, Some(&c), Some("s2")).await.unwrap()),
            ["b"]
        );
    }
}

#[tokio::test]
async fn list_orders_by_namespace_then_key_bytewise() {
    for f in fixtures() {
        let d = &f.driver;
        for (ns, k) in [
            ("learning:b", "z"),
            ("global", "é"),
            ("global", "a"),
            ("Global", "x"),
            ("global", "B"),
            ("global", "a\0"),
            ("learning:a", "k"),
        ] {
            put(d, ns, k, "x").await;
        }
        let got: Vec<(String, String)> = d
            .list(None, None, None)
            .await
            .unwrap()
            .into_iter()
            .map(|e| (e.namespace.unwrap(), e.key))
            .collect();
        let mut want = got.clone();
        want.sort();
        assert_eq!(got, want, "{}", f.name);
        let keys_in_global: Vec<String> = d
            .list(Some("global"), None, None)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.key)
            .collect();
        assert_eq!(keys_in_global, ["B", "a", "a\0", "é"]);
    }
}

#[tokio::test]
async fn namespaces_count_exactly_with_last_updated() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "a", "x").await;
        put(d, "global", "a", "y").await;
        put(d, "global", "b", "x").await;
        put(d, "learning:x", "a", "x").await;
        put(d, "learning:y", "gone", "x").await;
        assert!(d.forget("learning:y", "gone").await.unwrap());
        let mut got = d.namespaces().await.unwrap();
        got.sort_by(|a, b| a.namespace.cmp(&b.namespace));
        let counts: Vec<(&str, u64)> = got
            .iter()
            .map(|s| (s.namespace.as_str(), s.count))
            .collect();
        assert_eq!(counts, [("global", 2), ("learning:x", 1)], "{}", f.name);
        for s in &got {
            let newest = d
                .list(Some(&s.namespace), None, None)
                .await
                .unwrap()
                .into_iter()
                .map(|e| e.timestamp)
                .max();
            assert_eq!(s.last_updated, newest);
            assert_eq!(s.last_updated.as_ref().map(String::len), Some(27));
        }
    }
}

#[tokio::test]
async fn forget_is_idempotent_and_complete() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "k", "unforgettable words").await;
        put(d, "global", "other", "other words").await;
        assert!(d.forget("global", "k").await.unwrap(), "{}", f.name);
        assert!(!d.forget("global", "k").await.unwrap());
        assert!(!d.forget("global", "never").await.unwrap());
        assert_eq!(d.get("global", "k").await.unwrap(), None);
        assert_eq!(keys(&d.list(None, None, None).await.unwrap()), ["other"]);
        let ns = d.namespaces().await.unwrap();
        assert_eq!(ns.len(), 1);
        assert_eq!(ns[0].count, 1);
        assert_eq!(
            d.recall("unforgettable", 10, &RecallOptions::default())
                .await
                .unwrap(),
            []
        );
        assert_eq!(
            keys(
                &d.recall("words", 10, &RecallOptions::default())
                    .await
                    .unwrap()
            ),
            ["other"]
        );
        // Stored again after forgetting: a new entry with a new id.
        let old_id = d.get("global", "other").await.unwrap().unwrap().id;
        assert!(d.forget("global", "other").await.unwrap());
        put(d, "global", "other", "other words").await;
        assert_ne!(d.get("global", "other").await.unwrap().unwrap().id, old_id);
    }
}

#[tokio::test]
async fn keys_are_validated_on_every_method() {
    for f in fixtures() {
        let d = &f.driver;
        let e = d
            .store(
                "global",
                "",
                "x",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap_err();
        assert_eq!(e.rule(), Some(rules::KEY_EMPTY));
        let long = "k".repeat(1025);
        let e = d
            .store(
                "global",
                &long,
                "x",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap_err();
        assert_eq!(e.rule(), Some(rules::KEY_TOO_LONG));
        put(d, "global", &"k".repeat(1024), "x").await;
        assert_eq!(
            d.list(None, None, None).await.unwrap().len(),
            1,
            "{}",
            f.name
        );
        // Contract sentence 12: refused on get and forget as on store.
        let e = d.get("global", "").await.unwrap_err();
        assert_eq!(e.rule(), Some(rules::KEY_EMPTY));
        let e = d.forget("global", &long).await.unwrap_err();
        assert_eq!(e.rule(), Some(rules::KEY_TOO_LONG));
        assert_eq!(
            d.list(None, None, None).await.unwrap().len(),
            1,
            "{}",
            f.name
        );
    }
}

#[tokio::test]
async fn every_script_is_found_by_its_words() {
    for f in fixtures() {
        let d = &f.driver;
        let texts = [
            ("zh", "我喜欢用机器学习解决问题"),
            ("ja", "東京の天気は晴れです。ありがとうございます"),
            ("th", "สวัสดีครับ กินข้าวหรือยัง"),
            ("ko", "안녕하세요 학교에서 만나요"),
            ("hi", "आपका स्वास्थ्य कैसा है?"),
            ("ta", "வணக்கம் நண்பரே"),
            ("he", "שלום עולם"),
            ("fa", "کامپیوتر چیه؟ می‌گیره"),
            ("ru", "Привет, МИР"),
            ("mixed", "我用Python编程 and Rust"),
        ];
        for (k, t) in texts {
            put(d, "global", k, t).await;
        }
        let opts = RecallOptions::default();
        for (q, want) in [
            ("机器学习", "zh"),
            ("学", "zh"),
            ("问题", "zh"),
            ("天気", "ja"),
            ("ありがとう", "ja"),
            ("晴", "ja"),
            ("กินข้าว", "th"),
            ("ครับ", "th"),
            ("학교에서", "ko"),
            ("स्वास्थ्य", "hi"),
            ("நண்பரே", "ta"),
            ("עולם", "he"),
            ("کامپیوتر", "fa"),
            ("мир", "ru"),
            ("python", "mixed"),
            ("编程", "mixed"),
        ] {
            let hits = d.recall(q, 10, &opts).await.unwrap();
            assert_eq!(
                hits.first().map(|h| h.key.as_str()),
                Some(want),
                "{}: {q}",
                f.name
            );
        }
        // A longer Chinese query still finds the entry holding part of it.
        let hits = d.recall("机器人学习", 10, &opts).await.unwrap();
        assert_eq!(keys(&hits), ["zh"]);
    }
}

#[tokio::test]
async fn invalid_namespace_is_invalid_on_every_method() {
    for f in fixtures() {
        let d = &f.driver;
        let ns = "a b";
        let rule = Some(rules::NAMESPACE_CHARSET);
        let e = d
            .store(
                ns,
                "k",
                "v",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap_err();
        assert_eq!(e.rule(), rule, "{}", f.name);
        assert_eq!(d.get(ns, "k").await.unwrap_err().rule(), rule);
        assert_eq!(d.forget(ns, "k").await.unwrap_err().rule(), rule);
        assert_eq!(d.list(Some(ns), None, None).await.unwrap_err().rule(), rule);
        let opts = RecallOptions::in_namespace(ns);
        assert_eq!(d.recall("v", 10, &opts).await.unwrap_err().rule(), rule);
        // Even with limit 0 or an empty query.
        assert_eq!(d.recall("v", 0, &opts).await.unwrap_err().rule(), rule);
        assert_eq!(d.recall("", 10, &opts).await.unwrap_err().rule(), rule);
    }
}

#[test]
fn calls_work_outside_a_runtime_too() {
    let d = SqliteDriver::open_in_memory().unwrap();
    // A minimal executor: the driver's futures complete without Tokio.
    let waker = std::task::Waker::noop();
    let mut cx = std::task::Context::from_waker(waker);
    let mut store = std::pin::pin!(put(&d, "global", "k", "hello"));
    assert!(store.as_mut().poll(&mut cx).is_ready());
    let opts = RecallOptions::default();
    let mut recall = std::pin::pin!(d.recall("hello", 1, &opts));
    match recall.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(Ok(hits)) => assert_eq!(keys(&hits), ["k"]),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_pinned_recall_ignores_every_other_namespace() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "learning:a", "x", "rust memory engine").await;
        put(d, "learning:a", "y", "memory of a rust agent, memory").await;
        put(d, "learning:a", "z", "unrelated words").await;
        let opts = RecallOptions {
            namespace: Some("learning:a".to_owned()),
            ..RecallOptions::default()
        };
        let bits = |hits: Vec<MemoryEntry>| -> Vec<(String, u64)> {
            hits.into_iter()
                .map(|h| (h.key, h.score.unwrap().to_bits()))
                .collect()
        };
        let before = bits(d.recall("rust memory", 1, &opts).await.unwrap());
        let all_before = bits(d.recall("rust memory", 10, &opts).await.unwrap());
        for i in 0..50 {
            put(d, "learning:b", &format!("b{i}"), "rust rust memory").await;
            put(d, "global", &format!("g{i}"), "memory").await;
        }
        d.forget("learning:b", "b0").await.unwrap();
        assert_eq!(
            bits(d.recall("rust memory", 1, &opts).await.unwrap()),
            before,
            "{}",
            f.name
        );
        assert_eq!(
            bits(d.recall("rust memory", 10, &opts).await.unwrap()),
            all_before,
            "{}",
            f.name
        );
        assert_eq!(all_before.len(), 2);
    }
}
