//! `export_page` (keyset pages in `(namespace, key)` bytewise order) and
//! `import` (timestamps and taint kept, per-record failures).

use crate::common;

use common::{fixtures, put};
use tinymemory_api::portability::{ExportCursor, KeysetCursor, MemoryRecord};
use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use tinymemory_sqlite::SqliteDriver;

/// `(namespace, key)` of some records.
fn positions(records: &[MemoryRecord]) -> Vec<(String, String)> {
    records
        .iter()
        .map(|r| (r.namespace.clone(), r.key.clone()))
        .collect()
}

async fn records_listed(d: &SqliteDriver) -> Vec<MemoryRecord> {
    d.list(None, None, None)
        .await
        .unwrap()
        .into_iter()
        .map(|e| MemoryRecord::from_entry(e).unwrap())
        .collect()
}

/// Every page of an export with page size `limit`.
async fn export_all(d: &SqliteDriver, limit: usize) -> Vec<Vec<MemoryRecord>> {
    let mut pages = Vec::new();
    let mut cursor: Option<ExportCursor> = None;
    loop {
        let page = d.export_page(cursor.as_ref(), limit).await.unwrap();
        pages.push(page.records);
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => return pages,
        }
        assert!(pages.len() < 1000, "the export does not end");
    }
}

/// Keys whose bytewise order differs from a case-folded or char-count one.
async fn store_ordered(d: &SqliteDriver) {
    for (ns, key) in [
        ("global", "b"),
        ("global", "B"),
        ("global", "a"),
        ("global", "é"),
        ("global", "z"),
        ("global", "机"),
        ("global", "😀"),
        ("Notes", "k"),
        ("learning:x", "k1"),
        ("learning:x", "k10"),
        ("learning:x", "k2"),
        ("learning:x-y", "k"),
    ] {
        put(d, ns, key, &format!("{ns} {key}")).await;
    }
}

const ORDER: [(&str, &str); 12] = [
    ("Notes", "k"),
    ("global", "B"),
    ("global", "a"),
    ("global", "b"),
    ("global", "z"),
    ("global", "é"),
    ("global", "机"),
    ("global", "😀"),
    ("learning:x", "k1"),
    ("learning:x", "k10"),
    ("learning:x", "k2"),
    ("learning:x-y", "k"),
];

fn order() -> Vec<(String, String)> {
    ORDER
        .iter()
        .map(|(n, k)| ((*n).to_owned(), (*k).to_owned()))
        .collect()
}

#[tokio::test]
async fn pages_cover_the_store_once_in_bytewise_order() {
    for f in fixtures() {
        let d = &f.driver;
        store_ordered(d).await;
        let all = records_listed(d).await;
        assert_eq!(positions(&all), order(), "{}", f.name);
        for limit in [1, 2, 7, 12, 13, usize::MAX] {
            let pages = export_all(d, limit).await;
            let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
            let want: Vec<usize> = match limit {
                1 => vec![1; 12],
                2 => vec![2; 6],
                7 => vec![7, 5],
                _ => vec![12],
            };
            assert_eq!(sizes, want, "{} limit {limit}", f.name);
            assert_eq!(pages.concat(), all, "{} limit {limit}", f.name);
        }
    }
}

#[tokio::test]
async fn empty_stores_zero_limits_and_unknown_cursors() {
    let d = SqliteDriver::open_in_memory().unwrap();
    let page = d.export_page(None, 10).await.unwrap();
    assert_eq!((page.records.len(), page.next_cursor), (0, None));
    let page = d.export_page(None, 0).await.unwrap();
    assert_eq!((page.records.len(), page.next_cursor), (0, None));

    store_ordered(&d).await;
    // A limit of 0 with records left: an empty page with a cursor, which
    // then resumes from the same place.
    let page = d.export_page(None, 0).await.unwrap();
    assert!(page.records.is_empty());
    assert_eq!(page.next_cursor, Some(KeysetCursor::start().encode()));
    let after = KeysetCursor::after("global", "z").encode();
    let page = d.export_page(Some(&after), 0).await.unwrap();
    assert_eq!(
        (page.records.len(), page.next_cursor.as_ref()),
        (0, Some(&after))
    );
    let page = d.export_page(Some(&after), usize::MAX).await.unwrap();
    assert_eq!(positions(&page.records), order()[5..].to_vec());
    assert_eq!(page.next_cursor, None);
    // A cursor after the last record: an empty, final page.
    let end = KeysetCursor::after("learning:x-y", "k").encode();
    let page = d.export_page(Some(&end), 5).await.unwrap();
    assert_eq!((page.records.len(), page.next_cursor), (0, None));

    for bad in ["", "bogus", "tm-export-1..0000000000000000"] {
        let err = d
            .export_page(Some(&ExportCursor::new(bad)), 5)
            .await
            .unwrap_err();
        assert_eq!(err.rule(), Some(rules::EXPORT_CURSOR), "{bad:?}: {err}");
    }
}

