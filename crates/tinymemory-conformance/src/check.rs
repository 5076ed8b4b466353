//! What a check is, and what running one gives.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tinymemory_api::{MemoryError, MemoryProvider, RecallProfile};

use crate::{DriverFactory, LoadedCorpus};

/// The future a check's body returns.
pub type CheckFuture = Pin<Box<dyn Future<Output = Outcome> + Send + 'static>>;

/// Which part of the contract a check covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// One sentence of the `MemoryProvider` contract (docs/design.md, "The contract").
    Contract,
    /// The section API over the driver (docs/design.md, "The section API").
    Sections,
    /// The portability family: export in pages with a cursor, and import
    /// (`tinymemory_api::portability`); skipped when the driver does not
    /// provide it.
    Portability,
    /// A framework interface's own contract (LangChain's `VectorStore`,
    /// LangGraph's `BaseStore`), run by the adapter that serves it
    /// ([`MemoryProvider::interface`]); a check of an interface the driver
    /// does not declare is skipped, and such skips leave the family's
    /// status to the checks that ran ([`Family::needs_interface`]).
    Interface,
    /// The real corpus loaded into the driver; skipped without one.
    Corpus,
    /// Randomised properties of the section API and the differential model
    /// check, run for [`RunConfig::cases`] generated cases from
    /// [`RunConfig::seed`], each on a fresh driver.
    Property,
}

impl Family {
    /// Every family, in the order of the variants.
    pub const ALL: [Self; 6] = [
        Self::Contract,
        Self::Sections,
        Self::Portability,
        Self::Interface,
        Self::Corpus,
        Self::Property,
    ];

    /// `true` for a family whose checks run only for a driver that
    /// declares the framework interface they check (its hello's
    /// `interface`, [`MemoryProvider::interface`]): for any other driver
    /// each such check is skipped, and the skip, like a check of another
    /// recall profile, does not apply to the driver. It neither completes
    /// nor holds back the family's status (`report::Conformance::of`), a
    /// host counts it among the checks a driver serving no interface
    /// skips, and `list --format json` says so of each of its checks
    /// (`needs_interface`).
    #[must_use]
    pub fn needs_interface(self) -> bool {
        match self {
            Self::Interface => true,
            Self::Contract | Self::Sections | Self::Portability | Self::Corpus | Self::Property => {
                false
            }
        }
    }

    /// `true` for the one family whose checks read
    /// [`CheckContext::corpus`]: while a corpus loads
    /// ([`Runner::run_loading`](crate::Runner::run_loading)) its checks
    /// wait for the load, and those of every other family run.
    #[must_use]
    pub fn reads_corpus(self) -> bool {
        match self {
            Self::Corpus => true,
            Self::Contract
            | Self::Sections
            | Self::Portability
            | Self::Interface
            | Self::Property => false,
        }
    }

    /// The family named `name` ([`Family::as_str`]), if any.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The lowercase name used in ids and reports: `contract`, `sections`,
    /// `portability`, `interface`, `corpus`, `property`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Contract => "contract",
            Self::Sections => "sections",
            Self::Portability => "portability",
            Self::Interface => "interface",
            Self::Corpus => "corpus",
            Self::Property => "property",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The recall profiles a check applies to: a run against a driver of
/// profile `p` runs exactly the checks whose `profiles` contain `p`
/// (`docs/profiles.md` has the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profiles {
    lexical: bool,
    semantic: bool,
}

impl Profiles {
    /// Every profile: the rule holds for any ranking engine.
    pub const BOTH: Self = Self {
        lexical: true,
        semantic: true,
    };
    /// [`RecallProfile::Lexical`] only: the rule assumes word matching.
    pub const LEXICAL: Self = Self {
        lexical: true,
        semantic: false,
    };
    /// [`RecallProfile::Semantic`] only: the rule stands in for a lexical
    /// one that a ranking engine cannot meet.
    pub const SEMANTIC: Self = Self {
        lexical: false,
        semantic: true,
    };

