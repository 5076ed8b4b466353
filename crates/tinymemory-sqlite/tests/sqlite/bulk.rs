//! `store_many`: one transaction, validated first, all or nothing.

use crate::common;

use common::{fixtures, put};
use tinymemory_api::batch::NewEntry;
use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_sqlite::SqliteDriver;

/// namespace, key, content, category, session, taint.
type Fields<'a> = (
    &'a str,
    &'a str,
    &'a str,
    String,
    Option<&'a str>,
    MemoryTaint,
);

fn batch_of_five(bad: NewEntry) -> Vec<NewEntry> {
    vec![
        NewEntry::new("global", "a", "alpha one"),
        NewEntry::new("learning:x", "b", "beta two"),
        bad,
        NewEntry::new("global", "d", "delta four"),
        NewEntry::new("global", "e", "epsilon five"),
    ]
}

#[tokio::test]
async fn an_invalid_entry_refuses_the_batch_by_index_and_rule_storing_nothing() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "before", "kept as it was").await;
        let before = d.list(None, None, None).await.unwrap();
        for (bad, rule, message) in [
            (
                NewEntry::new("global", "", "no key"),
                rules::KEY_EMPTY,
                "invalid input (key.empty): entry 2 of 5 (namespace \"global\", key \"\"): \
                 key must not be empty",
            ),
            (
                NewEntry::new("bad name", "c", "bad namespace"),
                rules::NAMESPACE_CHARSET,
                "",
            ),
        ] {
            let err = d.store_many(&batch_of_five(bad)).await.unwrap_err();
            assert_eq!(err.rule(), Some(rule), "{}: {err}", f.name);
            let text = err.to_string();
            assert!(text.contains("entry 2 of 5"), "{text}");
            if !message.is_empty() {
                assert_eq!(text, message);
            }
            assert_eq!(
                d.list(None, None, None).await.unwrap(),
                before,
                "{}",
                f.name
            );
            assert_eq!(d.namespaces().await.unwrap().len(), 1);
        }
    }
}

#[tokio::test]
async fn a_batch_is_stored_whole_and_the_later_duplicate_wins() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "a", "an older alpha").await;
        let batch = vec![
            NewEntry::new("global", "a", "alpha replaced")
                .with_category(MemoryCategory::Daily)
                .with_session("s1"),
            NewEntry::new("learning:x", "b", "beta first").with_taint(MemoryTaint::ExternalSync),
            NewEntry::new("learning:x", "b", "beta second wins")
                .with_category(MemoryCategory::Custom("x".into())),
            NewEntry::new("global", "c", "gamma"),
        ];
        d.store_many(&batch).await.unwrap();
        let all = d.list(None, None, None).await.unwrap();
        let got: Vec<Fields<'_>> = all
            .iter()
            .map(|e| {
                (
                    e.namespace.as_deref().unwrap(),
                    e.key.as_str(),
                    e.content.as_str(),
                    e.category.as_text(),
                    e.session_id.as_deref(),
                    e.taint,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "global",
                    "a",
                    "alpha replaced",
                    "daily".into(),
                    Some("s1"),
                    MemoryTaint::Internal
                ),
                (
                    "global",
                    "c",
                    "gamma",
                    "core".into(),
                    None,
                    MemoryTaint::Internal
                ),
                (
                    "learning:x",
                    "b",
                    "beta second wins",
                    "custom:x".into(),
                    None,
                    MemoryTaint::Internal
                ),
            ],
            "{}",
            f.name
        );
        // One transaction, one timestamp.
        assert!(all.windows(2).all(|w| w[0].timestamp == w[1].timestamp));
        let counts: Vec<(String, u64)> = d
            .namespaces()
            .await
            .unwrap()
            .into_iter()
            .map(|s| (s.namespace, s.count))
            .collect();
        assert_eq!(counts, [("global".into(), 2), ("learning:x".into(), 1)]);
        // The index holds the final contents only.
        let x = RecallOptions {
            namespace: Some("learning:x".into()),
            ..RecallOptions::default()
        };
        assert_eq!(d.recall("first", 10, &x).await.unwrap().len(), 0);
        assert_eq!(d.recall("wins", 10, &x).await.unwrap()[0].key, "b");
        assert_eq!(
            d.recall("older", 10, &RecallOptions::default())
                .await
                .unwrap()
                .len(),
            0
        );
        d.store_many(&[]).await.unwrap();
        assert_eq!(d.list(None, None, None).await.unwrap(), all);
    }
}

#[tokio::test]
async fn an_engine_failure_mid_batch_rolls_the_whole_batch_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.db");
    let d = SqliteDriver::open(&path).unwrap();
    put(&d, "global", "kept", "kept entry").await;
    // A trigger that fails the fourth insert, after three were written.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER boom BEFORE INSERT ON memory_entries WHEN NEW.key = 'boom'
             BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END;",
        )
        .unwrap();
    let before = d.list(None, None, None).await.unwrap();
    let spaces = d.namespaces().await.unwrap();
    let batch = vec![
        NewEntry::new("global", "one", "first kept entry"),
        NewEntry::new("learning:y", "two", "second"),
        NewEntry::new("global", "kept", "an overwrite"),
        NewEntry::new("global", "boom", "fails"),
        NewEntry::new("global", "five", "never reached"),
    ];
    let err = d.store_many(&batch).await.unwrap_err();
    assert_eq!(err.kind(), "backend", "{err}");
    assert!(
        err.to_string().contains("refused by a test trigger"),
        "{err}"
    );
    assert_eq!(d.list(None, None, None).await.unwrap(), before);
    assert_eq!(d.namespaces().await.unwrap(), spaces);
    let hits = d
        .recall("kept entry", 10, &RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].content, "kept entry");
    assert_eq!(
        d.recall("first overwrite", 10, &RecallOptions::default())
            .await
            .unwrap()
            .len(),
        0
    );
}
