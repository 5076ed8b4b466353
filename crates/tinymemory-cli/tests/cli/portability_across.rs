//! Export from each in-tree driver and import into each other: the
//! target's `list(None, ..)` (every field but the driver's `id`) and
//! `namespaces()` must equal the source's, byte for byte, over a store of
//! hostile keys and contents, both taints, custom categories and sessions.
//!
//! Drivers: reference, semantic reference, SQLite in memory and in a
//! file, the Python examples `memory_driver.py` and `sqlite_driver.py`
//! over exec, and PostgreSQL when `TINYMEMORY_POSTGRES_URL` names a server
//! (a scratch schema per store; with `CI` set and no server, the test
//! fails rather than skips, like the PostgreSQL driver's own tests).

use crate::support;

use tinymemory_api::portability::MemoryRecord;
use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, NamespaceSummary};
use tinymemory_conformance::hostile::{big_content, HOSTILE_TEXT, TRICKY_VALID_NAMESPACES};
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver};
use tinymemory_postgres::{PostgresConfig, PostgresFactory};
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};
use tinymemory_sqlite::SqliteDriver;

/// Records per `export_page` and `import`: small, so every export takes
/// several pages.
const PAGE: usize = 7;

/// The server from `TINYMEMORY_POSTGRES_URL`, `None` (said on stderr)
/// without one.
///
/// # Panics
///
/// With `CI` set and no server: in CI this pair must run.
fn postgres() -> Option<PostgresFactory> {
    let url = support::server::url("the PostgreSQL pairs of portability_across")?;
    let config = PostgresConfig::from_url(&url).expect("a usable URL");
    Some(PostgresFactory::new(&config).expect("the pool builds"))
}

/// The drivers, by name.
const KINDS: &[&str] = &[
    "reference",
    "semantic-reference",
    "sqlite-memory",
    "sqlite-file",
    "python-memory",
    "python-sqlite",
    "postgres",
];

fn python(script: &str, args: &[&str]) -> ExecCommand {
    let path = format!(
        "{}/../../examples/python/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut all = vec![path];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    ExecCommand::new("python3", all)
}

/// A fresh, empty store of `kind`; `None` for postgres without a server.
async fn fresh(
    kind: &str,
    dir: &tempfile::TempDir,
    n: usize,
    pg: Option<&PostgresFactory>,
) -> Option<Box<dyn MemoryProvider>> {
    let file = dir.path().join(format!("{kind}-{n}.db"));
    Some(match kind {
        "reference" => Box::new(ReferenceDriver::new()),
        "semantic-reference" => Box::new(SemanticReferenceDriver::new()),
        "sqlite-memory" => Box::new(SqliteDriver::open_in_memory().unwrap()),
        "sqlite-file" => Box::new(SqliteDriver::open(&file).unwrap()),
        "python-memory" => Box::new(
            ExecDriver::spawn(&python("memory_driver.py", &[]), ExecConfig::default())
                .await
                .unwrap(),
        ),
        "python-sqlite" => Box::new(
            ExecDriver::spawn(
                &python("sqlite_driver.py", &[file.to_str().unwrap()]),
                ExecConfig::default(),
            )
            .await
            .unwrap(),
        ),
        "postgres" => {
            let d = pg?.scratch();
            d.ensure_schema().await.unwrap();
            Box::new(d)
        }
        other => unreachable!("{other}"),
    })
}

/// The hostile store: every hostile text as a key and as a content, in
/// tricky namespaces, both taints, custom categories, sessions, and the
/// big content.
async fn fill(d: &dyn MemoryProvider) {
    let categories = [
        MemoryCategory::Core,
        MemoryCategory::Daily,
        MemoryCategory::Conversation,
        MemoryCategory::Custom("tool output".into()),
        MemoryCategory::Custom(String::new()),
        MemoryCategory::Custom("core".into()),
    ];
    let sessions = [None, Some("s1"), Some(""), Some("🦀 \0 session")];
    for (i, (_, text)) in HOSTILE_TEXT.iter().enumerate() {
        let ns = TRICKY_VALID_NAMESPACES[i % TRICKY_VALID_NAMESPACES.len()];
        let taint = if i % 2 == 0 {
            MemoryTaint::Internal
        } else {
            MemoryTaint::ExternalSync
        };
        d.store(
            ns,
            text,
            HOSTILE_TEXT[(i + 1) % HOSTILE_TEXT.len()].1,
            categories[i % categories.len()].clone(),
            sessions[i % sessions.len()],
            taint,
        )
        .await
        .unwrap_or_else(|e| panic!("{}: store {ns} {text:?}: {e}", d.driver_id()));
    }
    d.store(
        "global",
        "big",
        &big_content(),
        MemoryCategory::Custom("big".into()),
        Some("s1"),
        MemoryTaint::ExternalSync,
    )
    .await
    .unwrap();
}

/// `list(None, ..)` as records (no `id`), and `namespaces()` sorted.
async fn contents(d: &dyn MemoryProvider) -> (Vec<MemoryRecord>, Vec<NamespaceSummary>) {
    let records = d
        .list(None, None, None)
        .await
        .unwrap()
        .into_iter()
        .map(|e| MemoryRecord::from_entry(e).expect("a namespace"))
        .collect();
    let mut ns = d.namespaces().await.unwrap();
    ns.sort_by(|a, b| a.namespace.cmp(&b.namespace));
    (records, ns)
}

/// The first problem a migration met.
#[derive(Debug)]
enum Problem {
    Export(tinymemory_api::MemoryError),
    Import(tinymemory_api::MemoryError),
    /// The import refused a record: its namespace, key and why.
    Refused(String),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Export(e) => write!(f, "export: {e}"),
            Self::Import(e) => write!(f, "import: {e}"),
            Self::Refused(why) => write!(f, "import refused {why}"),
        }
    }
}

