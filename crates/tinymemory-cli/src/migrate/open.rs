//! Opening a `--from` or `--to` driver as the store it already is: never
//! reset, never emptied, never a scratch schema.

use tinymemory_api::MemoryProvider;
use tinymemory_exec::{ExecConfig, ExecDriver};
use tinymemory_postgres::{PostgresConfig, PostgresDriver};
use tinymemory_sqlite::SqliteDriver;

use crate::driver::{self, DriverSpec};

/// Which end of the migration a store is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// `--from`: read only.
    Source,
    /// `--to`.
    Target,
}

impl End {
    pub(crate) fn flag(self) -> &'static str {
        match self {
            Self::Source => "--from",
            Self::Target => "--to",
        }
    }
}

/// Why a store could not be opened.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// The spec cannot name a store for this end: a usage error.
    Usage(String),
    /// The driver failed to open: a set-up error.
    Setup(String),
}

/// An opened store.
pub(crate) struct Store {
    pub(crate) provider: Box<dyn MemoryProvider>,
    /// The store is in this process's memory: empty when opened and
    /// discarded when the command ends.
    pub(crate) in_memory: bool,
}

/// Opens `spec` for `end`.
///
/// - `sqlite:PATH`: the file. As a source it must exist and is opened
///   read-only ([`SqliteDriver::open_read_only`]: never created, migrated
///   or switched to WAL; an empty file, another program's database and a
///   version-1 file are refused). `sqlite` alone, a temporary file, is
///   refused; `sqlite::memory:` is in memory, as `reference` is.
/// - `postgres:URL`: the driver's tables in its default schema
///   (`tinymemory`). A target's are created when missing; a source's must
///   exist ([`PostgresDriver::connect_existing`]), so a mistyped server or
///   database is refused rather than migrated from as an empty store.
/// - `exec:COMMAND`: the process, after `hello`, without `reset`.
/// - `reference`, `semantic`, `null`, `mutant:..`: in memory. Refused as a
///   source, which would always be empty; allowed as a target, where a
///   migration is a dry run of the copy and its verification.
///
/// # Errors
///
/// [`OpenError::Usage`] for a spec that names no store for `end`;
/// [`OpenError::Setup`] with the driver's error.
pub(crate) async fn open(spec: &DriverSpec, end: End) -> Result<Store, OpenError> {
    let flag = end.flag();
    let setup = |e: tinymemory_api::MemoryError| {
        OpenError::Setup(format!("failed to open {flag} {spec}: {e}"))
    };
    match spec {
        DriverSpec::Sqlite(None) => Err(OpenError::Usage(format!(
            "{flag} sqlite names a temporary file, which holds nothing before migrate and \
             nothing after it; name the file: {flag} sqlite:PATH"
        ))),
        DriverSpec::Sqlite(Some(path)) => {
            // The names SQLite gives a private database: `SqliteDriver::open`
            // opens them in memory.
            let in_memory = path.as_os_str() == ":memory:";
            if in_memory && end == End::Source {
                return Err(in_memory_source(flag, spec));
            }
            if end == End::Source && !path.exists() {
                return Err(OpenError::Setup(format!(
                    "failed to open {flag} {spec}: {} does not exist (a source is never created)",
                    path.display()
                )));
            }
            let provider = match end {
                End::Source => SqliteDriver::open_read_only(path),
                End::Target => SqliteDriver::open(path),
            }
            .map_err(setup)?;
            Ok(Store {
                provider: Box::new(provider),
                in_memory,
            })
        }
        DriverSpec::Postgres(url) => {
            let config = PostgresConfig::from_url(url).map_err(setup)?;
            let provider = match end {
                End::Source => PostgresDriver::connect_existing(&config).await,
                End::Target => PostgresDriver::connect_with(&config).await,
            }
            .map_err(setup)?;
            Ok(Store {
                provider: Box::new(provider),
                in_memory: false,
            })
        }
        DriverSpec::Exec(command) => {
            let provider = ExecDriver::attach(command, ExecConfig::default())
                .await
                .map_err(setup)?;
            Ok(Store {
                provider: Box::new(provider),
                in_memory: false,
            })
        }
        DriverSpec::Reference | DriverSpec::Semantic | DriverSpec::Null | DriverSpec::Mutant(_) => {
            if end == End::Source {
                return Err(in_memory_source(flag, spec));
            }
            let opened = driver::open(spec).map_err(setup)?;
            Ok(Store {
                provider: opened.corpus_store.open().await.map_err(setup)?,
                in_memory: true,
            })
        }
    }
}

fn in_memory_source(flag: &str, spec: &DriverSpec) -> OpenError {
    OpenError::Usage(format!(
        "{flag} {spec} is a store in memory, empty when migrate starts: \
         migrate from a store that holds entries (sqlite:PATH, postgres:URL, exec:COMMAND)"
    ))
}
