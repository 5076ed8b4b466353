//! The async runtime every command that runs checks uses.

use crate::exit;

/// A two-worker runtime with time enabled (the per-check timeout needs
/// it) and I/O (the PostgreSQL driver's sockets), or [`exit::SETUP`] after
/// saying why not.
pub(crate) fn build() -> Result<tokio::runtime::Runtime, u8> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .enable_io()
        .build()
        .map_err(|e| {
            eprintln!("error: failed to start the async runtime: {e}");
            exit::SETUP
        })
}