/// Exports `from` in pages and imports each into `to`; the first problem.
async fn migrate(from: &dyn MemoryProvider, to: &dyn MemoryProvider) -> Result<(), Problem> {
    let mut cursor = None;
    loop {
        let page = from
            .export_page(cursor.as_ref(), PAGE)
            .await
            .map_err(Problem::Export)?;
        let outcome = to.import(&page.records).await.map_err(Problem::Import)?;
        if let Some(f) = outcome.failures.first() {
            return Err(Problem::Refused(format!(
                "{} {:?}: {}",
                f.namespace, f.key, f.error
            )));
        }
        match page.next_cursor {
            None => return Ok(()),
            next => cursor = next,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_driver_imports_every_drivers_export_byte_for_byte() {
    let pg = postgres();
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    let mut passed = Vec::new();
    let mut failed = Vec::new();
    for from_kind in KINDS {
        n += 1;
        let Some(source) = fresh(from_kind, &dir, n, pg.as_ref()).await else {
            continue;
        };
        fill(source.as_ref()).await;
        let expected = contents(source.as_ref()).await;
        assert_eq!(expected.0.len(), HOSTILE_TEXT.len() + 1, "{from_kind}");
        for to_kind in KINDS {
            n += 1;
            let Some(target) = fresh(to_kind, &dir, n, pg.as_ref()).await else {
                continue;
            };
            let pair = format!("{from_kind} -> {to_kind}");
            match migrate(source.as_ref(), target.as_ref()).await {
                Err(e) => failed.push(format!("{pair}: {e}")),
                Ok(()) => {
                    let got = contents(target.as_ref()).await;
                    if got == expected {
                        passed.push(pair);
                    } else {
                        let first = expected
                            .0
                            .iter()
                            .zip(&got.0)
                            .find(|(a, b)| a != b)
                            .map(|(a, b)| format!("{a:?} became {b:?}"))
                            .unwrap_or_else(|| {
                                format!("{} records became {}", expected.0.len(), got.0.len())
                            });
                        failed.push(format!("{pair}: differs: {first:.300}"));
                    }
                }
            }
        }
    }
    if let Some(pg) = &pg {
        pg.cleanup().await.unwrap();
    }
    eprintln!("{} pairs passed: {}", passed.len(), passed.join(", "));
    assert_eq!(
        failed,
        Vec::<String>::new(),
        "{} pairs passed",
        passed.len()
    );
    let kinds = if pg.is_some() {
        KINDS.len()
    } else {
        KINDS.len() - 1
    };
    assert_eq!(passed.len(), kinds * kinds);
}
