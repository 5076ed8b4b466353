//! `export_page` and `import`: bytewise keyset pages, exact cursors,
//! timestamps kept byte for byte, one transaction per import.

use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::{ExportCursor, ExportPage, KeysetCursor, MemoryRecord};
use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, NamespaceSummary};
use tinymemory_postgres::PostgresDriver;

use crate::bulk::fail_on_boom;
use crate::common::{factory_or_skip, fresh, put};

/// Namespaces and keys whose bytewise order differs from any collation's:
/// upper before lower case, `_` between them, NUL first, multibyte last.
const NAMESPACES: [&str; 4] = ["learning:b", "learning:B", "global", "learning:_"];
const KEYS: [&str; 9] = ["b", "B", "_", "a\0", "a", "é", "🦀", "Z", "aa"];

/// Every `(namespace, key)` of [`NAMESPACES`] x [`KEYS`], stored in one
/// batch (content `ns/key`), and the pairs in Rust's order.
async fn fill(d: &PostgresDriver) -> Vec<(String, String)> {
    let batch: Vec<NewEntry> = NAMESPACES
        .iter()
        .flat_map(|ns| {
            KEYS.iter()
                .map(move |k| NewEntry::new(*ns, *k, format!("{ns}/{k}")))
        })
        .collect();
    d.store_many(&batch).await.unwrap();
    let mut want: Vec<(String, String)> = batch.into_iter().map(|e| (e.namespace, e.key)).collect();
    want.sort();
    want
}

/// Every page of an export with page size `limit`.
async fn pages(d: &PostgresDriver, limit: usize) -> Vec<ExportPage> {
    let mut out = Vec::new();
    let mut cursor: Option<ExportCursor> = None;
    loop {
        let page = d.export_page(cursor.as_ref(), limit).await.unwrap();
        cursor.clone_from(&page.next_cursor);
        out.push(page);
        if cursor.is_none() {
            return out;
        }
        assert!(out.len() <= 100, "the export does not end");
    }
}

fn pairs(records: &[MemoryRecord]) -> Vec<(String, String)> {
    records
        .iter()
        .map(|r| (r.namespace.clone(), r.key.clone()))
        .collect()
}

