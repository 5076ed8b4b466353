//! The store a run loads the corpus into, opened only when it does: a run
//! that loads no corpus (`--no-corpus`, or no corpus check selected) never
//! creates the `sqlite:PATH` file nor starts a second exec process, and a
//! run refused before the load never resets a store.

use std::future::Future;
use std::pin::Pin;

use tinymemory_api::{MemoryError, MemoryProvider};

/// What opens a corpus store later: a process to start, a file to create.
type Opening = Box<
    dyn FnOnce()
            -> Pin<Box<dyn Future<Output = Result<Box<dyn MemoryProvider>, MemoryError>> + Send>>
        + Send,
>;

/// How to open the corpus store of a driver.
pub(crate) enum CorpusStore {
    /// A store in memory, or one whose opening does no I/O (a PostgreSQL
    /// scratch schema, created by its first call).
    Ready(Box<dyn MemoryProvider>),
    /// A store whose opening does I/O (an exec process of its own, reset
    /// when it starts; a SQLite file, created when missing), opened when
    /// the corpus is loaded.
    Later(Opening),
}

impl CorpusStore {
    /// A store `open` opens when the corpus is loaded.
    pub(crate) fn later<F>(open: impl FnOnce() -> F + Send + 'static) -> Self
    where
        F: Future<Output = Result<Box<dyn MemoryProvider>, MemoryError>> + Send + 'static,
    {
        Self::Later(Box::new(move || Box::pin(open())))
    }

    /// Opens the store.
    ///
    /// # Errors
    ///
    /// The driver's error: the process did not start or answer its
    /// `hello` and `reset`, or the SQLite file could not be opened.
    pub(crate) async fn open(self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        match self {
            Self::Ready(store) => Ok(store),
            Self::Later(open) => open().await,
        }
    }
}
