//! The driver's private error type and its conversion to [`MemoryError`].
//!
//! Every fallible internal function returns [`Error`]; the public surface
//! converts once, at the edge, so the mapping below is the only place that
//! decides what a caller sees:
//!
//! | internal                                   | [`MemoryError`]                    |
//! |--------------------------------------------|------------------------------------|
//! | SQLite `SQLITE_BUSY` / `SQLITE_LOCKED`     | [`MemoryError::Unavailable`]       |
//! | any other SQLite error                     | [`MemoryError::Backend`]           |
//! | schema from a newer or unknown version     | [`MemoryError::Backend`]           |
//! | a blocking task that panicked or vanished  | [`MemoryError::Backend`]           |

use rusqlite::ErrorCode;
use tinymemory_api::MemoryError;

/// What went wrong inside the driver.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// SQLite refused or failed while the driver was doing `context`.
    #[error("sqlite failed to {context}: {source}")]
    Sqlite {
        /// What the driver was doing, as a verb phrase ("store an entry").
        context: &'static str,
        /// The SQLite error.
        #[source]
        source: rusqlite::Error,
    },
    /// The file was written by a newer schema than this driver knows.
    #[error(
        "database schema version {found} is newer than the newest this driver supports \
         ({supported}); refusing to open it rather than rewrite it"
    )]
    SchemaTooNew {
        /// The version recorded in the file.
        found: i64,
        /// [`crate::SCHEMA_VERSION`].
        supported: u32,
    },
    /// The file's schema bookkeeping is not something this driver wrote.
    #[error("database schema is not usable: {0}")]
    SchemaUnusable(String),
    /// The blocking task running the SQL panicked or was cancelled.
    #[error("sqlite worker task failed during {context}: {message}")]
    Task {
        /// The operation the task was running.
        context: &'static str,
        /// The join error's text.
        message: String,
    },
}

impl Error {
    /// `true` when SQLite stopped a statement because a budgeted read ran
    /// out of time (`SQLITE_INTERRUPT`, [`crate::budget`]).
    pub(crate) fn is_interrupted(&self) -> bool {
        match self {
            Self::Sqlite { source, .. } => matches!(
                source.sqlite_error_code(),
                Some(ErrorCode::OperationInterrupted)
            ),
            _ => false,
        }
    }

    /// `true` for lock contention that outlived the busy timeout
    /// (`SQLITE_BUSY`, `SQLITE_LOCKED` and their extended codes).
    pub(crate) fn is_contention(&self) -> bool {
        match self {
            Self::Sqlite { source, .. } => matches!(
                source.sqlite_error_code(),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            ),
            _ => false,
        }
    }
}

impl From<Error> for MemoryError {
    fn from(e: Error) -> Self {
        let message = e.to_string();
        if e.is_contention() {
            return Self::Unavailable {
                message,
                source: Some(Box::new(e)),
            };
        }
        match e {
            Error::Sqlite { source, .. } => Self::backend(message, source),
            Error::SchemaTooNew { .. } | Error::SchemaUnusable(_) | Error::Task { .. } => {
                Self::fault(message)
            }
        }
    }
}

/// Attaches a context to a `rusqlite` result.
pub(crate) trait Context<T> {
    /// Wraps the error, if any, as [`Error::Sqlite`] with `context`.
    fn context(self, context: &'static str) -> Result<T, Error>;
}

impl<T> Context<T> for rusqlite::Result<T> {
    fn context(self, context: &'static str) -> Result<T, Error> {
        self.map_err(|source| Error::Sqlite { context, source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite_error(code: i32) -> Error {
        Error::Sqlite {
            context: "test",
            source: rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None),
        }
    }

    #[test]
    fn busy_and_locked_are_unavailable() {
        for code in [
            rusqlite::ffi::SQLITE_BUSY,
            rusqlite::ffi::SQLITE_LOCKED,
            rusqlite::ffi::SQLITE_BUSY_SNAPSHOT,
            rusqlite::ffi::SQLITE_LOCKED_SHAREDCACHE,
        ] {
            let e = MemoryError::from(sqlite_error(code));
            assert_eq!(e.kind(), "unavailable", "code {code}");
        }
    }

    #[test]
    fn other_failures_are_backend() {
        for code in [rusqlite::ffi::SQLITE_CORRUPT, rusqlite::ffi::SQLITE_IOERR] {
            let e = MemoryError::from(sqlite_error(code));
            assert_eq!(e.kind(), "backend", "code {code}");
            assert!(std::error::Error::source(&e).is_some());
        }
        let e = MemoryError::from(Error::SchemaTooNew {
            found: 9,
            supported: 1,
        });
        assert_eq!(
            e,
            MemoryError::fault(
                "database schema version 9 is newer than the newest this driver supports (1); \
                 refusing to open it rather than rewrite it"
            )
        );
    }
}
