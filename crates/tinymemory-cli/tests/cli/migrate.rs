//! `migrate` as a user runs it: SQLite file to SQLite file, the refusal
//! of a non-empty target, `--overwrite`, a driver without the
//! portability family, bad page sizes, a missing source.

use crate::support;

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

/// The digest as docs/cli.md specifies it, written out again here.
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
             --overwrite to migrate into it anyway (if an interrupted migrate left it partial, \
             --overwrite copies everything again and verifies it)\n",
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

/// Runs `python3 -c CODE PATH`: SQLite as another program uses it.
fn python_sqlite(code: &str, path: &Path) {
    let ok = std::process::Command::new("python3")
        .args(["-c", code])
        .arg(path)
        .status()
        .expect("python3 runs")
        .success();
    assert!(ok, "python3 -c {code}");
}

/// The SHA-256 of the file's bytes and whether a `-wal` or `-shm` lies
/// beside it.
fn snapshot(path: &Path) -> (String, bool) {
    let side = |ext: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(ext);
        Path::new(&p).exists()
    };
    let hash: String = Sha256::digest(std::fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    (hash, side("-wal") || side("-shm"))
}

#[test]
fn a_version_1_source_is_refused_and_not_migrated() {
    let dir = scratch();
    let a = dir.path().join("v1.db");
    std::fs::copy(
        repo("crates/tinymemory-sqlite/tests/fixtures/v1.sqlite"),
        &a,
    )
    .unwrap();
    let before = snapshot(&a);
    let ran = run(&["migrate", "--from", &sqlite(&a), "--to", "reference"]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: failed to open --from {}: backend failure: {}: database schema is not usable: schema version \
             1: open it once with a write to migrate it to version 2, or copy it first; it is \
             read only here, and reading it needs that migration\n",
            sqlite(&a),
            a.display()
        )
    );
    // The fixture is in WAL mode: SQLite reads it with a -wal and -shm,
    // which it creates beside it; the file itself is not written.
    assert_eq!(snapshot(&a).0, before.0, "the source is not written");
}

#[test]
fn a_file_that_is_no_tinymemory_store_is_refused_untouched() {
    let dir = scratch();
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let ran = run(&["migrate", "--from", &sqlite(&empty), "--to", "reference"]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: failed to open --from {}: backend failure: {}: database schema is not usable: the file is \
             empty (0 bytes): it is not a tinymemory store\n",
            sqlite(&empty),
            empty.display()
        )
    );
    assert_eq!(std::fs::read(&empty).unwrap(), b"");
    assert!(!snapshot(&empty).1);

    let other = dir.path().join("other.db");
    python_sqlite(
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); \
         c.execute('CREATE TABLE notes (x)'); c.commit()",
        &other,
    );
    let before = snapshot(&other);
    let ran = run(&["migrate", "--from", &sqlite(&other), "--to", "reference"]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: failed to open --from {}: backend failure: {}: database schema is not usable: the file has \
             no tinymemory_schema table: it is not a tinymemory store\n",
            sqlite(&other),
            other.display()
        )
    );
    assert_eq!(snapshot(&other), before, "no tables created, no WAL");
}

#[test]
fn a_source_in_rollback_journal_mode_or_read_only_is_read_without_a_write() {
    let dir = scratch();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    fill(&a);
    // Another program switched it back from WAL: opening it to write
    // would switch it again, rewriting the header.
    python_sqlite(
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); \
         c.execute('PRAGMA journal_mode = DELETE')",
        &a,
    );
    let before = snapshot(&a);
    assert!(!before.1);
    let mut perms = std::fs::metadata(&a).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&a, perms).unwrap();
    let ran = run(&[
        "migrate",
        "--from",
        &sqlite(&a),
        "--to",
        &sqlite(&b),
        "--quiet",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert!(ran.last_line().starts_with("verified: "), "{}", ran.dump());
    assert_eq!(snapshot(&a), before, "the source is not written");
}

#[test]
fn the_same_file_named_two_ways_is_refused() {
    let dir = scratch();
    let a = dir.path().join("a.db");
    fill(&a);
    let link = dir.path().join("link.db");
    std::os::unix::fs::symlink(&a, &link).unwrap();
    let dotted = dir.path().join(".").join("a.db");
    let hard = dir.path().join("hard.db");
    std::fs::hard_link(&a, &hard).unwrap();
    let before = snapshot(&a);
    for to in [&dotted, &link, &hard] {
        let ran = run(&[
            "migrate",
            "--from",
            &sqlite(&a),
            "--to",
            &sqlite(to),
            "--overwrite",
        ]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: --from {} and --to {} name the same file {}: a store cannot be migrated \
                 into itself\n",
                sqlite(&a),
                sqlite(to),
                std::fs::canonicalize(&a).unwrap().display()
            )
        );
    }
    assert_eq!(snapshot(&a), before, "the source is not written");
}

