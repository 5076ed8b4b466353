//! The optional ops (`store_many`, `export_page`, `import`) over the real
//! Python drivers: exact round trips, the fallback for a driver without
//! them, requests split by `batch_bytes`, malformed answers and the
//! `Unsupported` error.

use serde_json::json;
use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::{ExportCursor, KeysetCursor, MemoryRecord, FAMILY};
use tinymemory_api::{rules, MemoryCategory, MemoryError, MemoryProvider, MemoryTaint};
use tinymemory_exec::protocol::OptionalOp;
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver, ExecFactory};

use crate::support::{example, misbehave_marked};

/// The drivers providing all three ops.
const FULL: [&str; 3] = ["memory_driver.py", "sqlite_driver.py", "semantic_driver.py"];

async fn spawn(command: &ExecCommand) -> ExecDriver {
    ExecDriver::spawn(command, ExecConfig::default())
        .await
        .expect("the driver starts")
}

fn batch() -> Vec<NewEntry> {
    vec![
        NewEntry::new("global", "b", "zebra crossing"),
        NewEntry::new("global", "a", "first")
            .with_category(MemoryCategory::Custom("projects".into()))
            .with_session("session-7")
            .with_taint(MemoryTaint::ExternalSync),
        NewEntry::new("learning:rust", "é 🦀", "crab \"quoted\" \0 NUL")
            .with_category(MemoryCategory::Daily),
        // A later entry with the same key replaces the earlier one.
        NewEntry::new("global", "a", "second"),
    ]
}

fn record(namespace: &str, key: &str, content: &str, timestamp: &str) -> MemoryRecord {
    MemoryRecord {
        namespace: namespace.into(),
        key: key.into(),
        content: content.into(),
        category: MemoryCategory::Conversation,
        session_id: Some("s1".into()),
        taint: MemoryTaint::ExternalSync,
        timestamp: timestamp.into(),
    }
}

/// `(namespace, key, content, category, session, taint)` of every listed
/// entry, in list order.
async fn listed(
    d: &dyn MemoryProvider,
) -> Vec<(String, String, String, String, Option<String>, MemoryTaint)> {
    d.list(None, None, None)
        .await
        .expect("list")
        .into_iter()
        .map(|e| {
            (
                e.namespace.unwrap_or_default(),
                e.key,
                e.content,
                e.category.to_string(),
                e.session_id,
                e.taint,
            )
        })
        .collect()
}

