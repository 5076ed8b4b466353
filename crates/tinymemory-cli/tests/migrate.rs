//! `migrate` as a user runs it: SQLite file to SQLite file, the refusal
//! of a non-empty target, `--overwrite`, a driver without the
//! portability family, bad page sizes, a missing source.

mod support {
    pub mod bin;
}

use std::path::Path;

use sha2::{Digest as _, Sha256};
use support::bin::{repo, run, scratch};
use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint};
use tinymemory_sqlite::SqliteDriver;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
}

/// A store with hostile keys and contents, both taints, custom
/// categories and sessions, over three namespaces: 7 entries.
fn fill(path: &Path) {
    let d = SqliteDriver::open(path).unwrap();
    rt().block_on(async {
        let put =
            |ns: &'static str, key: &'static str, content: &'static str, cat, session, taint| {
                let d = &d;
                async move {
                    d.store(ns, key, content, cat, session, taint)
                        .await
                        .unwrap();
                }
            };
        put(
            "global",
            "plain",
            "a plain fact",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await;
        put(
            "global",
            "it's",
            "'; DROP TABLE memory_entries; --",
            MemoryCategory::Daily,
            Some("s1"),
            MemoryTaint::ExternalSync,
        )
        .await;
        put(
            "global",
            "nul\0inside",
            "before\0after",
            MemoryCategory::Custom("tool output".into()),
            None,
            MemoryTaint::ExternalSync,
        )
        .await;
        put(
            "learning:a_b",
            "🦀",
            "🦀 crab, 👩‍👩‍👧 family",
            MemoryCategory::Conversation,
            Some("s2"),
            MemoryTaint::Internal,
        )
        .await;
        put(
            "learning:a_b",
            "%_%",
            "line\nbreak\r\n\ttab\u{2028}sep",
            MemoryCategory::Custom(String::new()),
            Some(""),
            MemoryTaint::Internal,
        )
        .await;
        put(
            "x:y:z",
            "e\u{301}",
            "e\u{301}\u{302} Z\u{36B}",
            MemoryCategory::Core,
            None,
            MemoryTaint::ExternalSync,
        )
        .await;
        put(
            "x:y:z",
            "\u{1b}[31m",
            "\u{1}\u{7}\u{1b}[31m\u{7f}",
            MemoryCategory::Custom("core".into()),
            Some("s1"),
            MemoryTaint::Internal,
        )
        .await;
    });
}

fn records(path: &Path) -> Vec<MemoryRecord> {
    let d = SqliteDriver::open(path).unwrap();
    rt().block_on(d.list(None, None, None))
        .unwrap()
        .into_iter()
        .map(|e: MemoryEntry| MemoryRecord::from_entry(e).unwrap())
        .collect()
}

