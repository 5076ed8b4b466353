//! `store_many`: one transaction, all or nothing, the last of a repeated
//! key kept, chunks past the statement bound.

use tinymemory_api::batch::NewEntry;
use tinymemory_api::{rules, MemoryCategory, MemoryProvider, MemoryTaint, NamespaceSummary};
use tinymemory_postgres::PostgresDriver;

use crate::common::{admin, factory_or_skip, fresh, keys, put};

/// Makes the server refuse any row of `d`'s table whose content is
/// `boom`: an engine failure in the middle of a batch.
pub async fn fail_on_boom(d: &PostgresDriver) {
    let s = d.schema();
    admin()
        .await
        .batch_execute(&format!(
            r#"CREATE FUNCTION "{s}".boom() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN
                   IF NEW.content = 'boom'::bytea THEN
                       RAISE EXCEPTION 'boom refused';
                   END IF;
                   RETURN NEW;
               END $$;
               CREATE TRIGGER boom BEFORE INSERT OR UPDATE ON "{s}".memory_entries
                   FOR EACH ROW EXECUTE FUNCTION "{s}".boom();"#
        ))
        .await
        .expect("the trigger is created");
}

#[tokio::test]
async fn a_batch_stores_every_field_with_one_timestamp() {
    let factory = factory_or_skip!("bulk::a_batch_stores_every_field_with_one_timestamp");
    let d = fresh(&factory).await;
    let batch = [
        NewEntry::new("global", "b", "beta words"),
        NewEntry::new("learning:x", "key\0nul", "content\0nul")
            .with_category(MemoryCategory::Custom("cat\0🦀".into()))
            .with_session("s\0x1")
            .with_taint(MemoryTaint::ExternalSync),
        NewEntry::new("global", "a", "alpha words").with_category(MemoryCategory::Daily),
    ];
    d.store_many(&batch).await.unwrap();
    let listed = d.list(None, None, None).await.unwrap();
    assert_eq!(keys(&listed), ["a", "b", "key\0nul"]);
    let got = &listed[2];
    assert_eq!(got.namespace.as_deref(), Some("learning:x"));
    assert_eq!(got.content, "content\0nul");
    assert_eq!(got.category, MemoryCategory::Custom("cat\0🦀".into()));
    assert_eq!(got.session_id.as_deref(), Some("s\0x1"));
    assert_eq!(got.taint, MemoryTaint::ExternalSync);
    assert_eq!(listed[0].category, MemoryCategory::Daily);
    assert_eq!(listed[0].taint, MemoryTaint::Internal);
    assert_eq!(listed[0].session_id, None);
    let stamp = listed[0].timestamp.clone();
    assert!(listed.iter().all(|e| e.timestamp == stamp), "{listed:?}");
    let mut ns = d.namespaces().await.unwrap();
    ns.sort_by(|a, b| a.namespace.cmp(&b.namespace));
    assert_eq!(
        ns,
        [
            NamespaceSummary {
                namespace: "global".into(),
                count: 2,
                last_updated: Some(stamp.clone()),
            },
            NamespaceSummary {
                namespace: "learning:x".into(),
                count: 1,
                last_updated: Some(stamp),
            },
        ]
    );
    // The words are indexed as `store` indexes them.
    let hits = d
        .recall("alpha", 5, &tinymemory_api::RecallOptions::default())
        .await
        .unwrap();
    assert_eq!(keys(&hits), ["a"]);
    d.store_many(&[]).await.unwrap();
    assert_eq!(d.list(None, None, None).await.unwrap().len(), 3);
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn a_repeated_key_keeps_the_later_entry() {
    let factory = factory_or_skip!("bulk::a_repeated_key_keeps_the_later_entry");
    let d = fresh(&factory).await;
    put(&d, "global", "k", "stored before").await;
    let id = d.get("global", "k").await.unwrap().unwrap().id;
    d.store_many(&[
        NewEntry::new("global", "k", "first of the batch"),
        NewEntry::new("global", "other", "other"),
        NewEntry::new("global", "k", "last of the batch").with_taint(MemoryTaint::ExternalSync),
        NewEntry::new("learning:k", "k", "another namespace"),
    ])
    .await
    .unwrap();
    let got = d.get("global", "k").await.unwrap().unwrap();
    assert_eq!(got.content, "last of the batch");
    assert_eq!(got.taint, MemoryTaint::ExternalSync);
    // An upsert keeps the entry's id.
    assert_eq!(got.id, id);
    assert_eq!(
        keys(&d.list(None, None, None).await.unwrap()),
        ["k", "other", "k"]
    );
    let opts = tinymemory_api::RecallOptions::default();
    assert_eq!(d.recall("first", 5, &opts).await.unwrap(), []);
    assert_eq!(keys(&d.recall("last", 5, &opts).await.unwrap()), ["k"]);
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn an_invalid_entry_refuses_the_batch_naming_its_index() {
    let factory = factory_or_skip!("bulk::an_invalid_entry_refuses_the_batch_naming_its_index");
    let d = fresh(&factory).await;
    let err = d
        .store_many(&[
            NewEntry::new("global", "fine", "fine"),
            NewEntry::new("global", "also fine", "fine"),
            NewEntry::new("bad namespace", "k", "x"),
        ])
        .await
        .unwrap_err();
    assert_eq!(err.rule(), Some(rules::NAMESPACE_CHARSET));
    assert!(
        err.to_string()
            .contains("entry 2 of 3 (namespace \"bad namespace\", key \"k\"): "),
        "{err}"
    );
    assert_eq!(d.list(None, None, None).await.unwrap(), []);
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn an_engine_failure_in_a_later_chunk_stores_nothing() {
    let factory = factory_or_skip!("bulk::an_engine_failure_in_a_later_chunk_stores_nothing");
    let d = fresh(&factory).await;
    put(&d, "global", "k0000", "stored before").await;
    fail_on_boom(&d).await;
    // 2,500 entries: three statements of at most 1,000 rows; the refused
    // row is in the third, after two statements succeeded.
    let mut batch: Vec<NewEntry> = (0..2500)
        .map(|i| NewEntry::new("global", format!("k{i:04}"), format!("entry {i}")))
        .collect();
    batch[2400].content = "boom".into();
    let err = d.store_many(&batch).await.unwrap_err();
    assert_eq!(err.kind(), "backend", "{err}");
    assert!(err.to_string().contains("boom refused"), "{err}");
    let listed = d.list(None, None, None).await.unwrap();
    assert_eq!(keys(&listed), ["k0000"]);
    assert_eq!(listed[0].content, "stored before");
    // The connection is usable afterwards, and the same batch without the
    // refused row is stored whole.
    batch[2400].content = "entry 2400".into();
    d.store_many(&batch).await.unwrap();
    let listed = d.list(None, None, None).await.unwrap();
    assert_eq!(listed.len(), 2500);
    assert_eq!(listed[0].content, "entry 0");
    assert_eq!(listed[2499].key, "k2499");
    assert_eq!(listed[2499].content, "entry 2499");
    factory.cleanup().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_batches_over_the_same_keys_do_not_deadlock() {
    let factory = factory_or_skip!("bulk::concurrent_batches_over_the_same_keys_do_not_deadlock");
    let d = fresh(&factory).await;
    // The same 2,000 keys, one batch in order and one reversed: rows
    // locked in batch order would make each wait for the other.
    let forward: Vec<NewEntry> = (0..2000)
        .map(|i| NewEntry::new("global", format!("k{i:04}"), "forward"))
        .collect();
    let mut backward = forward.clone();
    backward.reverse();
    for e in &mut backward {
        e.content = "backward".into();
    }
    for round in 0..5 {
        let (a, b) = tokio::join!(d.store_many(&forward), d.store_many(&backward));
        assert_eq!((a, b), (Ok(()), Ok(())), "round {round}");
        // One batch committed after the other: every entry is from one.
        let listed = d.list(None, None, None).await.unwrap();
        assert_eq!(listed.len(), 2000);
        let first = listed[0].content.clone();
        assert!(listed.iter().all(|e| e.content == first), "round {round}");
    }
    factory.cleanup().await.unwrap();
}
