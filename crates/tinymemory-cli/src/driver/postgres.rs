//! `postgres:URL`: a PostgreSQL server (`tinymemory_postgres`), the URL as
//! libpq reads it, checked when parsed. Every check, and the corpus, gets
//! a scratch schema of its own, dropped at the end of the run; `migrate`
//! uses the driver's default schema.

use std::fmt;
use std::sync::Arc;

use tinymemory_api::MemoryError;
use tinymemory_exec::ExecConfig;
use tinymemory_postgres::{PostgresConfig, PostgresDriver, PostgresFactory};

use super::kind::{text_only, DriverKind, Registration, Sample, Spelling};
use super::{CorpusStore, DriverSpec, Opened, SpecError};
use crate::error::CliError;
use crate::migrate::open::{End, Store};

pub(super) const KIND: Registration = Registration {
    spellings: &[Spelling {
        form: "postgres:URL",
        meaning: "the PostgreSQL driver on the server of URL: a fresh schema per check, dropped at the end",
    }],
    parse,
    parse_os: text_only,
    // A server: no file; its schemas are compared by identity.
    samples: &[Sample {
        spec: "postgres:postgres://ann:s3cret@h/db",
        owns: &[],
    }],
};

/// A `postgres:URL` spec; the URL as given, password included (never
/// shown: [`DriverKind::spelling`] redacts it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Postgres(pub(crate) String);

/// Why a `postgres:` spec is refused.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error(
        "postgres:URL needs a connection URL after the colon, such as \
         postgres:postgres://user@127.0.0.1:5432/db"
    )]
    NoUrl,
    #[error(
        "{0:?} is a connection URL without the driver name: the form is postgres:URL, \
         so pass --driver postgres:{0}"
    )]
    NoDriverName(String),
    /// The driver's own error, which never shows the password.
    #[error(transparent)]
    Url(MemoryError),
}

fn parse(s: &str) -> Option<Result<DriverSpec, SpecError>> {
    let (kind, url) = s.split_once(':')?;
    let refused = |r| Some(Err(SpecError::kind(r)));
    match kind {
        "postgres" if url.is_empty() => refused(Refused::NoUrl),
        "postgres" | "postgresql" if url.starts_with("//") => {
            refused(Refused::NoDriverName(s.to_owned()))
        }
        "postgres" => Some(
            PostgresConfig::from_url(url)
                .map(|_| DriverSpec::new(Postgres(url.to_owned())))
                .map_err(|e| SpecError::kind(Refused::Url(e))),
        ),
        _ => None,
    }
}

#[async_trait::async_trait]
impl DriverKind for Postgres {
    /// Never the password: reports and logs show this.
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match PostgresConfig::from_url(&self.0) {
            Ok(config) => write!(f, "postgres:{}", config.redacted_url()),
            Err(_) => f.write_str("postgres:(unreadable URL)"),
        }
    }

    fn version(&self) -> String {
        format!("tinymemory-postgres {}", env!("CARGO_PKG_VERSION"))
    }

    fn open(&self, _spec: &DriverSpec, _exec: ExecConfig) -> Result<Opened, MemoryError> {
        // No I/O yet: the schemas are created by their first calls, so an
        // unreachable server fails the corpus load (or each check). The
        // corpus store is a scratch schema too, so a run never touches the
        // server's other schemas; all of them are dropped when the factory
        // is, at the end of the run.
        let config = PostgresConfig::from_url(&self.0)?;
        let factory = PostgresFactory::new(&config)?;
        let corpus_store = CorpusStore::Ready(Box::new(factory.scratch()));
        let description = format!(
            "postgres {} (scratch schemas {}_*, dropped at the end of the run)",
            factory.server(),
            factory.prefix()
        );
        Ok(Opened {
            factory: Arc::new(factory),
            corpus_store,
            description,
            without_corpus: None,
            _scratch: None,
        })
    }

    /// The driver's tables in its default schema (`tinymemory`). A
    /// target's are created when missing; a source's must exist
    /// ([`PostgresDriver::connect_existing`]), so a mistyped server or
    /// database is refused rather than migrated from as an empty store.
    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError> {
        let setup = |e: MemoryError| end.not_opened(spec, &e);
        let config = PostgresConfig::from_url(&self.0).map_err(setup)?;
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

    /// [`PostgresDriver::store_identity`]: system identifier, database and
    /// schema, whatever the URL's spelling (`127.0.0.1` and `localhost`,
    /// extra parameters).
    async fn store_identity(&self, flag: &'static str) -> Result<Option<String>, CliError> {
        // Named by its spelling, never by the URL as given: the URL may
        // hold a password, and this message reaches the terminal and CI
        // logs.
        let spelling = DriverSpec::new(self.clone());
        let failed = |e: MemoryError| CliError::Setup(format!("failed to open {flag} {spelling}: {e}"));
        let config = PostgresConfig::from_url(&self.0).map_err(failed)?;
        PostgresDriver::connect_lazy(&config)
            .map_err(failed)?
            .store_identity()
            .await
            .map(|id| Some(id.to_string()))
            .map_err(failed)
    }
}
