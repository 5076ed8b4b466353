//! Writes the committed schema-version-1 fixture,
//! `tests/fixtures/v1.sqlite`, and what it must read back as,
//! `tests/fixtures/v1.expected.json` (`list(None, None, None)` and
//! `namespaces()`). Run once, with the version-1 driver:
//!
//! ```text
//! cargo test -p tinymemory-sqlite --test v1_fixture -- --ignored
//! ```

use std::path::Path;

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint};
use tinymemory_sqlite::{SqliteDriver, SCHEMA_VERSION};

#[tokio::test]
#[ignore = "writes the committed v1 fixture; run only with the version-1 driver"]
async fn write_the_v1_fixture() {
    assert_eq!(
        SCHEMA_VERSION, 1,
        "the fixture must be written by the v1 driver"
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let db = dir.join("v1.sqlite");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let d = SqliteDriver::open(&db).unwrap();
    use MemoryCategory::{Conversation, Core, Custom, Daily};
    use MemoryTaint::{ExternalSync, Internal};
    let entries: Vec<(&str, &str, &str, MemoryCategory, Option<&str>, MemoryTaint)> = vec![
        (
            "global",
            "café",
            "Le café crème est servi à l'été, déjà prêt",
            Core,
            None,
            Internal,
        ),
        (
            "global",
            "lock",
            "use a read AND write lock for the memory store",
            Core,
            Some("s1"),
            Internal,
        ),
        (
            "global",
            "robot",
            "机器人喜欢学习中文和写代码",
            Daily,
            None,
            ExternalSync,
        ),
        ("global", "empty", "", Core, None, Internal),
        (
            "learning:rust",
            "async",
            "Tokio runs async tasks; rust futures are lazy",
            Custom("lesson".into()),
            Some("s2"),
            Internal,
        ),
        (
            "learning:rust",
            "日本",
            "日本語のテキストを検索する",
            Conversation,
            Some("s2"),
            ExternalSync,
        ),
        (
            "learning:rust",
            "thai",
            "กินข้าวหรือยัง วันนี้อากาศดี",
            Daily,
            None,
            Internal,
        ),
        (
            "conversation:t1",
            "arabic",
            "مرحبا بالعالم، هذه ذاكرة الوكيل",
            Conversation,
            Some("t1"),
            Internal,
        ),
        (
            "conversation:t1",
            "hindi",
            "नमस्ते दुनिया, यह एजेंट की स्मृति है",
            Custom("x".into()),
            Some("t1"),
            ExternalSync,
        ),
        (
            "conversation:t1",
            "mixed",
            "Rust 和 SQLite: memory 记忆 read write",
            Core,
            None,
            Internal,
        ),
        (
            "project:tinymemory",
            "plan",
            "schema version two keeps every namespace apart",
            Custom("x".into()),
            None,
            Internal,
        ),
        (
            "project:tinymemory",
            "gone",
            "this entry is stored then forgotten",
            Core,
            None,
            Internal,
        ),
        (
            "Notes",
            "upserted",
            "first version of an upserted entry",
            Core,
            None,
            Internal,
        ),
    ];
    for (ns, key, content, category, session, taint) in entries {
        d.store(ns, key, content, category, session, taint)
            .await
            .unwrap();
    }
    d.store(
        "Notes",
        "upserted",
        "second version, memory write",
        Daily,
        Some("s3"),
        ExternalSync,
    )
    .await
    .unwrap();
    d.store(
        "Notes",
        "upserted",
        "third and final version: memory kept",
        Custom("x".into()),
        Some("s3"),
        ExternalSync,
    )
    .await
    .unwrap();
    assert!(d.forget("project:tinymemory", "gone").await.unwrap());

    let list = d.list(None, None, None).await.unwrap();
    let namespaces = d.namespaces().await.unwrap();
    let json = serde_json::json!({ "list": list, "namespaces": namespaces });
    std::fs::write(
        dir.join("v1.expected.json"),
        serde_json::to_string_pretty(&json).unwrap() + "\n",
    )
    .unwrap();
    drop(d);
    // Fold the WAL back into the file so that one file is the fixture.
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;")
        .unwrap();
    drop(c);
    assert!(!Path::new(&format!("{}-wal", db.display())).exists());
}
