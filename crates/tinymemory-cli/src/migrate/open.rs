//! Opening a `--from` or `--to` driver as the store it already is: never
//! reset, never emptied, never a scratch schema. What that means for each
//! kind is its [`crate::driver::DriverKind::open_existing`].

use tinymemory_api::MemoryProvider;

use crate::driver::DriverSpec;
use crate::error::CliError;

/// Which end of the migration a store is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// `--from`: read only.
    Source,
    /// `--to`.
    Target,
}

impl End {
    pub(crate) fn flag(self) -> &'static str {
        match self {
            Self::Source => "--from",
            Self::Target => "--to",
        }
    }

    /// The set-up error of `spec`, this end, failing to open with `e`.
    pub(crate) fn not_opened(self, spec: &DriverSpec, e: &dyn std::fmt::Display) -> CliError {
        CliError::Setup(format!("failed to open {} {spec}: {e}", self.flag()))
    }
}

/// An opened store.
pub(crate) struct Store {
    pub(crate) provider: Box<dyn MemoryProvider>,
    /// The store is in this process's memory: empty when opened and
    /// discarded when the command ends.
    pub(crate) in_memory: bool,
}

/// Opens `spec` for `end`, as its kind says
/// ([`crate::driver::DriverKind::open_existing`]):
///
/// - `sqlite:PATH`: the file; a source must exist and is opened
///   read-only. `sqlite` alone, a temporary file, is refused;
///   `sqlite::memory:` is in memory, as `reference` is.
/// - `postgres:URL`: the driver's tables in its default schema; a
///   source's must exist.
/// - `exec:COMMAND`: the process, after `hello`, without `reset`.
/// - a driver in memory (`reference`, `mutant:..`): refused as a
///   source, which would always be empty; allowed as a target, where a
///   migration is a dry run of the copy and its verification.
///
/// # Errors
///
/// A [`CliError::Usage`] for a spec that names no store for `end`; a
/// [`CliError::Setup`] with the driver's error.
pub(crate) async fn open(spec: &DriverSpec, end: End) -> Result<Store, CliError> {
    spec.open_existing(end).await
}