#[test]
fn a_companion_of_the_source_is_the_source() {
    let dir = scratch();
    let a = dir.path().join("a.db");
    fill(&a);
    let before = snapshot(&a);
    for suffix in ["-wal", "-shm", "-journal"] {
        let companion = dir.path().join(format!("a.db{suffix}"));
        let ran = run(&[
            "migrate",
            "--from",
            &sqlite(&a),
            "--to",
            &sqlite(&companion),
        ]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: --to {} names the same file as the {suffix} companion ({}) of --from {}: \
                 a store cannot be migrated into itself\n",
                sqlite(&companion),
                companion.display(),
                sqlite(&a)
            )
        );
        assert!(!companion.exists(), "{suffix}");
    }
    // The other way round: a source named by a companion's name is
    // another file, whose own companions are not the target.
    let ran = run(&[
        "migrate",
        "--from",
        &sqlite(&a),
        "--to",
        &sqlite(&dir.path().join("a.db-walnut")),
        "--quiet",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    // Reading a WAL file creates its -wal and -shm (docs/cli.md, "Moving a
    // store"); its bytes stay as they were.
    assert_eq!(snapshot(&a).0, before.0, "the source is not written");
}

#[test]
fn an_in_memory_sqlite_target_is_a_dry_run() {
    let dir = scratch();
    let a = dir.path().join("a.db");
    fill(&a);
    let ran = run(&["migrate", "--from", &sqlite(&a), "--to", "sqlite::memory:"]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert!(
        ran.stderr.lines().any(|l| l
            == "note: --to sqlite::memory: is in memory: this is a dry run, its copy is \
                discarded at the end"),
        "{}",
        ran.dump()
    );
    assert!(!dir.path().join(":memory:").exists());
}

#[test]
fn an_interrupted_migration_says_the_target_may_hold_a_partial_copy() {
    let dir = scratch();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    let d = SqliteDriver::open(&a).unwrap();
    let entries: Vec<_> = (0..20_000)
        .map(|i| tinymemory_api::NewEntry::new("global", format!("k{i:05}"), "some text"))
        .collect();
    rt().block_on(d.store_many(&entries)).unwrap();
    drop(d);
    // One record per page: one transaction (and fsync) per record, long
    // enough to be interrupted.
    let child = crate::support::bin::command()
        .args(["migrate", "--from", &sqlite(&a), "--to", &sqlite(&b)])
        .args(["--page-size", "1", "--quiet"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted once the copy has begun: the target holds a record. (A
    // fixed wait after the file appeared was too short at load 40: the
    // signal came before the copy, and so did the note it prints.)
    let started = std::time::Instant::now();
    while !holds_a_record(&b) && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "error: interrupted by SIGINT: the driver processes were stopped and the temporary \
             files removed; the target {} may hold a partial copy: rerun with --overwrite to \
             copy everything again and verify it\n",
            sqlite(&b)
        )
    );
    let ran = run(&["migrate", "--from", &sqlite(&a), "--to", &sqlite(&b)]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert!(
        ran.stderr.ends_with(
            "name a new store, or pass --overwrite to migrate into it anyway (if an \
             interrupted migrate left it partial, --overwrite copies everything again and \
             verifies it)\n"
        ),
        "{}",
        ran.dump()
    );
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
    assert!(
        ran.last_line().starts_with(
            "verified: the target holds the source's 20000 records in 1 namespaces, byte for \
             byte; digest "
        ),
        "{}",
        ran.dump()
    );
}

#[test]
fn an_empty_source_is_refused_unless_allowed() {
    let dir = scratch();
    let a = dir.path().join("empty-store.db");
    drop(SqliteDriver::open(&a).unwrap());
    let ran = run(&["migrate", "--from", &sqlite(&a), "--to", "reference"]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: --from {} holds no records, so there is nothing to migrate: a mistyped path \
             or an exec driver started without its file opens an empty store; \
             --allow-empty-source migrates it anyway\n",
            sqlite(&a)
        )
    );
    let ran = run(&[
        "migrate",
        "--from",
        &sqlite(&a),
        "--to",
        "reference",
        "--allow-empty-source",
        "--quiet",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    assert!(
        ran.stdout.starts_with(&format!(
            "migrated 0 records in 0 namespaces from {} to reference: 1 page of at most 1000",
            sqlite(&a)
        )),
        "{}",
        ran.dump()
    );
}

/// An exec source whose `namespaces()` counts 3 records but whose export
/// issues a new cursor with a new record forever.
const ENDLESS_EXPORT: &str = r#"
import json, sys
n = 0
for raw in sys.stdin:
    r = json.loads(raw)
    op = r["op"]
    if op == "hello":
        result = {"protocol": 1, "driver": "endless", "ops": ["export_page", "import"]}
    elif op == "namespaces":
        result = [{"namespace": "global", "count": 3, "last_updated": None}]
    elif op == "export_page":
        records = []
        for _ in range(min(r["limit"], 2)):
            n += 1
            records.append({"namespace": "global", "key": "k%09d" % n, "content": "c",
                            "category": "core", "session_id": None, "taint": "internal",
                            "timestamp": "2026-12-01T00:00:00Z"})
        result = {"records": records, "next_cursor": "after-%d" % n}
    elif op == "list":
        result = []
    else:
        result = None
    sys.stdout.write(json.dumps({"id": r["id"], "result": result}) + "\n")
    sys.stdout.flush()
"#;

#[test]
fn an_export_that_never_ends_is_bounded_by_the_count_and_named() {
    let dir = scratch();
    let script = dir.path().join("endless.py");
    std::fs::write(&script, ENDLESS_EXPORT).unwrap();
    let from = format!("exec:python3 {}", script.display());
    let target = dir.path().join("t.db");
    let to = sqlite(&target);
    let ran = run(&[
        "migrate",
        "--from",
        &from,
        "--to",
        &to,
        "--page-size",
        "2",
        "--quiet",
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: failed to export page 2 of --from {from}: backend failure: page 2 of the export \
             brings it to 4 records, more than the 3 its namespaces() counts: an export that \
             outgrows the store it pages through (a cursor that never ends) is refused rather \
             than read without bound\n\
             note: the target {to} now holds a partial copy: rerun with --overwrite to copy \
             everything again and verify it\n"
        )
    );
}

/// An exec target whose answers carry terminal escapes (ESC, BEL) and a
/// 50,000-character message: `import` refuses every record with such a
/// failure, or, with `whole`, answers the call with such an error.
const HOSTILE_TARGET: &str = r#"
import json, sys
whole = sys.argv[1] == "whole"
evil = "disk \x1b[2J\x1b]0;pwned\x07 full " + "x" * 50000
for raw in sys.stdin:
    r = json.loads(raw)
    op = r["op"]
    answer = {"id": r["id"]}
    if op == "hello":
        answer["result"] = {"protocol": 1, "driver": "hostile\x1b[31m" + "d" * 60000,
                            "ops": ["export_page", "import"]}
    elif op == "namespaces":
        answer["result"] = []
    elif op == "export_page":
        answer["result"] = {"records": [], "next_cursor": None}
    elif op == "import" and r["records"] and whole:
        answer["error"] = {"kind": "backend", "message": evil}
    elif op == "import":
        answer["result"] = {"imported": 0, "failures": [
            {"index": i, "namespace": x["namespace"], "key": x["key"],
             "error": {"kind": "backend", "message": evil}}
            for i, x in enumerate(r["records"])]}
    else:
        answer["result"] = None
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"#;

#[test]
fn a_targets_messages_are_escaped_and_capped() {
    let dir = scratch();
    let a = dir.path().join("a.db");
    fill(&a);
    let script = dir.path().join("hostile.py");
    std::fs::write(&script, HOSTILE_TARGET).unwrap();
    let cut = "… (49025 bytes cut)";
    let evil_shown = format!(
        "disk \\u{{1b}}[2J\\u{{1b}}]0;pwned\\u{{7}} full {}{cut}",
        "x".repeat(975)
    );
    for mode in ["whole", "each"] {
        let to = format!("exec:python3 {} {mode}", script.display());
        let ran = run(&["migrate", "--from", &sqlite(&a), "--to", &to, "--quiet"]);
        assert_eq!(ran.code, 1, "{}", ran.dump());
        assert!(
            !ran.stderr.contains('\u{1b}') && !ran.stderr.contains('\u{7}'),
            "{mode}: {}",
            ran.dump()
        );
        assert!(
            ran.stderr.len() < 20_000,
            "{mode}: {} bytes of stderr",
            ran.stderr.len()
        );
        assert!(ran.stderr.contains(&evil_shown), "{mode}: {}", ran.dump());
        if mode == "each" {
            assert!(
                ran.stderr.contains(&format!(
                    "  record 0 (global \"it's\"): backend failure: {evil_shown}\n"
                )),
                "{}",
                ran.dump()
            );
            assert!(
                ran.stderr.contains(&format!(
                    "note: the target {to} now holds a partial copy: rerun with --overwrite to \
                     copy everything again and verify it\n"
                )),
                "{}",
                ran.dump()
            );
        }
    }
}

#[test]
fn an_exec_target_naming_the_source_file_is_the_source() {
    let dir = scratch();
    let a = dir.path().join("a.db");
    fill(&a);
    let before = snapshot(&a);
    let script = repo("examples/python/sqlite_driver.py");
    let to = format!("exec:python3 {} {}", script.display(), a.display());
    let ran = run(&["migrate", "--from", &sqlite(&a), "--to", &to, "--quiet"]);
    assert_eq!(ran.code, 2, "{}", ran.dump());
    assert_eq!(
        ran.stderr,
        format!(
            "error: {}, named by --to {to} names the same file as --from {}: a store cannot be \
             migrated into itself\n",
            a.display(),
            sqlite(&a)
        )
    );
    assert_eq!(snapshot(&a), before, "the source is not written");
}

/// Two `postgres:` ends are asked whether they reach one store before
/// either is opened; a server that cannot be asked is a set-up error that
/// names the end as every other message does, with the URL's password
/// left out (it once printed the URL as given, password included).
#[test]
fn an_unreachable_server_is_named_without_its_password() {
    // Port 1 refuses connections: no server is needed.
    let from = "postgres:postgres://ann:s3cret@127.0.0.1:1/mem";
    let to = "postgres:postgres://ann:s3cret@127.0.0.1:1/other";
    let ran = run(&["migrate", "--from", from, "--to", to]);
    assert_eq!(ran.code, 3, "{}", ran.dump());
    assert!(
        ran.stderr
            .starts_with("error: failed to open --from postgres:postgres://ann@127.0.0.1:1/mem: "),
        "{}",
        ran.dump()
    );
    assert!(!ran.stderr.contains("s3cret"), "{}", ran.dump());
    assert_eq!(ran.stderr.lines().count(), 1, "{}", ran.dump());
}

/// Whether the SQLite file `db` holds an entry, read by python3's sqlite3
/// (the exec tests need it anyway) through a read-only connection, which
/// never blocks the process writing it.
fn holds_a_record(db: &Path) -> bool {
    if !db.exists() {
        return false;
    }
    let read = std::process::Command::new("python3")
        .args([
            "-c",
            "import sqlite3, sys\n\
             try:\n    c = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True)\n    \
             n = c.execute('SELECT count(*) FROM memory_entries').fetchone()[0]\n\
             except sqlite3.Error:\n    n = 0\n\
             print(n)",
        ])
        .arg(db)
        .output();
    read.is_ok_and(|out| {
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse::<u64>()
            .is_ok_and(|n| n > 0)
    })
}
