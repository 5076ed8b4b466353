//! The store a run loads the corpus into, opened only when it does: a run
//! that loads no corpus (`--no-corpus`, or no corpus check selected) never
//! creates the `sqlite:PATH` file nor starts a second exec process, and a
//! run refused before the load never resets a store.

use std::path::PathBuf;

use tinymemory_api::{MemoryError, MemoryProvider};
use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver};
use tinymemory_sqlite::SqliteDriver;

/// How to open the corpus store of a driver.
pub(crate) enum CorpusStore {
    /// A store in memory, or one whose opening does no I/O (a PostgreSQL
    /// scratch schema, created by its first call).
    Ready(Box<dyn MemoryProvider>),
    /// A process of its own, reset when it starts.
    Exec(ExecCommand, ExecConfig),
    /// The SQLite file at this path, created when missing.
    Sqlite(PathBuf),
}

impl CorpusStore {
    /// Opens the store.
    ///
    /// # Errors
    ///
    /// The driver's error: the process did not start or answer its
    /// `hello` and `reset`, or the SQLite file could not be opened.
    pub(crate) async fn open(self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        Ok(match self {
            Self::Ready(store) => store,
            Self::Exec(command, config) => Box::new(ExecDriver::spawn(&command, config).await?),
            Self::Sqlite(path) => Box::new(SqliteDriver::open(&path)?),
        })
    }
}
