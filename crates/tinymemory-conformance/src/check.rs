//! What a check is, and what running one gives.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::{DriverFactory, LoadedCorpus};

/// The future a check's body returns.
pub type CheckFuture = Pin<Box<dyn Future<Output = Outcome> + Send + 'static>>;

/// Which part of the contract a check covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// One sentence of the `MemoryProvider` contract (SPEC section 1).
    Contract,
    /// The section API over the driver (SPEC section 3).
    Sections,
    /// The real corpus loaded into the driver; skipped without one.
    Corpus,
}

impl Family {
    /// The lowercase name used in ids and reports: `contract`, `sections`,
    /// `corpus`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Contract => "contract",
            Self::Sections => "sections",
            Self::Corpus => "corpus",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of running one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The driver did what the check asks.
    Pass,
    /// It did not; the message says what was expected and what happened.
    Fail(String),
    /// The check could not run here; the message says why.
    Skip(String),
}

impl Outcome {
    /// `pass`, `fail` or `skip`.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail(_) => "fail",
            Self::Skip(_) => "skip",
        }
    }

    /// `true` for [`Outcome::Fail`].
    #[must_use]
    pub fn is_fail(&self) -> bool {
        matches!(self, Self::Fail(_))
    }
}

/// What a check is given: the factory for fresh drivers and, when the run
/// loaded one, the corpus store.
#[derive(Clone)]
pub struct CheckContext {
    /// Opens a fresh, empty driver.
    pub factory: Arc<dyn DriverFactory>,
    /// The driver holding the loaded corpus, for the corpus checks.
    pub corpus: Option<Arc<LoadedCorpus>>,
}

/// One named check.
#[derive(Clone, Copy)]
pub struct Check {
    /// Stable id, `<area>.<rule>`, for example `recall.none_means_global`.
    pub id: &'static str,
    /// The family it belongs to.
    pub family: Family,
    /// One line: what the driver must do.
    pub description: &'static str,
    /// The body.
    pub run: fn(CheckContext) -> CheckFuture,
}

impl fmt::Debug for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Check")
            .field("id", &self.id)
            .field("family", &self.family)
            .finish_non_exhaustive()
    }
}