#[tokio::test]
async fn a_cursor_survives_forgets_and_writes_between_pages() {
    for f in fixtures() {
        let d = &f.driver;
        store_ordered(d).await;
        let first = d.export_page(None, 3).await.unwrap();
        assert_eq!(positions(&first.records), order()[..3].to_vec());
        let cursor = first.next_cursor.unwrap();
        assert_eq!(cursor, KeysetCursor::after("global", "a").encode());
        // The entry the cursor points at is forgotten, one before it is
        // added, one after it is added, one after it is forgotten.
        assert!(d.forget("global", "a").await.unwrap());
        put(d, "Notes", "late", "before the cursor").await;
        put(d, "global", "ab", "after the cursor").await;
        assert!(d.forget("global", "z").await.unwrap());
        let second = d.export_page(Some(&cursor), 3).await.unwrap();
        assert_eq!(
            positions(&second.records),
            [
                ("global".to_owned(), "ab".to_owned()),
                ("global".to_owned(), "b".to_owned()),
                ("global".to_owned(), "é".to_owned()),
            ],
            "{}",
            f.name
        );
        let mut rest = Vec::new();
        let mut c = second.next_cursor;
        while let Some(at) = c {
            let p = d.export_page(Some(&at), 3).await.unwrap();
            rest.extend(p.records);
            c = p.next_cursor;
        }
        assert_eq!(positions(&rest), order()[6..].to_vec(), "{}", f.name);
    }
}

fn record(ns: &str, key: &str, content: &str, timestamp: &str) -> MemoryRecord {
    MemoryRecord {
        namespace: ns.to_owned(),
        key: key.to_owned(),
        content: content.to_owned(),
        category: MemoryCategory::Core,
        session_id: None,
        taint: MemoryTaint::Internal,
        timestamp: timestamp.to_owned(),
    }
}

