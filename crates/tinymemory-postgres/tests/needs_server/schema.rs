//! The tables are created and versioned on connect, survive reconnects,
//! and a schema from a newer version is refused untouched.

use tinymemory_api::{MemoryError, MemoryProvider, RecallOptions};
use tinymemory_postgres::{PostgresDriver, PostgresFactory, SCHEMA_VERSION};

use crate::common::{admin, config, keys, put};

/// The version recorded in `schema`.
async fn stored_version(admin: &tokio_postgres::Client, schema: &str) -> i32 {
    admin
        .query_one(
            &format!("SELECT version FROM \"{schema}\".tinymemory_schema"),
            &[],
        )
        .await
        .unwrap()
        .get(0)
}

#[tokio::test]
async fn tables_are_created_versioned_and_kept_across_reconnects() {
    let Some(config) = config("schema::tables_are_created_versioned_and_kept_across_reconnects")
    else {
        return;
    };
    let factory = PostgresFactory::new(&config).unwrap();
    // Take a scratch name; connect to it with a driver of its own.
    let schema = factory.scratch().schema().to_owned();
    let config = config.with_schema(&schema).unwrap();
    {
        let d = PostgresDriver::connect_with(&config).await.unwrap();
        assert_eq!(d.schema(), schema);
        put(&d, "learning:x", "k", "persisted across connections").await;
    }
    let admin = admin().await;
    assert_eq!(
        stored_version(&admin, &schema).await,
        i32::try_from(SCHEMA_VERSION).unwrap()
    );
    let again = PostgresDriver::connect_with(&config).await.unwrap();
    let got = again.get("learning:x", "k").await.unwrap().unwrap();
    assert_eq!(got.content, "persisted across connections");
    let hits = again
        .recall("persisted", 5, &RecallOptions::in_namespace("learning:x"))
        .await
        .unwrap();
    assert_eq!(keys(&hits), ["k"]);
    // Reconnecting neither re-creates nor re-versions anything.
    assert_eq!(
        stored_version(&admin, &schema).await,
        i32::try_from(SCHEMA_VERSION).unwrap()
    );
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn connect_existing_refuses_a_missing_schema_and_creates_nothing() {
    let Some(config) =
        config("schema::connect_existing_refuses_a_missing_schema_and_creates_nothing")
    else {
        return;
    };
    let factory = PostgresFactory::new(&config).unwrap();
    let schema = factory.scratch().schema().to_owned();
    let config = config.with_schema(&schema).unwrap();
    let e = PostgresDriver::connect_existing(&config).await.unwrap_err();
    assert_eq!(
        e,
        MemoryError::fault(format!(
            "schema {schema:?} is not usable: it holds no tinymemory tables, and an existing \
             store is never created (is this the right server and schema?)"
        ))
    );
    let admin = admin().await;
    let exists: bool = admin
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1)",
            &[&schema],
        )
        .await
        .unwrap()
        .get(0);
    assert!(!exists, "connect_existing created schema {schema}");

    // Once a read-write connection made it, the same call opens it as is.
    let d = PostgresDriver::connect_with(&config).await.unwrap();
    put(&d, "global", "k", "made by a read-write connection").await;
    let existing = PostgresDriver::connect_existing(&config).await.unwrap();
    let got = existing.get("global", "k").await.unwrap().unwrap();
    assert_eq!(got.content, "made by a read-write connection");
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn a_newer_schema_version_is_refused_and_left_untouched() {
    let Some(config) = config("schema::a_newer_schema_version_is_refused_and_left_untouched")
    else {
        return;
    };
    let factory = PostgresFactory::new(&config).unwrap();
    let d = factory.scratch();
    put(&d, "global", "k", "written by version one").await;
    let admin = admin().await;
    admin
        .batch_execute(&format!(
            "UPDATE \"{}\".tinymemory_schema SET version = 7",
            d.schema()
        ))
        .await
        .unwrap();
    let config = config.with_schema(d.schema()).unwrap();
    let e = PostgresDriver::connect_with(&config).await.unwrap_err();
    assert_eq!(
        e,
        MemoryError::fault(format!(
            "schema {:?} has tinymemory schema version 7, newer than the newest this driver \
             supports ({SCHEMA_VERSION}); refusing to use it rather than rewrite it",
            d.schema()
        ))
    );
    // A lazy driver refuses on its first call, the same way.
    let lazy = PostgresDriver::connect_lazy(&config).unwrap();
    assert_eq!(lazy.get("global", "k").await.unwrap_err().kind(), "backend");
    assert_eq!(stored_version(&admin, d.schema()).await, 7);
    let content: Vec<u8> = admin
        .query_one(
            &format!("SELECT content FROM \"{}\".memory_entries", d.schema()),
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(content, b"written by version one");
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn tables_this_driver_did_not_write_are_refused() {
    let Some(config) = config("schema::tables_this_driver_did_not_write_are_refused") else {
        return;
    };
    let factory = PostgresFactory::new(&config).unwrap();
    let admin = admin().await;

    // A memory_entries table without a version table.
    let foreign = factory.scratch().schema().to_owned();
    admin
        .batch_execute(&format!(
            "CREATE SCHEMA \"{foreign}\"; CREATE TABLE \"{foreign}\".memory_entries (x int)"
        ))
        .await
        .unwrap();
    let e = PostgresDriver::connect_with(&config.clone().with_schema(&foreign).unwrap())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), "backend", "{e}");
    let tables: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_tables WHERE schemaname = $1::text",
            &[&foreign],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(tables, 1, "nothing was created beside the foreign table");

    // A version no driver ever wrote.
    let d = factory.scratch();
    d.ensure_schema().await.unwrap();
    admin
        .batch_execute(&format!(
            "UPDATE \"{}\".tinymemory_schema SET version = 0",
            d.schema()
        ))
        .await
        .unwrap();
    let e = PostgresDriver::connect_with(&config.clone().with_schema(d.schema()).unwrap())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), "backend", "{e}");

    // Two version rows.
    let d = factory.scratch();
    d.ensure_schema().await.unwrap();
    admin
        .batch_execute(&format!(
            "ALTER TABLE \"{s}\".tinymemory_schema DROP CONSTRAINT tinymemory_schema_id_check;
             INSERT INTO \"{s}\".tinymemory_schema VALUES (2, 1)",
            s = d.schema()
        ))
        .await
        .unwrap();
    let e = PostgresDriver::connect_with(&config.with_schema(d.schema()).unwrap())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), "backend", "{e}");
    factory.cleanup().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_first_connects_create_the_schema_once() {
    let Some(config) = config("schema::simultaneous_first_connects_create_the_schema_once") else {
        return;
    };
    let factory = PostgresFactory::new(&config).unwrap();
    let config = config.with_schema(factory.scratch().schema()).unwrap();
    let connects: Vec<_> = (0..6)
        .map(|_| {
            let c = config.clone();
            tokio::spawn(async move { PostgresDriver::connect_with(&c).await })
        })
        .collect();
    let mut drivers = Vec::new();
    for c in connects {
        drivers.push(c.await.unwrap().unwrap());
    }
    put(&drivers[0], "global", "k", "one schema").await;
    for d in &drivers {
        assert_eq!(d.list(None, None, None).await.unwrap().len(), 1);
    }
    factory.cleanup().await.unwrap();
}

