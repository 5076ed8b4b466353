//! [`Harness`]: one check at a time against one driver, for `#[test]`s.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tinymemory_api::{MemoryError, MemoryProvider, RecallProfile};
use tinymemory_corpus::Corpus;

use super::{ExpectationError, ExpectedFailures};
use crate::{
    CheckReport, DriverFactory, Family, FnFactory, LoadedCorpus, Outcome, Registry, RunConfig,
    Runner, DEFAULT_CHECK_TIMEOUT,
};

/// Why a harness could not run a check.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HarnessError {
    /// The id names no check of [`Registry::standard`].
    #[error("failed to run check {0:?}: no check has this id (see `tinymemory-conformance list`)")]
    UnknownCheck(String),
    /// The expected failures are malformed.
    #[error(transparent)]
    Expectation(#[from] ExpectationError),
    /// The corpus given with [`Harness::with_corpus`] could not be loaded.
    #[error("failed to load the corpus for check {id:?}: {message}")]
    Corpus {
        /// The check.
        id: String,
        /// What failed.
        message: String,
    },
}

/// Runs single checks of [`Registry::standard`] against fresh drivers from
/// one factory, with expected failures applied: what each `#[test]` of
/// [`conformance_tests!`](crate::conformance_tests) calls.
#[derive(Clone)]
pub struct Harness {
    factory: Arc<dyn DriverFactory>,
    config: RunConfig,
    corpus: Option<PathBuf>,
    expected: ExpectedFailures,
    declaration_error: Option<ExpectationError>,
    timeout: Duration,
    profile: Option<RecallProfile>,
}

impl Harness {
    /// A harness over `factory`, with [`RunConfig::default`], no corpus, no
    /// expected failure and [`DEFAULT_CHECK_TIMEOUT`].
    #[must_use]
    pub fn new(factory: Arc<dyn DriverFactory>) -> Self {
        Self {
            factory,
            config: RunConfig::default(),
            corpus: None,
            expected: ExpectedFailures::new(),
            declaration_error: None,
            timeout: DEFAULT_CHECK_TIMEOUT,
            profile: None,
        }
    }

    /// A harness over an [`FnFactory`] named `driver_id` that calls `open`
    /// for every fresh driver.
    #[must_use]
    pub fn from_fn<F>(driver_id: impl Into<String>, open: F) -> Self
    where
        F: Fn() -> Result<Box<dyn MemoryProvider>, MemoryError> + Send + Sync + 'static,
    {
        Self::new(Arc::new(FnFactory::new(driver_id, open)))
    }

    /// Hold the driver to `profile` instead of the one its factory
    /// declares ([`DriverFactory::recall_profile`]).
    #[must_use]
    pub fn with_profile(mut self, profile: RecallProfile) -> Self {
        self.profile = Some(profile);
        self
    }

    /// The recall profile checks run under: the one set with
    /// [`Harness::with_profile`], else the factory's.
    #[must_use]
    pub fn profile(&self) -> RecallProfile {
        self.profile
            .unwrap_or_else(|| self.factory.recall_profile())
    }

    /// Use `config` (seed, cases) for every check.
    #[must_use]
    pub fn with_config(mut self, config: RunConfig) -> Self {
        self.config = config;
        self
    }

    /// The configuration in force.
    #[must_use]
    pub fn config(&self) -> RunConfig {
        self.config
    }

    /// Load the corpus at `root` into a fresh driver for each corpus check
    /// (without one they are skipped).
    #[must_use]
    pub fn with_corpus(mut self, root: impl Into<PathBuf>) -> Self {
        self.corpus = Some(root.into());
        self
    }

    /// Fail any check still running after `timeout` (for a property check,
    /// after the larger of `timeout` and [`PROPERTY_TIME_PER_CASE`](crate::PROPERTY_TIME_PER_CASE) times the
    /// case count).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Declares that check `id` fails on this driver because `reason`. A
    /// blank reason or a second declaration of `id` is remembered and fails
    /// every check run by this harness, so the mistake cannot go unseen.
    #[must_use]
    pub fn expect_failure(mut self, id: &str, reason: &str) -> Self {
        match self.expected.clone().expect(id, reason) {
            Ok(expected) => self.expected = expected,
            Err(e) => {
                self.declaration_error.get_or_insert(e);
            }
        }
        self
    }

    /// The declared expected failures.
    #[must_use]
    pub fn expected_failures(&self) -> &ExpectedFailures {
        &self.expected
    }

    /// Checks the declarations: reasons given, each id declared once and
    /// naming a standard check of the harness's recall profile.
    ///
    /// # Errors
    ///
    /// The first [`ExpectationError`].
    pub fn validate(&self) -> Result<(), ExpectationError> {
        if let Some(e) = &self.declaration_error {
            return Err(e.clone());
        }
        self.expected
            .validate_for(&Registry::standard(), self.profile())
    }