    /// `true` when a check of these profiles applies to `profile`.
    #[must_use]
    pub fn contains(self, profile: RecallProfile) -> bool {
        match profile {
            RecallProfile::Lexical => self.lexical,
            RecallProfile::Semantic => self.semantic,
        }
    }

    /// The profiles, lexical first.
    pub fn iter(self) -> impl Iterator<Item = RecallProfile> {
        RecallProfile::ALL
            .into_iter()
            .filter(move |p| self.contains(*p))
    }
}

/// `lexical, semantic`, `lexical` or `semantic`.
impl fmt::Display for Profiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(RecallProfile::as_str).collect();
        f.write_str(&names.join(", "))
    }
}

/// The smallest input a property check found failing, and how to get it
/// again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterexample {
    /// The run seed that reproduces it (`--seed`).
    pub seed: u64,
    /// The shrunk input, rendered with `{:#?}` or the property's own format.
    pub input: String,
}

/// A driver error as data: what a [`Failure`] keeps of the
/// [`MemoryError`] that caused it, so that failures sharing one cause can
/// be told apart from failures that only quote similar text.
///
/// It is the error as the driver returned it: one the section API wrapped
/// on its way to the check (`recall in namespace "learning:a" failed: ..`
/// from `across_section`) is recorded as the driver's own error when the
/// runner ran the check, so the same fault seen through two namespaces, or
/// through a direct recall and a section fan-out, is one `DriverError`.
/// Its [`Display`](fmt::Display) is the [`MemoryError`]'s:
///
/// ```
/// use tinymemory_api::MemoryError;
/// use tinymemory_conformance::DriverError;
///
/// let e = MemoryError::invalid("namespace.charset", "bad byte");
/// let data = DriverError::from(&e);
/// assert_eq!((data.kind.as_ref(), data.rule.as_deref()), ("invalid", Some("namespace.charset")));
/// assert_eq!(data.message, "bad byte");
/// assert_eq!(data.to_string(), e.to_string());
/// ```
///
/// A JSON report carries it as each failure's `driver_error`
/// (docs/reports.md): `kind`, `rule` and `family` when present, `message`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct DriverError {
    /// [`MemoryError::kind`]: `invalid`, `unavailable`, `backend` or
    /// `unsupported` (or, read from a newer report, a kind this build does
    /// not know).
    pub kind: std::borrow::Cow<'static, str>,
    /// The rule id of an `invalid` error ([`MemoryError::rule`]); `None`
    /// for the other kinds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The family of an `unsupported` error; `None` for the other kinds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// The error's own message, without the prefix its kind adds
    /// (`backend failure: `) and without its sources.
    pub message: String,
}

impl From<&MemoryError> for DriverError {
    fn from(e: &MemoryError) -> Self {
        let (rule, family, message) = match e {
            MemoryError::Invalid { rule, message } => (Some(*rule), None, message.clone()),
            MemoryError::Unavailable { message, .. } | MemoryError::Backend { message, .. } => {
                (None, None, message.clone())
            }
            MemoryError::Unsupported { family, message } => (None, Some(*family), message.clone()),
            // A variant added later: its whole text is the message.
            other => (None, None, other.to_string()),
        };
        Self {
            kind: std::borrow::Cow::Borrowed(e.kind()),
            rule: rule.map(str::to_owned),
            family: family.map(str::to_owned),
            message,
        }
    }
}

/// The [`MemoryError`]'s own text: `invalid input (RULE): MESSAGE`,
/// `unavailable: MESSAGE`, `backend failure: MESSAGE` or
/// `unsupported (FAMILY): MESSAGE`.
impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = &self.message;
        match (self.kind.as_ref(), &self.rule, &self.family) {
            ("invalid", Some(rule), _) => write!(f, "invalid input ({rule}): {message}"),
            ("unavailable", ..) => write!(f, "unavailable: {message}"),
            ("backend", ..) => write!(f, "backend failure: {message}"),
            ("unsupported", _, Some(family)) => write!(f, "unsupported ({family}): {message}"),
            _ => f.write_str(message),
        }
    }
}