#[tokio::test]
async fn schemas_are_isolated_from_each_other() {
    let Some(config) = config("schema::schemas_are_isolated_from_each_other") else {
        return;
    };
    let factory = PostgresFactory::new(&config).unwrap();
    let (a, b) = (factory.scratch(), factory.scratch());
    put(&a, "global", "only-in-a", "isolated words").await;
    b.ensure_schema().await.unwrap();
    assert_eq!(b.list(None, None, None).await.unwrap(), []);
    assert_eq!(b.namespaces().await.unwrap(), []);
    assert_eq!(
        b.recall("isolated", 5, &RecallOptions::default())
            .await
            .unwrap(),
        []
    );
    assert_eq!(factory.schemas().len(), 2);
    assert_eq!(factory.cleanup().await.unwrap(), 2);
    let admin = admin().await;
    let left: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_namespace WHERE starts_with(nspname, $1::text)",
            &[&factory.prefix()],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(left, 0, "cleanup dropped every scratch schema");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_factory_drops_its_schemas() {
    let Some(config) = config("schema::dropping_a_factory_drops_its_schemas") else {
        return;
    };
    let factory = PostgresFactory::new(&config).unwrap();
    let d = factory.scratch();
    put(&d, "global", "k", "dropped with the factory").await;
    let prefix = factory.prefix().to_owned();
    drop(factory);
    let admin = admin().await;
    let left: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_namespace WHERE starts_with(nspname, $1::text)",
            &[&prefix],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(left, 0);
    // The driver outlived its schema: its calls fail, they do not panic.
    assert!(d.get("global", "k").await.is_err());
}
