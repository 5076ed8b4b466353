//! `sqlite` and `sqlite:PATH`: the embedded default driver
//! (`tinymemory_sqlite`). Every check and property case gets a fresh
//! in-memory database (`crate::scratch` says why); `sqlite` alone keeps
//! the corpus store in a temporary file, and a path names the corpus
//! store, which then outlives the run.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_conformance::FnFactory;
use tinymemory_exec::ExecConfig;
use tinymemory_sqlite::SqliteDriver;

use super::kind::{DriverKind, Named, Owned, Registration, Sample, Spelling};
use super::{CorpusStore, DriverSpec, Opened, SpecError};
use crate::error::CliError;
use crate::identity::SQLITE_COMPANIONS;
use crate::migrate::open::{End, Store};

pub(super) const KIND: Registration = Registration {
    spellings: &[
        Spelling {
            form: "sqlite",
            meaning: "the embedded SQLite driver: a fresh in-memory database per check, and a temporary file for the corpus",
        },
        Spelling {
            form: "sqlite:PATH",
            meaning: "as `sqlite`, but the corpus store is the file PATH, kept after the run; `sqlite::memory:` keeps it in memory",
        },
    ],
    parse,
    parse_os,
    samples: &[
        // A temporary file, and a database in memory: no file of the
        // user's.
        Sample {
            spec: "sqlite",
            owns: &[],
        },
        Sample {
            spec: "sqlite::memory:",
            owns: &[],
        },
        Sample {
            spec: "sqlite:data/u.db",
            owns: &[("data/u.db", Named::Store)],
        },
    ],
};

/// The name SQLite gives a private database, which `SqliteDriver::open`
/// opens in memory: no file is the store's.
const IN_MEMORY: &str = ":memory:";

/// A `sqlite` spec: `None` runs on temporary files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sqlite(pub(crate) Option<PathBuf>);

/// Why a `sqlite:` spec is refused.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("sqlite:PATH needs a path after the colon")]
    NoPath,
    /// SQLite opens `file:` names as URIs (`file:u.db` is `u.db`), so the
    /// file a URI names could pass every check of the outputs against the
    /// store: a path is asked for instead.
    #[error(
        "sqlite:{uri}: a SQLite URI is not taken here (SQLite would open the file it \
         names, which the run could not tell from its outputs); name the file itself, \
         sqlite:{file}"
    )]
    Uri { uri: String, file: String },
}

fn parse(s: &str) -> Option<Result<DriverSpec, SpecError>> {
    if s == "sqlite" {
        return Some(Ok(DriverSpec::new(Sqlite(None))));
    }
    let path = s.strip_prefix("sqlite:")?;
    Some(if path.is_empty() {
        Err(SpecError::kind(Refused::NoPath))
    } else if path.starts_with("file:") {
        Err(SpecError::kind(Refused::Uri {
            uri: path.to_owned(),
            file: path
                .trim_start_matches("file:")
                .split('?')
                .next()
                .unwrap_or_default()
                .to_owned(),
        }))
    } else {
        Ok(DriverSpec::new(Sqlite(Some(PathBuf::from(path)))))
    })
}

/// A `sqlite:PATH` whose path is not UTF-8, taken as it is (on Unix).
fn parse_os(raw: &OsStr) -> Option<DriverSpec> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let path = raw.as_bytes().strip_prefix(b"sqlite:")?;
        (!path.is_empty() && !path.starts_with(b"file:"))
            .then(|| DriverSpec::new(Sqlite(Some(PathBuf::from(OsStr::from_bytes(path))))))
    }
    #[cfg(not(unix))]
    {
        let _ = raw;
        None
    }
}

impl Sqlite {
    /// The file of the store, unless it is in memory or temporary.
    fn file(&self) -> Option<&Path> {
        self.0.as_deref().filter(|p| p.as_os_str() != IN_MEMORY)
    }
}