    /// Runs check `id` once against a fresh driver and applies the
    /// expected failures to its outcome. A check that does not apply to
    /// the [`Harness::profile`] is not run: its outcome is
    /// [`Outcome::Skip`] naming the profiles it applies to.
    ///
    /// # Errors
    ///
    /// [`HarnessError`] for an unknown id, malformed declarations, or a
    /// corpus that cannot be loaded.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime with time enabled, as [`Runner::run`].
    pub async fn run_check(&self, id: &str) -> Result<CheckReport, HarnessError> {
        self.validate()?;
        let registry = Registry::standard();
        let check = *registry
            .get(id)
            .ok_or_else(|| HarnessError::UnknownCheck(id.to_owned()))?;
        let profile = self.profile();
        if !check.profiles.contains(profile) {
            return Ok(CheckReport {
                id: check.id,
                family: check.family,
                description: check.description,
                outcome: Outcome::Skip(format!(
                    "applies to the {} recall profile, and this driver is {profile}",
                    check.profiles
                )),
                duration: Duration::ZERO,
                score_noise: None,
            });
        }
        let corpus = match (&self.corpus, check.family) {
            (Some(root), Family::Corpus) => Some(Arc::new(self.load_corpus(id, root).await?)),
            _ => None,
        };
        // The runner gives property checks their per-case budget.
        let runner = Runner::new(Registry::from_checks(vec![check]))
            .with_profile(profile)
            .with_config(self.config)
            .with_timeout(self.timeout);
        let summary = runner.run(Arc::clone(&self.factory), corpus, |_| {}).await;
        let mut report = summary
            .reports
            .into_iter()
            .next()
            .ok_or_else(|| HarnessError::UnknownCheck(id.to_owned()))?;
        report.outcome = self.expected.apply(id, report.outcome);
        Ok(report)
    }

    async fn load_corpus(
        &self,
        id: &str,
        root: &std::path::Path,
    ) -> Result<LoadedCorpus, HarnessError> {
        let failed = |message: String| HarnessError::Corpus {
            id: id.to_owned(),
            message,
        };
        let corpus = Corpus::load(root).map_err(|e| failed(format!("{}: {e}", root.display())))?;
        let store = self
            .factory
            .open()
            .await
            .map_err(|e| failed(e.to_string()))?;
        LoadedCorpus::load(store, &corpus)
            .await
            .map_err(|e| failed(e.to_string()))
    }

    /// What a generated `#[test]` does when its driver is unavailable
    /// (`conformance_tests!(name, factory = Err(why))`): prints
    /// `SKIPPED <test>: <why>` straight to the process's stderr (libtest
    /// captures `eprintln!` of passing tests, and a skip must be seen) and
    /// returns, so the test passes.
    pub fn skip_unavailable(test: &str, why: &str) {
        use std::io::Write;
        // Nothing to do when stderr is closed: the skip has nowhere to go.
        let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
    }

    /// The body of one generated `#[test]`: runs check `id` on a new
    /// current-thread runtime (I/O and time enabled) and panics, with the report, unless it passed,
    /// was skipped (the reason goes to stderr) or failed as declared.
    ///
    /// # Panics
    ///
    /// When the check fails, passes although declared an expected failure,
    /// cannot be run ([`HarnessError`]), or the runtime cannot start.
    pub fn test(&self, id: &str) {
        // A driver may be the client of a server: sockets as well as timers.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("failed to start a Tokio runtime for check {id}: {e}"));
        let report = runtime
            .block_on(self.run_check(id))
            .unwrap_or_else(|e| panic!("{e}"));
        match &report.outcome {
            Outcome::Pass => {}
            Outcome::Skip(_) | Outcome::NotServed => {
                eprintln!(
                    "skipped {id}: {}",
                    report.outcome.message().unwrap_or_default()
                );
            }
            Outcome::ExpectedFailure { reason, failure } => {
                eprintln!("{id} failed as expected ({reason}): {}", failure.message);
            }
            Outcome::Fail(_) | Outcome::UnexpectedPass { .. } | Outcome::Timeout(_) => {
                panic!("{}", explain(&report, self.config))
            }
        }
    }
}

/// The panic message of a failed test: the report line, then the
/// counterexample and how to reproduce it.
fn explain(report: &CheckReport, config: RunConfig) -> String {
    let mut out = format!("{report}");
    match &report.outcome {
        Outcome::Fail(failure) => {
            if let Some(c) = &failure.counterexample {
                let _ = write!(
                    out,
                    "\nshrunk counterexample (seed {}, reproduce with {}={} {}={}):\n{}",
                    c.seed,
                    super::SEED_ENV,
                    c.seed,
                    super::CASES_ENV,
                    config.cases,
                    c.input
                );
            }
        }
        Outcome::UnexpectedPass { .. } => {
            out.push_str("\nthe check now passes: remove its expected_failures declaration");
        }
        _ => {}
    }
    out
}

impl std::fmt::Debug for Harness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness")
            .field("driver", &self.factory.driver_id())
            .field("config", &self.config)
            .field("corpus", &self.corpus)
            .field("expected", &self.expected)
            .finish_non_exhaustive()
    }
}