/// Every record of the store, in pages of `limit`, and how many pages.
async fn export_all(d: &dyn MemoryProvider, limit: usize) -> (Vec<MemoryRecord>, usize) {
    let (mut records, mut pages, mut cursor) = (Vec::new(), 0, None::<ExportCursor>);
    loop {
        let page = d.export_page(cursor.as_ref(), limit).await.expect("export");
        assert!(page.records.len() <= limit);
        records.extend(page.records);
        pages += 1;
        assert!(pages < 100, "the export does not end");
        match page.next_cursor {
            None => return (records, pages),
            next => cursor = next,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_examples_list_the_three_ops_and_the_naive_one_none() {
    for script in FULL {
        let d = spawn(&example(script, &[])).await;
        assert_eq!(d.ops(), OptionalOp::ALL, "{script}");
    }
    let factory = ExecFactory::connect(example("memory_driver.py", &[]), ExecConfig::default())
        .await
        .unwrap();
    assert_eq!(factory.ops(), OptionalOp::ALL);
    let naive = spawn(&example("naive_fts5_driver.py", &[])).await;
    assert_eq!(naive.ops(), []);
    assert!(!naive.provides(OptionalOp::StoreMany));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_many_stores_every_field_in_order_on_each_example() {
    for script in FULL {
        let d = spawn(&example(script, &[])).await;
        d.store_many(&batch()).await.expect("store_many");
        let internal = MemoryTaint::Internal;
        assert_eq!(
            listed(&d).await,
            [
                (
                    "global".into(),
                    "a".into(),
                    "second".into(),
                    "core".into(),
                    None,
                    internal
                ),
                (
                    "global".into(),
                    "b".into(),
                    "zebra crossing".into(),
                    "core".into(),
                    None,
                    internal
                ),
                (
                    "learning:rust".into(),
                    "é 🦀".into(),
                    "crab \"quoted\" \0 NUL".into(),
                    "daily".into(),
                    None,
                    internal
                ),
            ],
            "{script}"
        );
        let hits = d
            .recall("zebra", 10, &Default::default())
            .await
            .expect("recall");
        // The semantic driver ranks every entry of the namespace.
        let want = if script == "semantic_driver.py" { 2 } else { 1 };
        assert_eq!(hits.len(), want, "{script}");
        assert_eq!(hits[0].key, "b", "{script}");
        // One timestamp for the whole batch.
        let stamps: std::collections::BTreeSet<String> = d
            .list(None, None, None)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.timestamp)
            .collect();
        assert_eq!(stamps.len(), 1, "{script}: {stamps:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_entry_refuses_the_whole_batch_naming_its_index() {
    for script in FULL {
        let d = spawn(&example(script, &[])).await;
        let mut entries = batch();
        entries.insert(2, NewEntry::new("has space", "k", "x"));
        let e = d.store_many(&entries).await.unwrap_err();
        assert_eq!(e.rule(), Some(rules::NAMESPACE_CHARSET), "{script}: {e}");
        assert!(
            e.to_string()
                .contains("entry 2 of 5 (namespace \"has space\", key \"k\"): "),
            "{script}: {e}"
        );
        assert_eq!(listed(&d).await, [], "{script}: something was stored");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_page_in_key_order_and_import_keeps_every_field() {
    let records = vec![
        record("global", "a", "one", "2020-02-29T23:59:60Z"),
        record("global", "b", "two", "2026-11-30T00:47:42.123456789Z"),
        MemoryRecord {
            session_id: None,
            taint: MemoryTaint::Internal,
            category: MemoryCategory::Custom("x".into()),
            ..record("learning:rust", "é", "trois", "2026-01-01t00:00:00-05:00")
        },
        record("z", "k", "four", "1970-01-01T00:00:00+00:00"),
    ];
    for script in FULL {
        let source = spawn(&example(script, &[])).await;
        let outcome = source.import(&records).await.expect("import");
        assert_eq!(outcome.imported, 4, "{script}");
        assert_eq!(outcome.failures, [], "{script}");
        for limit in [1, 2, 3, 4, 5, usize::MAX] {
            let (exported, pages) = export_all(&source, limit).await;
            assert_eq!(exported, records, "{script}, pages of {limit}");
            let expected_pages = match limit {
                1 => 4,
                2 => 2,
                3 => 2,
                _ => 1,
            };
            assert_eq!(pages, expected_pages, "{script}, pages of {limit}");
        }
        // A limit of 0 keeps the place, mid-export too.
        let first = source.export_page(None, 1).await.unwrap();
        let cursor = first.next_cursor.expect("more follows");
        let empty = source.export_page(Some(&cursor), 0).await.unwrap();
        assert_eq!(empty.records, []);
        let resumed = source
            .export_page(empty.next_cursor.as_ref(), 1)
            .await
            .unwrap();
        assert_eq!(resumed.records, [records[1].clone()], "{script}");
        // The Python cursors are tinymemory_api's keyset tokens.
        assert_eq!(
            KeysetCursor::decode(&cursor).unwrap(),
            KeysetCursor::after("global", "a"),
            "{script}"
        );
        // Into a fresh store of every full example, byte for byte.
        for target in FULL {
            let d = spawn(&example(target, &[])).await;
            let (exported, _) = export_all(&source, 3).await;
            let outcome = d.import(&exported).await.expect("import");
            assert_eq!(outcome.imported, 4);
            assert_eq!(export_all(&d, 2).await.0, records, "{script} -> {target}");
            assert_eq!(
                d.get("global", "b").await.unwrap().unwrap().timestamp,
                "2026-11-30T00:47:42.123456789Z"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_reports_each_invalid_record_and_writes_the_rest() {
    let records = vec![
        record("global", "ok", "kept", "2026-01-01T00:00:00Z"),
        record("global", "late", "x", "2026-01-01T00:00:00+24:00"),
        record("bad ns", "k", "x", "2026-01-01T00:00:00Z"),
        record("global", "", "x", "2026-01-01T00:00:00Z"),
        record("global", "feb", "x", "2026-02-29T00:00:00Z"),
        record("global", "ok2", "kept too", "2026-01-01T00:00:00.5Z"),
    ];
    for script in FULL {
        let d = spawn(&example(script, &[])).await;
        let outcome = d.import(&records).await.expect("import");
        assert_eq!(outcome.imported, 2, "{script}");
        let got: Vec<(usize, &str, &str, Option<&str>)> = outcome
            .failures
            .iter()
            .map(|f| {
                (
                    f.index,
                    f.namespace.as_str(),
                    f.key.as_str(),
                    f.error.rule(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (1, "global", "late", Some(rules::IMPORT_TIMESTAMP)),
                (2, "bad ns", "k", Some(rules::NAMESPACE_CHARSET)),
                (3, "global", "", Some(rules::KEY_EMPTY)),
                (4, "global", "feb", Some(rules::IMPORT_TIMESTAMP)),
            ],
            "{script}"
        );
        assert_eq!(
            outcome.failures[0].error.to_string(),
            "invalid input (import.timestamp): timestamp \"2026-01-01T00:00:00+24:00\" is not RFC 3339"
        );
        let keys: Vec<String> = d
            .list(None, None, None)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.key)
            .collect();
        assert_eq!(keys, ["ok", "ok2"], "{script}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_cursor_is_invalid_never_a_restart() {
    let good = KeysetCursor::after("global", "a").encode().into_string();
    let edited = good.replacen("676c", "676d", 1);
    for script in FULL {
        let d = spawn(&example(script, &[])).await;
        d.store_many(&batch()).await.unwrap();
        for bad in ["bogus", "", edited.as_str(), &good[..good.len() - 1]] {
            let e = d
                .export_page(Some(&ExportCursor::new(bad)), 10)
                .await
                .unwrap_err();
            assert_eq!(
                e.rule(),
                Some(rules::EXPORT_CURSOR),
                "{script}: {bad:?}: {e}"
            );
        }
        let e = d
            .export_page(Some(&ExportCursor::new("bogus")), 10)
            .await
            .unwrap_err();
        assert_eq!(
            e,
            MemoryError::invalid(
                rules::EXPORT_CURSOR,
                "export cursor \"bogus\" was not issued by this driver"
            )
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_driver_without_the_ops_gets_the_fallback_and_unsupported() {
    // The naive driver answers an op it lacks with a backend error, so a
    // store_many request would fail: the batch went as store requests.
    let d = spawn(&example("naive_fts5_driver.py", &[])).await;
    d.store_many(&batch()).await.expect("store_many falls back");
    assert_eq!(listed(&d).await.len(), 3);
    let mut bad = batch();
    bad.push(NewEntry::new("global", "", "x"));
    let e = d.store_many(&bad).await.unwrap_err();
    assert_eq!(e.rule(), Some(rules::KEY_EMPTY));
    assert!(
        e.to_string()
            .contains("entry 4 of 5 (namespace \"global\", key \"\")"),
        "{e}"
    );
    let e = d.export_page(None, 10).await.unwrap_err();
    let MemoryError::Unsupported { family, message } = &e else {
        panic!("not Unsupported: {e}");
    };
    assert_eq!(*family, FAMILY);
    assert!(
        message.starts_with("driver \"python-naive-fts5\" (`python3 ")
            && message.ends_with(
                "naive_fts5_driver.py`) does not provide `export_page`: its hello answer does not \
                 list it in ops (docs/protocol.md, \"Optional ops\")"
            ),
        "{message}"
    );
    let e = d
        .import(&[record("global", "k", "x", "2026-01-01T00:00:00Z")])
        .await
        .unwrap_err();
    assert!(e.is_unsupported(), "{e}");
    assert_eq!(e.kind(), "unsupported");
    assert!(e.to_string().contains("does not provide `import`"), "{e}");
    // Nothing was imported.
    assert_eq!(d.get("global", "k").await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_batches_go_in_several_requests_and_stay_all_or_nothing_for_bad_input() {
    let config = ExecConfig::default().with_batch_bytes(300);
    let entries: Vec<NewEntry> = (0..40)
        .map(|i| NewEntry::new("global", format!("k{i:02}"), format!("zebra number {i}")))
        .collect();
    let records: Vec<MemoryRecord> = (0..40)
        .map(|i| {
            record(
                "imported",
                &format!("r{i:02}"),
                "x",
                if i % 7 == 3 {
                    "bad"
                } else {
                    "2026-01-01T00:00:00Z"
                },
            )
        })
        .collect();
    for script in ["memory_driver.py", "sqlite_driver.py"] {
        let d = ExecDriver::spawn(&example(script, &[]), config.clone())
            .await
            .unwrap();
        let mut bad = entries.clone();
        bad[33].key = String::new();
        let e = d.store_many(&bad).await.unwrap_err();
        assert_eq!(e.rule(), Some(rules::KEY_EMPTY), "{script}: {e}");
        assert!(e.to_string().contains("entry 33 of 40"), "{script}: {e}");
        assert_eq!(listed(&d).await, [], "{script}: a chunk was stored");

        d.store_many(&entries).await.expect("store_many");
        let keys: Vec<String> = d
            .list(None, None, None)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.key)
            .collect();
        let want: Vec<String> = (0..40).map(|i| format!("k{i:02}")).collect();
        assert_eq!(keys, want, "{script}");

        let outcome = d.import(&records).await.expect("import");
        let indices: Vec<usize> = outcome.failures.iter().map(|f| f.index).collect();
        assert_eq!(indices, [3, 10, 17, 24, 31, 38], "{script}");
        assert_eq!(outcome.imported, 34, "{script}");
        assert_eq!(
            d.list(Some("imported"), None, None).await.unwrap().len(),
            34
        );
    }
}

/// A memory driver answering every `op` request with `result`.
async fn answering(op: &str, result: &serde_json::Value) -> ExecDriver {
    spawn(&misbehave_marked("result", op, &result.to_string())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_answers_are_backend_errors_saying_what_is_wrong() {
    let r = json!({"namespace": "global", "key": "k", "content": "c", "category": "core",
                   "session_id": null, "taint": "internal", "timestamp": "2026-01-01T00:00:00Z"});
    let mut no_stamp = r.clone();
    no_stamp.as_object_mut().unwrap().remove("timestamp");
    let cases = [
        (
            "export_page",
            json!({"records": []}),
            "missing field `next_cursor`",
        ),
        (
            "export_page",
            json!({"records": [no_stamp], "next_cursor": null}),
            "missing field `timestamp`",
        ),
        (
            "export_page",
            json!({"records": [], "next_cursor": null, "more": true}),
            "unknown field `more`",
        ),
        (
            "export_page",
            json!({"records": [], "next_cursor": 7}),
            "invalid type: integer `7`, expected a string",
        ),
        (
            "import",
            json!({"imported": 2, "failures": []}),
            "imported 2 plus 0 failures is not the 1 records sent",
        ),
        (
            "import",
            json!({"imported": 0, "failures": [{"index": 5, "namespace": "global", "key": "k",
                    "error": {"kind": "invalid", "rule": "import.timestamp", "message": "m"}}]}),
            "failure index 5 is past the last of the 1 records",
        ),
        (
            "import",
            json!(null),
            "invalid type: null, expected struct WireImportOutcome",
        ),
        ("store_many", json!([]), "expected a null result, got []"),
    ];
    for (op, result, why) in cases {
        let d = answering(op, &result).await;
        let e = match op {
            "export_page" => d.export_page(None, 10).await.map(drop),
            "import" => d
                .import(&[record("global", "k", "x", "2026-01-01T00:00:00Z")])
                .await
                .map(drop),
            _ => d.store_many(&batch()).await,
        }
        .unwrap_err();
        assert!(
            matches!(e, MemoryError::Backend { .. }),
            "{op} {result}: {e}"
        );
        let text = e.to_string();
        assert!(
            text.contains(&format!(
                "failed to read the answer to `{op}` from `python3 "
            )),
            "{text}"
        );
        assert!(
            text.contains(why),
            "{op} {result}: {why:?} is not in {text}"
        );
        // A malformed answer leaves the process running.
        assert!(d.is_usable());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_listing_an_unknown_or_repeated_op_fails_the_start() {
    for (ops, why) in [
        (
            json!(["export"]),
            "its hello answer lists unknown op \"export\" in ops: the optional ops are \"store_many\", \
             \"export_page\", \"import\" (leave ops out for none; docs/protocol.md)",
        ),
        (
            json!(["import", "import"]),
            "its hello answer lists op \"import\" twice in ops",
        ),
        (
            json!(null),
            "its hello answer lists ops null that is not an array of op names",
        ),
    ] {
        let hello = json!({"protocol": 1, "driver": "d", "ops": ops});
        let command = crate::support::misbehave("hello", Some(&hello.to_string()));
        let e = ExecDriver::spawn(&command, ExecConfig::default())
            .await
            .unwrap_err();
        assert!(matches!(e, MemoryError::Backend { .. }), "{e}");
        assert!(e.to_string().contains(why), "{why:?} is not in {e}");
    }
    // Absent and empty are none.
    for hello in [
        json!({"protocol": 1, "driver": "d"}),
        json!({"protocol": 1, "driver": "d", "ops": []}),
    ] {
        let command = crate::support::misbehave("hello", Some(&hello.to_string()));
        let d = ExecDriver::spawn(&command, ExecConfig::default())
            .await
            .unwrap();
        assert_eq!(d.ops(), []);
        assert!(d.export_page(None, 1).await.unwrap_err().is_unsupported());
    }
}
