//! What the CLI needs of a driver kind, in one trait, so that everything
//! a kind means to `run`, `replay` and `migrate` (how it opens, what it
//! reports as its version, which files it owns) is written in its own
//! module and nowhere else.

use std::any::Any;
use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

use tinymemory_api::MemoryError;
use tinymemory_exec::{ExecCommand, ExecConfig};

use super::{DriverSpec, Opened, SpecError};
use crate::error::CliError;
use crate::migrate::open::{End, Store};

/// One kind of `--driver` spec, parsed (`sqlite:u.db`, `exec:python3 d.py`).
///
/// [`DriverSpec`] holds one and forwards to it; a kind's module implements
/// this trait and a [`Registration`] for parsing, and `driver.rs` lists
/// the module in its `kinds!` line.
#[async_trait::async_trait]
pub(crate) trait DriverKind: fmt::Debug + Send + Sync + DynEq {
    /// The `--driver` spelling: parsing it gives an equal spec back. Shown
    /// in reports and logs, so never a secret (a PostgreSQL password).
    fn spelling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// The version reports record: the crate and version that implement
    /// the driver, as `tinymemory-sqlite 0.1.0`.
    fn version(&self) -> String;

    /// Opens the kind for a `run` or a `replay`: a factory of fresh, empty
    /// stores, one per check, and the corpus store, opened later. `spec`
    /// is the spec holding `self` (for the factory's driver id); an exec
    /// driver's processes run under `exec`.
    ///
    /// # Errors
    ///
    /// The driver's error: no directory for scratch files, an unreadable
    /// URL, a process that does not answer `hello`.
    fn open(&self, spec: &DriverSpec, exec: ExecConfig) -> Result<Opened, MemoryError>;

    /// Opens the kind for `migrate`, as the store it already is (never
    /// reset, never emptied, never a scratch schema), as the `end` named
    /// by `spec`.
    ///
    /// # Errors
    ///
    /// A usage error for a spec that names no store for `end`; a set-up
    /// error with the driver's error.
    async fn open_existing(&self, spec: &DriverSpec, end: End) -> Result<Store, CliError>;

    /// The files the driver reads or writes, which an output may never
    /// name and the other end of a migration may never be: each a SQLite
    /// store's worth (the file and its `-wal`, `-shm` and `-journal`
    /// companions, [`crate::identity::Claims::sqlite_store`]). Empty for a
    /// store in memory, a temporary file or a server.
    fn owned_files(&self) -> Vec<Owned> {
        Vec::new()
    }

    /// The file of a store that outlives the command and may already hold
    /// a user's entries (`sqlite:PATH`), which a run does not load the
    /// corpus into without `--overwrite`.
    fn kept_store(&self) -> Option<&Path> {
        None
    }

    /// The program the driver is, for a driver that is a process speaking
    /// the exec protocol: a run traces it, reruns its failures alone, and
    /// `replay` never runs one read from a bundle.
    fn command(&self) -> Option<&ExecCommand> {
        None
    }

    /// What a `run` refuses about the spec itself before anything is
    /// opened, beyond the files it owns.
    ///
    /// # Errors
    ///
    /// A usage error naming the rule broken.
    fn refuse_for_run(&self) -> Result<(), CliError> {
        Ok(())
    }

    /// The identity of the store the spec reaches, for a kind whose two
    /// spellings can reach one store that no file shows (two URLs of one
    /// PostgreSQL schema), asked of both ends of a migration of this kind;
    /// `None` when files say it ([`DriverKind::owned_files`]). `flag` is
    /// the end's (`--from`).
    ///
    /// # Errors
    ///
    /// A set-up error naming the end whose server could not be asked.
    async fn store_identity(&self, flag: &'static str) -> Result<Option<String>, CliError> {
        let _ = flag;
        Ok(None)
    }
}

/// How a driver kind is parsed and shown: the spellings it takes, with
/// what each means (for the `unknown driver` message, `--driver`'s help
/// and docs/cli.md's table of kinds), its parser, and sample specs with
/// the files each owns. A kind's module has one, `KIND`.
pub(crate) struct Registration {
    /// Its spellings in the order `unknown driver` lists them: `sqlite`,
    /// `sqlite:PATH`.
    pub(crate) spellings: &'static [Spelling],
    /// The spec of `text`, or why `text` is not one; `None` when `text` is
    /// not of this kind.
    pub(crate) parse: fn(text: &str) -> Option<Result<DriverSpec, SpecError>>,
    /// The spec of an argument that is not UTF-8, for a kind that takes a
    /// path as it is; `None` when not of this kind.
    pub(crate) parse_os: fn(raw: &OsStr) -> Option<DriverSpec>,
    /// Specs of the kind and the exact files each owns
    /// ([`DriverKind::owned_files`]), in that order: a test parses each
    /// and compares, and fails for a kind with none, so no kind's rule
    /// for the files an output may never name goes untested.
    // Read by the tests only; a field rather than a test of the module's
    // own so that registering a kind cannot leave it out.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) samples: &'static [Sample],
}

/// One spelling of a kind ([`Registration::spellings`]).
pub(crate) struct Spelling {
    /// As `unknown driver` lists it: `sqlite:PATH`, `exec:COMMAND`.
    pub(crate) form: &'static str,
    /// What a spec of this form runs against, a phrase that follows the
    /// form in `--driver`'s help and docs/cli.md's table: `a temporary
    /// SQLite file per check`.
    pub(crate) meaning: &'static str,
}

/// A sample spec and the files it owns ([`Registration::samples`]).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Sample {
    /// The spec as given to `--driver`.
    pub(crate) spec: &'static str,
    /// Its [`DriverKind::owned_files`]: each path as the spec names it,
    /// and why the driver owns it.
    pub(crate) owns: &'static [(&'static str, Named)],
}

/// [`Registration::parse_os`] of a kind whose spec is text only.
pub(crate) fn text_only(_raw: &OsStr) -> Option<DriverSpec> {
    None
}

/// A file a driver owns ([`DriverKind::owned_files`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Owned {
    /// As the spec names it, relative to the working directory.
    pub(crate) path: PathBuf,
    /// Why the driver owns it.
    pub(crate) named: Named,
    /// The word of the command line the path was read from, when the path
    /// is only a part of it (`my.db` of `--url=sqlite:///my.db`), for
    /// messages; `None` for a whole word or a store.
    pub(crate) word: Option<String>,
}

/// Why a driver owns a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    /// It is the driver's store (`sqlite:PATH`), which the driver writes
    /// whenever it runs.
    Store,
    /// A word of the driver's command line names it (`exec:python3 d.py
    /// my.db`): only the program knows what it does with it, so it is
    /// taken for a store the program reads, and writes when the command
    /// is a migration's target.
    Word,
}

/// Equality of kinds behind `dyn` ([`DriverSpec`]'s `PartialEq`): two
/// specs are equal when they are of one kind and equal as that kind.
pub(crate) trait DynEq {
    /// `self`, to be downcast by [`DynEq::dyn_eq`].
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is of `self`'s type and equal to it.
    fn dyn_eq(&self, other: &dyn Any) -> bool;
}

impl<T: PartialEq + 'static> DynEq for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn dyn_eq(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>().is_some_and(|o| self == o)
    }
}