#[async_trait::async_trait]
impl DriverKind for Sqlite {
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("sqlite"),
            Some(path) => write!(f, "sqlite:{}", path.display()),
        }
    }

    fn version(&self) -> String {
        format!("tinymemory-sqlite {}", env!("CARGO_PKG_VERSION"))
    }

    fn open(&self, _spec: &DriverSpec, _exec: ExecConfig) -> Result<Opened, MemoryError> {
        let scratch = tempfile::Builder::new()
            .prefix("tinymemory-conformance-")
            .tempdir_in(crate::scratch::root())
            .map_err(|e| MemoryError::backend("failed to create a temporary directory", e))?;
        crate::cleanup::remove_on_signal(scratch.path().to_owned());
        let corpus_path = self
            .0
            .clone()
            .unwrap_or_else(|| scratch.path().join("corpus.db"));
        let factory = FnFactory::new("sqlite", || {
            Ok(Box::new(SqliteDriver::open_in_memory()?) as Box<dyn MemoryProvider>)
        });
        let description = format!("sqlite (corpus store {})", corpus_path.display());
        Ok(Opened {
            factory: Arc::new(factory),
            description,
            corpus_store: CorpusStore::later(move || async move {
                let store = SqliteDriver::open(&corpus_path)?;
                Ok(Box::new(store) as Box<dyn MemoryProvider>)
            }),
            without_corpus: Some("sqlite (a fresh in-memory database per check)".to_owned()),
            _scratch: Some(scratch),
        })
    }

    /// The file. As a source it must exist and is opened read-only
    /// ([`SqliteDriver::open_read_only`]: never created, migrated or
    /// switched to WAL; an empty file, another program's database and a
    /// version-1 file are refused). `sqlite` alone, a temporary file, is
    /// refused; `sqlite::memory:` is in memory, as `reference` is.
    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError> {
        let flag = end.flag();
        let Some(path) = &self.0 else {
            return Err(CliError::Usage(format!(
                "{flag} sqlite names a temporary file, which holds nothing before migrate and \
                 nothing after it; name the file: {flag} sqlite:PATH"
            )));
        };
        let in_memory = self.file().is_none();
        if in_memory && end == End::Source {
            return Err(super::in_memory_source(end, spec));
        }
        if end == End::Source && !path.exists() {
            return Err(CliError::Setup(format!(
                "failed to open {flag} {spec}: {} does not exist (a source is never created)",
                path.display()
            )));
        }
        let provider = match end {
            End::Source => SqliteDriver::open_read_only(path),
            End::Target => SqliteDriver::open(path),
        }
        .map_err(|e| end.not_opened(spec, &e))?;
        Ok(Store {
            provider: Box::new(provider),
            in_memory,
        })
    }

    /// The file of `sqlite:PATH`, unless it is `:memory:`.
    fn owned_files(&self) -> Vec<Owned> {
        self.file()
            .map(|path| Owned {
                path: path.to_owned(),
                named: Named::Store,
                word: None,
            })
            .into_iter()
            .collect()
    }

    fn kept_store(&self) -> Option<&Path> {
        self.file()
    }

    /// Refuses a store named as another store's companion (`w.db-wal`
    /// beside `w.db`): SQLite deletes or replays that file when it opens
    /// `w.db`, so a store written there is lost.
    fn refuse_for_run(&self) -> Result<(), CliError> {
        let Some(path) = self.file() else {
            return Ok(());
        };
        let text = path.as_os_str().to_string_lossy();
        for suffix in SQLITE_COMPANIONS {
            if let Some(base) = text.strip_suffix(suffix) {
                if Path::new(base).is_file() {
                    return Err(CliError::Usage(format!(
                        "--driver sqlite:{text} names the {suffix} companion of the SQLite store \
                         {base}, which SQLite deletes or replays when it opens {base}; name \
                         another file"
                    )));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use tinymemory_api::{MemoryCategory, MemoryTaint};

    use super::*;

    /// The check stores are in memory: each fresh and empty, and none
    /// leaves a file in the run's scratch directory (which holds only the
    /// corpus store, once loaded).
    #[tokio::test]
    async fn check_stores_are_fresh_databases_in_memory() {
        let spec = DriverSpec::new(Sqlite(None));
        let opened = Sqlite(None)
            .open(&spec, ExecConfig::default())
            .unwrap();
        let scratch = opened._scratch.as_ref().unwrap().path().to_owned();
        let first = opened.factory.open().await.unwrap();
        first
            .store(
                "global",
                "k",
                "text",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap();
        let second = opened.factory.open().await.unwrap();
        assert_eq!(second.get("global", "k").await.unwrap(), None);
        assert_eq!(first.get("global", "k").await.unwrap().unwrap().content, "text");
        let files: Vec<_> = std::fs::read_dir(&scratch)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(files, Vec::<std::ffi::OsString>::new());
    }
}