#[tokio::test]
async fn import_keeps_every_field_and_reports_failures_by_index() {
    for f in fixtures() {
        let d = &f.driver;
        put(d, "global", "old", "replaced by the import").await;
        let mut tainted = record("global", "old", "imported over", "2020-01-02T03:04:05Z");
        tainted.taint = MemoryTaint::ExternalSync;
        tainted.category = MemoryCategory::Custom("x".into());
        tainted.session_id = Some("s9".into());
        let records = vec![
            tainted.clone(),
            record("bad name", "k", "refused", "2020-01-01T00:00:00Z"),
            record(
                "learning:x",
                "a",
                "harbour lights",
                "2019-12-31T23:59:59.123456789+02:00",
            ),
            record("learning:x", "b", "no timestamp", "yesterday"),
            record(
                "learning:x",
                "c",
                "quarry granite",
                "2021-06-01T00:00:00.5Z",
            ),
            record("global", "", "no key", "2020-01-01T00:00:00Z"),
            record(
                "learning:x",
                "a",
                "harbour lights at dawn",
                "2019-11-30T00:00:00Z",
            ),
        ];
        let outcome = d.import(&records).await.unwrap();
        assert_eq!(outcome.imported, 4, "{}", f.name);
        let failed: Vec<(usize, &str, &str, Option<&str>)> = outcome
            .failures
            .iter()
            .map(|x| {
                (
                    x.index,
                    x.namespace.as_str(),
                    x.key.as_str(),
                    x.error.rule(),
                )
            })
            .collect();
        assert_eq!(
            failed,
            [
                (1, "bad name", "k", Some(rules::NAMESPACE_CHARSET)),
                (3, "learning:x", "b", Some(rules::IMPORT_TIMESTAMP)),
                (5, "global", "", Some(rules::KEY_EMPTY)),
            ]
        );
        let got = records_listed(d).await;
        assert_eq!(
            got,
            [
                tainted.clone(),
                record(
                    "learning:x",
                    "a",
                    "harbour lights at dawn",
                    "2019-11-30T00:00:00Z"
                ),
                record(
                    "learning:x",
                    "c",
                    "quarry granite",
                    "2021-06-01T00:00:00.5Z"
                ),
            ],
            "{}",
            f.name
        );
        let spaces: Vec<(String, u64, Option<String>)> = d
            .namespaces()
            .await
            .unwrap()
            .into_iter()
            .map(|s| (s.namespace, s.count, s.last_updated))
            .collect();
        assert_eq!(
            spaces,
            [
                ("global".into(), 1, Some("2020-01-02T03:04:05Z".into())),
                (
                    "learning:x".into(),
                    2,
                    Some("2021-06-01T00:00:00.5Z".into())
                ),
            ]
        );
        // Imported entries are indexed.
        let x = RecallOptions {
            namespace: Some("learning:x".into()),
            ..RecallOptions::default()
        };
        let hits = d.recall("harbour dawn", 10, &x).await.unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].timestamp, "2019-11-30T00:00:00Z");
        assert_eq!(d.import(&[]).await.unwrap().imported, 0);
    }
}

#[tokio::test]
async fn export_then_import_into_a_fresh_store_is_the_same_store() {
    let source = SqliteDriver::open_in_memory().unwrap();
    store_ordered(&source).await;
    source
        .store(
            "global",
            "tainted",
            "from outside \0 with NUL",
            MemoryCategory::Custom("c:1".into()),
            Some("s"),
            MemoryTaint::ExternalSync,
        )
        .await
        .unwrap();
    let pages = export_all(&source, 5).await;
    let dir = tempfile::tempdir().unwrap();
    let target = SqliteDriver::open(dir.path().join("t.db")).unwrap();
    for p in &pages {
        assert_eq!(target.import(p).await.unwrap().failures, []);
    }
    assert_eq!(records_listed(&target).await, records_listed(&source).await);
    assert_eq!(
        target.namespaces().await.unwrap(),
        source.namespaces().await.unwrap()
    );
    let opts = RecallOptions::default();
    let bits = |h: Vec<tinymemory_api::MemoryEntry>| -> Vec<(String, u64)> {
        h.into_iter()
            .map(|e| (e.key, e.score.unwrap().to_bits()))
            .collect()
    };
    assert_eq!(
        bits(target.recall("global outside", 10, &opts).await.unwrap()),
        bits(source.recall("global outside", 10, &opts).await.unwrap())
    );
}

/// What "a cursor the driver never issued is refused" promises
/// (docs/protocol.md, "Optional ops"): malformed tokens only. A
/// well-formed cursor of another store is a position here, and the
/// export resumes after it.
#[tokio::test]
async fn another_stores_cursor_is_a_position_in_this_one() {
    let (a, b) = (
        SqliteDriver::open_in_memory().unwrap(),
        SqliteDriver::open_in_memory().unwrap(),
    );
    for key in ["k1", "k2", "k3"] {
        put(&a, "global", key, "in a").await;
    }
    for key in ["k0", "k2", "k4"] {
        put(&b, "global", key, "in b").await;
    }
    let from_a = a.export_page(None, 1).await.unwrap().next_cursor.unwrap();
    assert_eq!(from_a, KeysetCursor::after("global", "k1").encode());
    let page = b.export_page(Some(&from_a), 10).await.unwrap();
    assert_eq!(
        positions(&page.records),
        [
            ("global".to_owned(), "k2".to_owned()),
            ("global".to_owned(), "k4".to_owned())
        ]
    );
    assert_eq!(page.next_cursor, None);
}