/// Why a check failed.
///
/// Built with [`Failure::new`] (or from a message, [`From<String>`]),
/// [`Failure::caused_by`] and [`Failure::with_counterexample`], or as a
/// struct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What was expected and what happened.
    pub message: String,
    /// For property checks: the shrunk failing input and its seed.
    pub counterexample: Option<Counterexample>,
    /// The driver error the check failed on, when it failed because a
    /// driver call returned one (or returned a different one than the
    /// rule asks for); `None` when the driver answered, wrongly. The
    /// message quotes it too; this is the same error as data, for telling
    /// which failures share a cause. A property check's is that of its
    /// reported (shrunk) case.
    pub driver_error: Option<DriverError>,
    /// What the run added after the check ended (where its trace records
    /// are, what a rerun alone found), in the order added: the reports
    /// print them after the message, which stays as the check wrote it.
    pub notes: Vec<crate::report::FailureNote>,
}

impl Failure {
    /// A failure with a message, no counterexample and no driver error.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            counterexample: None,
            driver_error: None,
            notes: Vec::new(),
        }
    }

    /// The same failure, caused by the driver error `e`.
    #[must_use]
    pub fn caused_by(self, e: &MemoryError) -> Self {
        self.with_driver_error(Some(DriverError::from(e)))
    }

    /// The same failure with [`driver_error`](Self::driver_error) set to
    /// `driver_error`.
    #[must_use]
    pub fn with_driver_error(mut self, driver_error: Option<DriverError>) -> Self {
        self.driver_error = driver_error;
        self
    }

    /// The same failure with `note` added after its notes.
    #[must_use]
    pub fn with_note(mut self, note: crate::report::FailureNote) -> Self {
        self.notes.push(note);
        self
    }

    /// The same failure with `counterexample`.
    #[must_use]
    pub fn with_counterexample(mut self, counterexample: Counterexample) -> Self {
        self.counterexample = Some(counterexample);
        self
    }
}

/// [`Failure::new`].
impl From<String> for Failure {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

/// [`Failure::new`].
impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

/// The result of running one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The driver did what the check asks.
    Pass,
    /// It did not.
    Fail(Failure),
    /// The check could not run here; the message says why.
    Skip(String),
    /// The check is of a framework interface the driver does not serve
    /// (its hello declares none, or another): like a check of another
    /// recall profile, it does not apply to the driver, so it neither
    /// completes nor holds back its family (`report::Conformance::of`).
    /// Reported as a skip whose [`message`](Outcome::message) says so,
    /// marked `not_served` in the JSON report
    /// ([`CheckEntry::not_served`](crate::report::CheckEntry::not_served)):
    /// the fact is this variant, never the message's text.
    NotServed,
    /// It failed, as the run declared it would (with a written reason).
    /// Not counted as a failure.
    ExpectedFailure {
        /// Why the failure is expected.
        reason: String,
        /// The failure itself.
        failure: Failure,
    },
    /// It was declared an expected failure but passed: the declaration is
    /// stale. Counted as a failure, so the declaration gets removed.
    UnexpectedPass {
        /// The reason the declaration gave.
        reason: String,
    },
    /// It ran past its time budget while its driver kept answering: the
    /// check was stopped before it could pass or fail, so nothing is known
    /// about the rule. Fails the run (the check was not shown to pass), but
    /// is never a rule violation; the message gives the measured request
    /// rate and the option that raises the budget (`docs/reports.md`,
    /// "Per-check timeout").
    Timeout(String),
}

impl Outcome {
    /// A [`Outcome::Fail`] of `failure`: a [`Failure`], or a message
    /// (`String`, `&str`) for a failure with no counterexample and no
    /// driver error.
    pub fn fail(failure: impl Into<Failure>) -> Self {
        Self::Fail(failure.into())
    }

