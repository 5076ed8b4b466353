//! `store_many`, `export_page` and `import` through the decorators, the
//! null driver and the mutants that must break their rule on these paths
//! too.

use tinymemory_api::portability::{ExportCursor, KeysetCursor, MemoryRecord};
use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, NewEntry, RecallOptions};
use tinymemory_doubles::mutants::{
    CollectionWideStatistics, DropsTaint, DuplicatesOnStore, MetadataFault, MetadataFaultKind,
};
use tinymemory_doubles::{
    Call, CallLog, FaultHandle, FaultKind, Faults, Method, NullDriver, Recording,
};
use tinymemory_reference::ReferenceDriver;

use crate::support::{keys, put};

fn record(namespace: &str, key: &str, taint: MemoryTaint, timestamp: &str) -> MemoryRecord {
    MemoryRecord {
        namespace: namespace.into(),
        key: key.into(),
        content: "note".into(),
        category: MemoryCategory::Core,
        session_id: None,
        taint,
        timestamp: timestamp.into(),
    }
}

#[tokio::test]
async fn recording_records_each_batch_as_one_call() {
    let d = Recording::new(ReferenceDriver::new(), CallLog::new());
    let log = d.hook().clone();
    let batch = vec![
        NewEntry::new("global", "a", "x"),
        NewEntry::new("learning:b", "b", "y"),
    ];
    d.store_many(&batch).await.unwrap();
    let page = d.export_page(None, 1).await.unwrap();
    let rec = record(
        "global",
        "c",
        MemoryTaint::ExternalSync,
        "2024-01-02T03:04:05Z",
    );
    d.import(std::slice::from_ref(&rec)).await.unwrap();
    let calls = log.take();
    assert_eq!(
        calls,
        [
            Call::StoreMany { entries: batch },
            Call::ExportPage {
                cursor: None,
                limit: 1
            },
            Call::Import { records: vec![rec] },
        ]
    );
    assert_eq!(calls[1].limit(), Some(1));
    assert_eq!(calls[0].namespace(), None);
    assert_eq!(Method::StoreMany.as_str(), "store_many");
    assert_eq!(Method::ExportPage.to_string(), "export_page");
    assert_eq!(Method::Import.as_str(), "import");
    assert_eq!(page.records.len(), 1);
}

#[tokio::test]
async fn a_namespace_fault_strikes_every_batch_naming_it() {
    let d = Faults::new(
        ReferenceDriver::new(),
        FaultHandle::new().with_namespace("learning:flaky", FaultKind::unavailable("down")),
    );
    let handle = d.hook().clone();
    let batch = [
        NewEntry::new("global", "a", "x"),
        NewEntry::new("learning:flaky", "b", "y"),
    ];
    assert!(d.store_many(&batch).await.unwrap_err().is_unavailable());
    assert_eq!(d.list(None, None, None).await.unwrap(), []);
    let rec = record(
        "learning:flaky",
        "c",
        MemoryTaint::Internal,
        "2024-01-02T03:04:05Z",
    );
    assert!(d.import(&[rec]).await.unwrap_err().is_unavailable());
    d.store_many(&batch[..1]).await.unwrap();
    assert_eq!(d.export_page(None, 10).await.unwrap().records.len(), 1);
    assert_eq!((handle.calls(), handle.struck()), (5, 2));
    handle.fail_method(Method::ExportPage, FaultKind::backend("disk"));
    assert!(d.export_page(None, 10).await.is_err());
}

#[tokio::test]
async fn the_null_driver_validates_and_keeps_nothing() {
    let d = NullDriver::new();
    d.store_many(&[NewEntry::new("global", "a", "x")])
        .await
        .unwrap();
    let err = d
        .store_many(&[
            NewEntry::new("global", "a", "x"),
            NewEntry::new("bad name", "b", "y"),
        ])
        .await
        .unwrap_err();
    assert_eq!(err.rule(), Some(rules::NAMESPACE_CHARSET));
    let page = d.export_page(None, 10).await.unwrap();
    assert_eq!((page.records, page.next_cursor), (vec![], None));
    let after = KeysetCursor::after("global", "a").encode();
    assert_eq!(
        d.export_page(Some(&after), 0).await.unwrap().next_cursor,
        None
    );
    let err = d
        .export_page(Some(&ExportCursor::new("bogus")), 10)
        .await
        .unwrap_err();
    assert_eq!(err.rule(), Some(rules::EXPORT_CURSOR));
    let outcome = d
        .import(&[
            record("global", "a", MemoryTaint::Internal, "2024-01-02T03:04:05Z"),
            record("global", "b", MemoryTaint::Internal, "yesterday"),
        ])
        .await
        .unwrap();
    assert_eq!(outcome.imported, 1);
    assert_eq!(outcome.failures.len(), 1);
    assert_eq!(
        (outcome.failures[0].index, outcome.failures[0].key.as_str()),
        (1, "b")
    );
    assert_eq!(
        outcome.failures[0].error.rule(),
        Some(rules::IMPORT_TIMESTAMP)
    );
    assert_eq!(d.list(None, None, None).await.unwrap(), []);
}

