//! The driver's private error type and its conversion to [`MemoryError`].
//!
//! Every fallible internal function returns [`Error`]; the public surface
//! converts once, at the edge, so the mapping below is the only place that
//! decides what a caller sees:
//!
//! | internal                                                        | [`MemoryError`]   |
//! |-----------------------------------------------------------------|-------------------|
//! | connection refused, reset or closed; connect or pool timeout    | `Unavailable`     |
//! | SQLSTATE class `08` (connection exception)                      | `Unavailable`     |
//! | `57P01`-`57P03` (server shutting down, terminated, starting up) | `Unavailable`     |
//! | `57014` (statement cancelled), `55P03` (lock not available)     | `Unavailable`     |
//! | `40001` / `40P01` (serialization failure, deadlock)             | `Unavailable`     |
//! | class `53` (out of connections, memory or disk)                 | `Unavailable`     |
//! | any other server error (permissions, missing database, …)       | `Backend`         |
//! | schema from a newer or unknown version; rows not UTF-8          | `Backend`         |
//!
//! `Unavailable` means a retry may succeed: a call that failed that way had
//! its connection discarded, and the next call opens a new one.

use std::error::Error as StdError;

use deadpool_postgres::PoolError;
use tinymemory_api::MemoryError;
use tokio_postgres::error::SqlState;

/// What went wrong inside the driver.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// The server refused or failed while the driver was doing `context`.
    #[error("postgres failed to {context}: {}", describe(source))]
    Postgres {
        /// What the driver was doing, as a verb phrase ("store an entry").
        context: &'static str,
        /// The tokio-postgres error.
        #[source]
        source: tokio_postgres::Error,
    },
    /// No connection could be had from the pool.
    #[error(
        "failed to get a postgres connection to {context}: {}",
        describe_pool(source)
    )]
    Pool {
        /// What the connection was for.
        context: &'static str,
        /// The pool's error.
        #[source]
        source: PoolError,
    },
    /// The schema was written by a newer version of this driver.
    #[error(
        "schema {schema:?} has tinymemory schema version {found}, newer than the newest this \
         driver supports ({supported}); refusing to use it rather than rewrite it"
    )]
    SchemaTooNew {
        /// The PostgreSQL schema.
        schema: String,
        /// The version recorded there.
        found: i64,
        /// [`crate::SCHEMA_VERSION`].
        supported: u32,
    },
    /// The schema's bookkeeping is not something this driver wrote.
    #[error("schema {schema:?} is not usable: {message}")]
    SchemaUnusable {
        /// The PostgreSQL schema.
        schema: String,
        /// What is wrong with it.
        message: String,
    },
    /// A stored row does not decode (a column that is not UTF-8): written by
    /// something other than this driver.
    #[error("failed to decode a stored entry: {0}")]
    Corrupt(String),
}

/// The pool's error with the server's reason: deadpool prints only "Error
/// occurred while creating a new object: db error" for a refused login or
/// a missing database.
fn describe_pool(e: &PoolError) -> String {
    match e {
        PoolError::Backend(e) => describe(e),
        other => other.to_string(),
    }
}

/// tokio-postgres prints only "db error" for a server error; the server's
/// own message and code are what a reader needs.
fn describe(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} ({}: {})", e, db.code().code(), db.message()),
        None => match e.source() {
            Some(cause) => format!("{e}: {cause}"),
            None => e.to_string(),
        },
    }
}

impl Error {
    /// `true` when a retry may succeed: see the table of the module docs.
    pub(crate) fn is_transient(&self) -> bool {
        match self {
            Self::Postgres { source, .. } => is_transient(source),
            Self::Pool { source, .. } => match source {
                PoolError::Timeout(_) | PoolError::Closed => true,
                PoolError::Backend(e) => is_transient(e),
                _ => false,
            },
            Self::SchemaTooNew { .. } | Self::SchemaUnusable { .. } | Self::Corrupt(_) => false,
        }
    }
}

impl Error {
    /// `true` when the connection itself is gone (closed socket, server
    /// shutting down or terminating the backend, connection exception):
    /// the connection must not be reused, and the pool's idle ones likely
    /// went with it.
    pub(crate) fn is_connection_lost(&self) -> bool {
        let Self::Postgres { source, .. } = self else {
            return false;
        };
        if source.is_closed() {
            return true;
        }
        match source.code() {
            Some(code) => {
                let c = code.code();
                c.starts_with("08") || c.starts_with("57P")
            }
            None => caused_by_io(source),
        }
    }
}

