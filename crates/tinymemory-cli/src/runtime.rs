//! The async runtime every command that runs checks uses.

use crate::error::CliError;

/// A two-worker runtime with time enabled (the per-check timeout needs
/// it) and I/O (the PostgreSQL driver's sockets).
///
/// # Errors
///
/// [`CliError::Runtime`] saying why it could not start.
pub(crate) fn build() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .enable_io()
        .build()
        .map_err(CliError::Runtime)
}
