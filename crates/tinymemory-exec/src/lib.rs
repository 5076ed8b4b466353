//! Validate a memory driver written in any language.
//!
//! The suite starts the driver as a child process and talks to it over its
//! stdin and stdout, one JSON object per line: a request per contract method
//! (`store`, `get`, `forget`, `list`, `namespaces`, `recall`, and the
//! optional `store_many`, `export_page` and `import` when the driver lists
//! them), plus `hello` (protocol version, driver id and, optionally, the
//! driver's [`RecallProfile`](tinymemory_api::RecallProfile) and its
//! optional ops) when the process starts
//! and `reset` (an empty store) before every check. A driver answers each request with one
//! line, `{"id":…,"result":…}` or `{"id":…,"error":{"kind":…,"rule":…,"message":…}}`,
//! where the error kinds are those of [`tinymemory_api::MemoryError`]. The
//! [`protocol`] module holds the message types; `docs/protocol.md` is the
//! specification and `fixtures/protocol/` a JSON Schema for every message.
//!
//! - [`ExecDriver`] is a [`MemoryProvider`](tinymemory_api::MemoryProvider)
//!   over one process.
//! - [`ExecFactory`] is a
//!   [`DriverFactory`](tinymemory_api::DriverFactory) for the
//!   conformance runner: each store gets a process to itself, reused (after
//!   a `reset`) once the store is dropped, and replaced by a new one after
//!   it dies, hangs or garbles its output. Its
//!   [`recall_profile`](ExecFactory::recall_profile) is the one the driver
//!   declared (`lexical` when it declared none), so the runner applies the
//!   checks of that profile.
//!
//! ```
//! use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
//! use tinymemory_exec::{ExecCommand, ExecConfig, ExecDriver};
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/python/memory_driver.py");
//! let driver = ExecDriver::spawn(&ExecCommand::new("python3", [script]), ExecConfig::default()).await?;
//! assert_eq!(driver.driver_id(), "python-memory");
//! driver
//!     .store("global", "k1", "async fn returns a future", MemoryCategory::Core, None, MemoryTaint::Internal)
//!     .await?;
//! let hits = driver.recall("future", 10, &RecallOptions::default()).await?;
//! assert_eq!(hits[0].key, "k1");
//! let bad = driver.get("has space", "k1").await.unwrap_err();
//! assert_eq!(bad.rule(), Some(tinymemory_api::rules::NAMESPACE_CHARSET));
//! # Ok::<(), tinymemory_api::MemoryError>(())
//! # }).unwrap();
//! ```
//!
//! # Failures of the process
//!
//! | the process… | the request fails with | and then |
//! |---|---|---|
//! | answers after the request timeout ([`ExecConfig::request_timeout`]) | `Unavailable`, naming the timeout | it is stopped |
//! | exits, or closes its stdout | `Backend`, with the exit status | it is gone |
//! | prints a line that is not JSON, or answers another request's id | `Backend`, quoting the line (first 200 characters) | it is stopped |
//! | answers with a malformed result or error | `Backend`, saying what is wrong | it keeps running |
//! | answers `hello` with another protocol version | `Backend` from [`ExecFactory::connect`] | it is stopped |
//! | answers `hello` with a `recall_profile` other than `lexical` or `semantic` | `Backend` from [`ExecFactory::connect`], naming the value | it is stopped |
//! | answers `hello` with `ops` holding an unknown or repeated name, or not an array | `Backend` from [`ExecFactory::connect`], naming the value | it is stopped |
//!
//! Every error that stops the process quotes the last lines of its stderr
//! (which is captured, never shown directly); an error answer of kind
//! `backend` or `unavailable` also gets the stderr lines written while the
//! request ran, as far as they have arrived. A stopped process fails every
//! later request on it; [`ExecFactory`] starts a new one for the next store.
//!
//! Each process is served by a thread with its own current-thread tokio
//! runtime, so callers need no particular runtime: the CLI's, which has
//! time but no I/O driver, works, and the `*_blocking` constructors work
//! outside any.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod batch;
mod command;
mod config;
mod decode;
mod driver;
mod factory;
mod group;
mod pool;
mod process;
pub mod protocol;
pub mod trace;

pub use command::{CommandLineError, ExecCommand};
pub use config::{
    ExecConfig, DEFAULT_BATCH_BYTES, DEFAULT_REQUEST_TIMEOUT, DEFAULT_STDERR_LINES, MAX_LINE_BYTES,
};
pub use driver::ExecDriver;
pub use factory::ExecFactory;
pub use group::{kill_all, refuse_new_processes, running, shutdown, terminate_all};

/// How long a driver process gets to exit after its stdin is closed at the
/// end of its store, before its process group gets `SIGTERM`
/// (docs/protocol.md, "Ending a driver").
pub const EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// How long a driver's process group gets after `SIGTERM` before it gets
/// `SIGKILL` (docs/protocol.md, "Ending a driver").
pub const TERM_GRACE: std::time::Duration = std::time::Duration::from_secs(2);