#[tokio::test]
async fn drops_taint_drops_it_on_bulk_stores_and_imports_too() {
    let d = DropsTaint::new(ReferenceDriver::new());
    d.store_many(&[NewEntry::new("global", "a", "x").with_taint(MemoryTaint::ExternalSync)])
        .await
        .unwrap();
    d.import(&[record(
        "global",
        "b",
        MemoryTaint::ExternalSync,
        "2024-01-02T03:04:05Z",
    )])
    .await
    .unwrap();
    let taints: Vec<MemoryTaint> = d
        .list(None, None, None)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.taint)
        .collect();
    assert_eq!(taints, [MemoryTaint::Internal, MemoryTaint::Internal]);
}

#[tokio::test]
async fn duplicates_on_store_duplicates_through_store_many_import_and_export() {
    let d = DuplicatesOnStore::new(ReferenceDriver::new());
    d.store_many(&[
        NewEntry::new("global", "k", "alpha"),
        NewEntry::new("global", "k", "beta"),
    ])
    .await
    .unwrap();
    let outcome = d
        .import(&[
            record("global", "k", MemoryTaint::Internal, "2024-01-02T03:04:05Z"),
            record(
                "bad name",
                "k",
                MemoryTaint::Internal,
                "2024-01-02T03:04:05Z",
            ),
        ])
        .await
        .unwrap();
    assert_eq!((outcome.imported, outcome.failures[0].index), (1, 1));
    let page = d.export_page(None, 10).await.unwrap();
    let contents: Vec<&str> = page.records.iter().map(|r| r.content.as_str()).collect();
    assert_eq!(contents, ["note", "alpha", "beta"]);
}

#[tokio::test]
async fn epoch_timestamps_are_exported_and_merged_sessions_imported() {
    let epoch = MetadataFault::new(MetadataFaultKind::EpochTimestamps, ReferenceDriver::new());
    put(&epoch, "global", "a", "x").await;
    let page = epoch.export_page(None, 10).await.unwrap();
    assert_eq!(page.records[0].timestamp, "1970-01-01T00:00:00Z");

    let merges = MetadataFault::new(
        MetadataFaultKind::MergesMetadataOnUpsert,
        ReferenceDriver::new(),
    );
    merges
        .store_many(&[NewEntry::new("global", "a", "x").with_session("s1")])
        .await
        .unwrap();
    merges
        .import(&[record(
            "global",
            "a",
            MemoryTaint::Internal,
            "2024-01-02T03:04:05Z",
        )])
        .await
        .unwrap();
    let got = merges.get("global", "a").await.unwrap().unwrap();
    assert_eq!(
        (got.session_id.as_deref(), got.timestamp.as_str()),
        (Some("s1"), "2024-01-02T03:04:05Z")
    );
}

#[tokio::test]
async fn collection_wide_statistics_weights_by_the_bm25_idf_of_every_namespace() {
    let plain = ReferenceDriver::new();
    let d = CollectionWideStatistics::new(ReferenceDriver::new());
    for p in [&plain as &dyn MemoryProvider, &d] {
        put(p, "global", "a", "rust borrow").await;
        put(p, "global", "b", "rust").await;
        put(p, "learning:x", "c", "tokio").await;
    }
    let pinned = RecallOptions::in_namespace("global");
    let base = plain.recall("rust", 10, &pinned).await.unwrap();
    let hits = d.recall("rust", 10, &pinned).await.unwrap();
    assert_eq!(keys(&hits), keys(&base));
    // N = 3 entries in all namespaces, n = 2 contain "rust".
    let idf = ((3.0_f64 - 2.0 + 0.5) / (2.0 + 0.5)).ln_1p();
    let want: Vec<Option<u64>> = base
        .iter()
        .map(|h| h.score.map(|s| (s * idf).to_bits()))
        .collect();
    let got: Vec<Option<u64>> = hits.iter().map(|h| h.score.map(f64::to_bits)).collect();
    assert_eq!(got, want);
    // A write in another namespace changes the pinned recall's bits.
    put(&d, "learning:x", "d", "rust").await;
    let idf = ((4.0_f64 - 3.0 + 0.5) / (3.0 + 0.5)).ln_1p();
    let again = d.recall("rust", 10, &pinned).await.unwrap();
    assert_eq!(again[0].score, base[0].score.map(|s| s * idf));
    // min_score applies to the weighted scores (both hits score the same:
    // every query word is in each).
    let top = again[0].score.unwrap();
    let opts = RecallOptions {
        min_score: Some(top),
        ..pinned.clone()
    };
    let kept = d.recall("rust", 10, &opts).await.unwrap();
    let above = RecallOptions {
        min_score: Some(top * 1.5),
        ..pinned.clone()
    };
    assert_eq!(d.recall("rust", 10, &above).await.unwrap(), []);
    assert_eq!(
        kept.iter().map(|h| h.score).collect::<Vec<_>>(),
        [Some(top), Some(top)]
    );
}