#[tokio::test]
async fn pages_are_bytewise_disjoint_and_complete() {
    let factory = factory_or_skip!("portability::pages_are_bytewise_disjoint_and_complete");
    let d = fresh(&factory).await;
    let want = fill(&d).await;
    assert_eq!(want.len(), 36);
    let listed: Vec<MemoryRecord> = d
        .list(None, None, None)
        .await
        .unwrap()
        .into_iter()
        .map(|e| MemoryRecord::from_entry(e).unwrap())
        .collect();
    for (limit, sizes) in [
        (1, vec![1; 36]),
        (2, vec![2; 18]),
        (7, vec![7, 7, 7, 7, 7, 1]),
        (36, vec![36]),
        (37, vec![36]),
        (usize::MAX, vec![36]),
    ] {
        let pages = pages(&d, limit).await;
        let got: Vec<usize> = pages.iter().map(|p| p.records.len()).collect();
        assert_eq!(got, sizes, "page sizes for limit {limit}");
        let all: Vec<MemoryRecord> = pages.into_iter().flat_map(|p| p.records).collect();
        assert_eq!(pairs(&all), want, "order for limit {limit}");
        assert_eq!(all, listed, "records for limit {limit}");
    }
    // A page ends after its last record: the cursor is "after" it.
    let first = d.export_page(None, 2).await.unwrap();
    assert_eq!(
        first.next_cursor,
        Some(KeysetCursor::after("global", "Z").encode())
    );
    assert_eq!(pairs(&first.records)[0], ("global".into(), "B".into()));
    assert_eq!(pairs(&first.records)[1], ("global".into(), "Z".into()));
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn empty_pages_and_the_end() {
    let factory = factory_or_skip!("portability::empty_pages_and_the_end");
    let d = fresh(&factory).await;
    for limit in [0, 1, usize::MAX] {
        assert_eq!(
            d.export_page(None, limit).await.unwrap(),
            ExportPage {
                records: vec![],
                next_cursor: None
            },
            "empty store, limit {limit}"
        );
    }
    put(&d, "global", "only", "one").await;
    // A limit of 0 with records left: an empty page that goes on from
    // where it was asked.
    let zero = d.export_page(None, 0).await.unwrap();
    assert_eq!(zero.records, []);
    assert_eq!(zero.next_cursor, Some(KeysetCursor::start().encode()));
    let at = KeysetCursor::after("global", "a").encode();
    let zero = d.export_page(Some(&at), 0).await.unwrap();
    assert_eq!(zero.next_cursor, Some(at));
    // The last record: no cursor, and after it nothing.
    let page = d.export_page(None, 1).await.unwrap();
    assert_eq!(pairs(&page.records), [("global".into(), "only".into())]);
    assert_eq!(page.next_cursor, None);
    let after = KeysetCursor::after("global", "only").encode();
    assert_eq!(
        d.export_page(Some(&after), usize::MAX).await.unwrap(),
        ExportPage {
            records: vec![],
            next_cursor: None
        }
    );
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn unknown_cursors_are_refused_and_forgotten_positions_hold() {
    let factory =
        factory_or_skip!("portability::unknown_cursors_are_refused_and_forgotten_positions_hold");
    let d = fresh(&factory).await;
    fill(&d).await;
    let good = d.export_page(None, 3).await.unwrap().next_cursor.unwrap();
    let mut edited = good.as_str().to_owned();
    edited.pop();
    for bad in [
        "",
        "bogus",
        edited.as_str(),
        "tm-export-1..0000000000000000",
    ] {
        let err = d
            .export_page(Some(&ExportCursor::new(bad)), 10)
            .await
            .unwrap_err();
        assert_eq!(err.rule(), Some(rules::EXPORT_CURSOR), "{bad:?}: {err}");
    }
    // The first page ends at ("global", "_"); forgetting it (and storing
    // before it) moves nothing after it.
    assert_eq!(good, KeysetCursor::after("global", "_").encode());
    assert!(d.forget("global", "_").await.unwrap());
    put(&d, "global", "A", "before the cursor").await;
    put(&d, "global", "_0", "after the cursor").await;
    let next = d.export_page(Some(&good), 3).await.unwrap();
    assert_eq!(
        pairs(&next.records),
        [
            ("global".into(), "_0".into()),
            ("global".into(), "a".into()),
            ("global".into(), "a\0".into()),
        ]
    );
    factory.cleanup().await.unwrap();
}

fn record(ns: &str, key: &str, content: &str, timestamp: &str) -> MemoryRecord {
    MemoryRecord {
        namespace: ns.into(),
        key: key.into(),
        content: content.into(),
        category: MemoryCategory::Core,
        session_id: None,
        taint: MemoryTaint::Internal,
        timestamp: timestamp.into(),
    }
}

#[tokio::test]
async fn import_keeps_every_field_and_reports_failures() {
    let factory = factory_or_skip!("portability::import_keeps_every_field_and_reports_failures");
    let d = fresh(&factory).await;
    put(&d, "global", "old", "replaced by the import").await;
    let old_id = d.get("global", "old").await.unwrap().unwrap().id;
    let tainted = MemoryRecord {
        category: MemoryCategory::Custom("cat\0🦀".into()),
        session_id: Some("s\0x".into()),
        taint: MemoryTaint::ExternalSync,
        ..record(
            "learning:x",
            "k\0",
            "tainted\0content",
            "2020-01-02t03:04:05.5+01:30",
        )
    };
    let records = [
        tainted.clone(),
        record("global", "old", "imported words", "2019-12-31T23:59:59Z"),
        record("bad namespace", "k", "refused", "2020-01-01T00:00:00Z"),
        record("global", "late", "latest", "2031-12-31T23:59:59.999999999Z"),
        record("global", "when", "refused", "yesterday"),
        record("global", "", "refused", "2020-01-01T00:00:00Z"),
        record("global", "dup", "first", "2020-01-01T00:00:00Z"),
        record("global", "dup", "second", "2020-01-01T00:00:01Z"),
    ];
    let outcome = d.import(&records).await.unwrap();
    assert_eq!(outcome.imported, 5);
    let failed: Vec<(usize, &str, &str, Option<&str>)> = outcome
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
        failed,
        [
            (2, "bad namespace", "k", Some(rules::NAMESPACE_CHARSET)),
            (4, "global", "when", Some(rules::IMPORT_TIMESTAMP)),
            (5, "global", "", Some(rules::KEY_EMPTY)),
        ]
    );
    let exported: Vec<MemoryRecord> = d.export_page(None, usize::MAX).await.unwrap().records;
    assert_eq!(
        exported,
        [
            record("global", "dup", "second", "2020-01-01T00:00:01Z"),
            record("global", "late", "latest", "2031-12-31T23:59:59.999999999Z"),
            record("global", "old", "imported words", "2019-12-31T23:59:59Z"),
            tainted,
        ]
    );
    // Upserted in place: the id is kept.
    assert_eq!(d.get("global", "old").await.unwrap().unwrap().id, old_id);
    // The newest timestamp (bytewise, as every driver orders them) per
    // namespace.
    let mut ns = d.namespaces().await.unwrap();
    ns.sort_by(|a, b| a.namespace.cmp(&b.namespace));
    assert_eq!(
        ns,
        [
            NamespaceSummary {
                namespace: "global".into(),
                count: 3,
                last_updated: Some("2031-12-31T23:59:59.999999999Z".into()),
            },
            NamespaceSummary {
                namespace: "learning:x".into(),
                count: 1,
                last_updated: Some("2020-01-02t03:04:05.5+01:30".into()),
            },
        ]
    );
    // Imported words are found.
    let hits = d
        .recall("imported", 5, &tinymemory_api::RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].key, "old");
    // Nothing valid: nothing written, every record reported.
    let outcome = d.import(&records[2..3]).await.unwrap();
    assert_eq!((outcome.imported, outcome.failures.len()), (0, 1));
    assert_eq!(outcome.failures[0].index, 0);
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn an_engine_failure_imports_nothing() {
    let factory = factory_or_skip!("portability::an_engine_failure_imports_nothing");
    let d = fresh(&factory).await;
    fail_on_boom(&d).await;
    let mut records: Vec<MemoryRecord> = (0..1500)
        .map(|i| {
            record(
                "global",
                &format!("k{i:04}"),
                "fine",
                "2020-01-01T00:00:00Z",
            )
        })
        .collect();
    records[1499].content = "boom".into();
    let err = d.import(&records).await.unwrap_err();
    assert_eq!(err.kind(), "backend", "{err}");
    assert_eq!(d.list(None, None, None).await.unwrap(), []);
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn export_then_import_into_a_fresh_store_is_identical() {
    let factory =
        factory_or_skip!("portability::export_then_import_into_a_fresh_store_is_identical");
    let source = fresh(&factory).await;
    fill(&source).await;
    source
        .store(
            "learning:x",
            "tainted",
            "from outside",
            MemoryCategory::Custom("c\0".into()),
            Some("s"),
            MemoryTaint::ExternalSync,
        )
        .await
        .unwrap();
    let target = fresh(&factory).await;
    for page in pages(&source, 5).await {
        let outcome = target.import(&page.records).await.unwrap();
        assert_eq!(
            (outcome.imported, outcome.failures.len()),
            (page.records.len(), 0)
        );
    }
    let records = |entries: Vec<tinymemory_api::MemoryEntry>| -> Vec<MemoryRecord> {
        entries
            .into_iter()
            .map(|e| MemoryRecord::from_entry(e).unwrap())
            .collect()
    };
    assert_eq!(
        records(target.list(None, None, None).await.unwrap()),
        records(source.list(None, None, None).await.unwrap())
    );
    let sorted = |mut n: Vec<NamespaceSummary>| {
        n.sort_by(|a, b| a.namespace.cmp(&b.namespace));
        n
    };
    assert_eq!(
        sorted(target.namespaces().await.unwrap()),
        sorted(source.namespaces().await.unwrap())
    );
    assert_eq!(target.namespaces().await.unwrap().len(), 5);
    factory.cleanup().await.unwrap();
}