/// `true` when an `io::Error` is among the causes of `e`.
fn caused_by_io(e: &tokio_postgres::Error) -> bool {
    let mut cause = e.source();
    while let Some(c) = cause {
        if c.is::<std::io::Error>() {
            return true;
        }
        cause = c.source();
    }
    false
}

/// SQLSTATEs (other than class `08`, `53` and `57P`) that a retry may get
/// past.
const TRANSIENT_CODES: [SqlState; 5] = [
    SqlState::QUERY_CANCELED,
    SqlState::LOCK_NOT_AVAILABLE,
    SqlState::T_R_SERIALIZATION_FAILURE,
    SqlState::T_R_DEADLOCK_DETECTED,
    SqlState::CANNOT_CONNECT_NOW,
];

/// `true` for a SQLSTATE a retry may get past.
fn is_transient_code(code: &SqlState) -> bool {
    let c = code.code();
    c.starts_with("08")
        || c.starts_with("53")
        || c.starts_with("57P")
        || TRANSIENT_CODES.contains(code)
}

fn is_transient(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    if let Some(code) = e.code() {
        return is_transient_code(code);
    }
    // No server error: the socket failed (refused, reset, timed out).
    caused_by_io(e)
}

impl From<Error> for MemoryError {
    fn from(e: Error) -> Self {
        let message = e.to_string();
        if e.is_transient() {
            return Self::Unavailable {
                message,
                source: Some(Box::new(e)),
            };
        }
        match e {
            Error::Postgres { source, .. } => Self::backend(message, source),
            Error::Pool { source, .. } => Self::backend(message, source),
            Error::SchemaTooNew { .. } | Error::SchemaUnusable { .. } | Error::Corrupt(_) => {
                Self::fault(message)
            }
        }
    }
}

/// Attaches a context to a tokio-postgres result.
pub(crate) trait Context<T> {
    /// Wraps the error, if any, as [`Error::Postgres`] with `context`.
    fn context(self, context: &'static str) -> Result<T, Error>;
}

impl<T> Context<T> for Result<T, tokio_postgres::Error> {
    fn context(self, context: &'static str) -> Result<T, Error> {
        self.map_err(|source| Error::Postgres { context, source })
    }
}

#[cfg(test)]
mod tests {
    use deadpool_postgres::TimeoutType;

    use super::*;

    #[test]
    fn pool_timeouts_are_unavailable() {
        for t in [TimeoutType::Wait, TimeoutType::Create, TimeoutType::Recycle] {
            let e = MemoryError::from(Error::Pool {
                context: "test",
                source: PoolError::Timeout(t),
            });
            assert_eq!(e.kind(), "unavailable", "{t:?}");
        }
        let e = MemoryError::from(Error::Pool {
            context: "test",
            source: PoolError::NoRuntimeSpecified,
        });
        assert_eq!(e.kind(), "backend");
    }

    #[test]
    fn schema_faults_are_backend() {
        let e = MemoryError::from(Error::SchemaTooNew {
            schema: "tinymemory".into(),
            found: 9,
            supported: 1,
        });
        assert_eq!(
            e,
            MemoryError::fault(
                "schema \"tinymemory\" has tinymemory schema version 9, newer than the newest \
                 this driver supports (1); refusing to use it rather than rewrite it"
            )
        );
        assert_eq!(
            MemoryError::from(Error::Corrupt("x".into())).kind(),
            "backend"
        );
    }

    #[test]
    fn transient_codes_are_the_documented_ones() {
        for code in [
            SqlState::ADMIN_SHUTDOWN,
            SqlState::CRASH_SHUTDOWN,
            SqlState::CANNOT_CONNECT_NOW,
            SqlState::CONNECTION_FAILURE,
            SqlState::CONNECTION_EXCEPTION,
            SqlState::TOO_MANY_CONNECTIONS,
            SqlState::DISK_FULL,
            SqlState::QUERY_CANCELED,
            SqlState::LOCK_NOT_AVAILABLE,
            SqlState::T_R_SERIALIZATION_FAILURE,
            SqlState::T_R_DEADLOCK_DETECTED,
        ] {
            assert!(is_transient_code(&code), "{}", code.code());
        }
        for code in [
            SqlState::INSUFFICIENT_PRIVILEGE,
            SqlState::UNDEFINED_TABLE,
            SqlState::INVALID_PASSWORD,
            SqlState::INVALID_CATALOG_NAME,
            SqlState::UNIQUE_VIOLATION,
            SqlState::PROGRAM_LIMIT_EXCEEDED,
        ] {
            assert!(!is_transient_code(&code), "{}", code.code());
        }
    }
}