    /// `pass`, `fail`, `skip`, `expected-failure`, `unexpectedly-passing`
    /// or `timeout`.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            Self::Timeout(_) => "timeout",
            Self::Pass => "pass",
            Self::Fail(_) => "fail",
            Self::Skip(_) | Self::NotServed => "skip",
            Self::ExpectedFailure { .. } => "expected-failure",
            Self::UnexpectedPass { .. } => "unexpectedly-passing",
        }
    }

    /// `true` for the outcomes that fail a run: [`Outcome::Fail`],
    /// [`Outcome::UnexpectedPass`] and [`Outcome::Timeout`].
    #[must_use]
    pub fn is_fail(&self) -> bool {
        matches!(
            self,
            Self::Fail(_) | Self::UnexpectedPass { .. } | Self::Timeout(_)
        )
    }

    /// The failure message, skip reason or timeout message, if any.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        match self {
            Self::Pass => None,
            Self::Fail(f) | Self::ExpectedFailure { failure: f, .. } => Some(&f.message),
            Self::Skip(m) | Self::UnexpectedPass { reason: m } | Self::Timeout(m) => Some(m),
            Self::NotServed => Some(crate::checks::interface::NOT_SERVED),
        }
    }
}

/// Settings every check of a run shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunConfig {
    /// Seed for every randomised check; the same seed gives the same cases.
    pub seed: u64,
    /// Cases per property check.
    pub cases: u32,
}

impl RunConfig {
    /// The default seed: fixed, so two runs of the same build agree and a CI
    /// gate never flakes; pass another to explore.
    pub const DEFAULT_SEED: u64 = 0x7469_6e79_6d65_6d00;
    /// The default cases per property check, sized for the CI budget: at 64
    /// cases the property checks (`properties.*` and `model.differential`)
    /// took about 7 s on file-backed SQLite, when there were eight,
    /// in a debug build on 2 cores (under 30 s on a loaded machine), and the
    /// faults they target are caught with high probability
    /// (`docs/properties.md` has the measurements). Run more locally with
    /// `TINYMEMORY_CASES` or `--cases`.
    pub const DEFAULT_CASES: u32 = 64;
}

impl Default for RunConfig {
    fn default() -> Self {
        Self {
            seed: Self::DEFAULT_SEED,
            cases: Self::DEFAULT_CASES,
        }
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
    /// Seed and case count.
    pub config: RunConfig,
    /// The recall profile of the run: the factory's, unless overridden.
    pub profile: RecallProfile,
}

impl CheckContext {
    /// A fresh, empty driver from [`factory`](Self::factory): what every
    /// check and property case starts from.
    ///
    /// # Errors
    ///
    /// When the factory cannot open one: the failure a check fails with,
    /// `failed to open a fresh <driver id> driver: <the error>`, caused by
    /// that error ([`Failure::driver_error`]); `.map_err(Outcome::fail)`
    /// makes it an outcome.
    pub async fn fresh(&self) -> Result<Box<dyn MemoryProvider>, Failure> {
        self.factory.open().await.map_err(|e| {
            Failure::new(format!(
                "failed to open a fresh {} driver: {e}",
                self.factory.driver_id()
            ))
            .caused_by(&e)
        })
    }
}

/// One named check.
#[derive(Clone, Copy)]
pub struct Check {
    /// Stable id, `<area>.<rule>`, for example `recall.none_means_global`.
    pub id: &'static str,
    /// The family it belongs to.
    pub family: Family,
    /// The recall profiles it applies to.
    pub profiles: Profiles,
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
            .field("profiles", &self.profiles)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::Family;

    #[test]
    fn named_reads_back_each_familys_name_and_nothing_else() {
        for family in Family::ALL {
            assert_eq!(Family::named(family.as_str()), Some(family));
        }
        assert_eq!(Family::named("Interface"), None);
        assert_eq!(Family::named(""), None);
    }
}
