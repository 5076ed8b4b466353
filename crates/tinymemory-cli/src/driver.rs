//! Which driver to run against, and fresh stores of it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_conformance::{DriverFactory, FnFactory};
use tinymemory_reference::ReferenceDriver;
use tinymemory_sqlite::SqliteDriver;

/// A `--driver` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DriverSpec {
    Reference,
    /// `None`: a temporary file.
    Sqlite(Option<PathBuf>),
}

impl DriverSpec {
    /// Parses `reference`, `sqlite` or `sqlite:PATH`.
    pub(crate) fn parse(s: &str) -> Result<Self, String> {
        match s.split_once(':') {
            None if s == "reference" => Ok(Self::Reference),
            None if s == "sqlite" => Ok(Self::Sqlite(None)),
            Some(("sqlite", "")) => Err("sqlite:PATH needs a path after the colon".into()),
            Some(("sqlite", path)) => Ok(Self::Sqlite(Some(PathBuf::from(path)))),
            _ => Err(format!(
                "unknown driver {s:?}; expected reference, sqlite or sqlite:PATH"
            )),
        }
    }
}

/// The fresh-store factory for the checks, the store the corpus goes into,
/// and a line describing them.
pub(crate) struct Opened {
    pub(crate) factory: Arc<dyn DriverFactory>,
    pub(crate) corpus_store: Box<dyn MemoryProvider>,
    pub(crate) description: String,
    /// Kept alive for the run: the temporary files live in it.
    _scratch: Option<tempfile::TempDir>,
}

pub(crate) fn open(spec: &DriverSpec) -> Result<Opened, MemoryError> {
    match spec {
        DriverSpec::Reference => Ok(Opened {
            factory: Arc::new(FnFactory::new("reference", || {
                Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
            })),
            corpus_store: Box::new(ReferenceDriver::new()),
            description: "reference (in memory)".to_owned(),
            _scratch: None,
        }),
        DriverSpec::Sqlite(path) => {
            let scratch = tempfile::Builder::new()
                .prefix("tinymemory-conformance-")
                .tempdir()
                .map_err(|e| MemoryError::backend("failed to create a temporary directory", e))?;
            let corpus_path = path
                .clone()
                .unwrap_or_else(|| scratch.path().join("corpus.db"));
            let corpus_store = SqliteDriver::open(&corpus_path)?;
            let dir = scratch.path().to_owned();
            let next = AtomicU64::new(0);
            let factory = FnFactory::new("sqlite", move || {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let store = SqliteDriver::open(dir.join(format!("check-{n}.db")))?;
                Ok(Box::new(store) as Box<dyn MemoryProvider>)
            });
            Ok(Opened {
                factory: Arc::new(factory),
                corpus_store: Box::new(corpus_store),
                description: format!("sqlite (corpus store {})", corpus_path.display()),
                _scratch: Some(scratch),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_specs_parse() {
        assert_eq!(DriverSpec::parse("reference"), Ok(DriverSpec::Reference));
        assert_eq!(DriverSpec::parse("sqlite"), Ok(DriverSpec::Sqlite(None)));
        assert_eq!(
            DriverSpec::parse("sqlite:/tmp/a:b.db"),
            Ok(DriverSpec::Sqlite(Some(PathBuf::from("/tmp/a:b.db"))))
        );
        assert!(DriverSpec::parse("sqlite:").is_err());
        assert_eq!(
            DriverSpec::parse("mongo"),
            Err("unknown driver \"mongo\"; expected reference, sqlite or sqlite:PATH".to_owned())
        );
    }
}