/// The digest as README.md specifies it, written out again here.
fn digest(records: &[MemoryRecord]) -> String {
    let mut h = Sha256::new();
    let field = |h: &mut Sha256, s: &str| {
        h.update((s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    };
    for r in records {
        field(&mut h, &r.namespace);
        field(&mut h, &r.key);
        field(&mut h, &r.content);
        field(&mut h, &r.category.as_text());
        match &r.session_id {
            None => h.update([0u8]),
            Some(s) => {
                h.update([1u8]);
                field(&mut h, s);
            }
        }
        field(&mut h, r.taint.as_str());
        field(&mut h, &r.timestamp);
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn sqlite(path: &Path) -> String {
    format!("sqlite:{}", path.display())
}

#[test]
fn a_sqlite_file_migrates_into_a_new_one_byte_for_byte() {
    let dir = scratch();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    fill(&a);
    let before = records(&a);
    let file_before = std::fs::read(&a).unwrap();
    let ran = run(&[
        "migrate",
        "--from",
        &sqlite(&a),
        "--to",
        &sqlite(&b),
        "--page-size",
        "2",
        "--quiet",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", ran.dump());
    assert!(
        lines[0].starts_with(&format!(
            "migrated 7 records in 3 namespaces from {} to {}: 4 pages of at most 2, ",
            sqlite(&a),
            sqlite(&b)
        )),
        "{}",
        ran.dump()
    );
    assert!(lines[0].ends_with(" records/s"), "{}", ran.dump());
    assert_eq!(
        lines[1],
        format!(
            "verified: the target holds the source's 7 records in 3 namespaces, byte for byte; digest {}",
            digest(&before)
        )
    );
    assert_eq!(ran.stderr, "", "--quiet: no progress");
    assert_eq!(records(&b), before);
    assert_eq!(records(&a), before);
    assert_eq!(
        std::fs::read(&a).unwrap(),
        file_before,
        "the source file is not written"
    );
}

#[test]
fn a_target_holding_entries_is_refused_and_left_as_it_was() {
    let dir = scratch();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    fill(&a);
    let t = SqliteDriver::open(&b).unwrap();
    rt().block_on(t.store(
        "global",
        "plain",
        "the target's own",
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    ))
    .unwrap();
    drop(t);
    let target_before = records(&b);
    let ran = run(&["migrate", "--from", &sqlite(&a), "--to", &sqlite(&b)]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: the target {} already holds 1 entries in 1 namespaces, and migrating would \
             replace those with the same namespace and key; name a new store, or pass \
             --overwrite to migrate into it anyway\n",
            sqlite(&b)
        )
    );
    assert_eq!(ran.last_line(), "");
    assert_eq!(records(&b), target_before);
}

#[test]
fn overwrite_replaces_shared_keys_and_keeps_the_targets_others() {
    let dir = scratch();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    fill(&a);
    let t = SqliteDriver::open(&b).unwrap();
    rt().block_on(async {
        t.store(
            "global",
            "plain",
            "replaced",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
        t.store(
            "other",
            "mine",
            "kept",
            MemoryCategory::Daily,
            None,
            MemoryTaint::Internal,
        )
        .await
        .unwrap();
    });
    drop(t);
    let kept = records(&b).into_iter().find(|r| r.key == "mine").unwrap();
    let ran = run(&[
        "migrate",
        "--from",
        &sqlite(&a),
        "--to",
        &sqlite(&b),
        "--overwrite",
        "--quiet",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let source = records(&a);
    assert_eq!(
        ran.stdout.lines().nth(1),
        Some(
            format!(
                "verified: the target holds the source's 7 records in 3 namespaces, byte for byte; \
                 it kept its 1 other records; digest {}",
                digest(&source)
            )
            .as_str()
        )
    );
    let mut expected = source;
    expected.push(kept);
    expected.sort_by(|x, y| (&x.namespace, &x.key).cmp(&(&y.namespace, &y.key)));
    assert_eq!(records(&b), expected);
}

#[test]
fn a_driver_without_import_is_named_with_the_family() {
    let dir = scratch();
    let a = dir.path().join("a.db");
    fill(&a);
    let script = repo("examples/python/naive_fts5_driver.py");
    let to = format!("exec:python3 {}", script.display());
    let ran = run(&["migrate", "--from", &sqlite(&a), "--to", &to, "--quiet"]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(&format!(
            "error: --to {to} (driver python-naive-fts5) does not provide the portability family \
             (import), which migrate needs: unsupported (portability): "
        )),
        "{}",
        ran.dump()
    );
    assert_eq!(ran.stdout, "");
}

#[test]
fn a_page_size_of_zero_is_refused() {
    let ran = run(&[
        "migrate",
        "--from",
        "sqlite:a.db",
        "--to",
        "reference",
        "--page-size",
        "0",
    ]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.starts_with(
            "error: invalid value '0' for '--page-size <N>': a page of 0 records never \
             advances the export; give at least 1\n"
        ),
        "{}",
        ran.dump()
    );
}

#[test]
fn a_missing_source_is_not_created() {
    let dir = scratch();
    let a = dir.path().join("missing.db");
    let ran = run(&["migrate", "--from", &sqlite(&a), "--to", "reference"]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: failed to open --from {}: {} does not exist (a source is never created)\n",
            sqlite(&a),
            a.display()
        )
    );
    assert!(!a.exists());
}

#[test]
fn in_memory_sources_and_a_store_into_itself_are_usage_errors() {
    let ran = run(&["migrate", "--from", "reference", "--to", "sqlite:x.db"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        "error: --from reference is a store in memory, empty when migrate starts: migrate from \
         a store that holds entries (sqlite:PATH, postgres:URL, exec:COMMAND)\n"
    );
    let ran = run(&["migrate", "--from", "sqlite:x.db", "--to", "sqlite:x.db"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        "error: --from and --to both name sqlite:x.db: a store cannot be migrated into itself\n"
    );
}
