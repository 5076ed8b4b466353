//! Runs checks one at a time, isolating panics and hangs.

use std::any::Any;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tinymemory_api::RecallProfile;

use crate::progress::{self, CaseProgress};
use crate::{
    CheckContext, CheckReport, DriverFactory, LoadedCorpus, Outcome, Registry, RunConfig,
    RunSummary,
};

/// How long one check may run before it fails with a timeout. The slowest
/// standard check (`corpus.recall_own_words` on SQLite) takes well under a
/// second in a release build; a minute leaves room for slow debug builds
/// and remote drivers.
pub const DEFAULT_CHECK_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the checks of a [`Registry`] in order.
#[derive(Debug, Clone)]
pub struct Runner {
    registry: Registry,
    timeout: Duration,
    config: RunConfig,
    progress: CaseProgress,
    profile: Option<RecallProfile>,
}

impl Runner {
    /// A runner over `registry` with [`DEFAULT_CHECK_TIMEOUT`].
    #[must_use]
    pub fn new(registry: Registry) -> Self {
        Self {
            registry,
            timeout: DEFAULT_CHECK_TIMEOUT,
            config: RunConfig::default(),
            progress: CaseProgress::new(),
            profile: None,
        }
    }

    /// Fail any check still running after `timeout`.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Use `config` (seed, cases) for every check.
    #[must_use]
    pub fn with_config(mut self, config: RunConfig) -> Self {
        self.config = config;
        self
    }

    /// Hold the driver to `profile` instead of the one its factory
    /// declares ([`DriverFactory::recall_profile`]): for example a lexical
    /// driver checked under the weaker semantic rules.
    #[must_use]
    pub fn with_profile(mut self, profile: RecallProfile) -> Self {
        self.profile = Some(profile);
        self
    }

    /// Report each property check's finished cases to `progress`, for a
    /// live status line; it is cleared before every check.
    #[must_use]
    pub fn with_progress(mut self, progress: CaseProgress) -> Self {
        self.progress = progress;
        self
    }

    /// Runs every check that applies to the run's recall profile (the
    /// factory's, unless [`Runner::with_profile`] set one) against fresh
    /// drivers from `factory` (and the corpus store, for the corpus
    /// checks), calling `on_report` as each check finishes. Checks of other
    /// profiles are not run and not reported.
    ///
    /// Each check runs in its own tokio task: a panic fails that check with
    /// the panic message, a check still running after the timeout fails
    /// with a timeout, and the run goes on.
    ///
    /// # Panics
    ///
    /// Must be called inside a tokio runtime with time enabled.
    pub async fn run(
        &self,
        factory: Arc<dyn DriverFactory>,
        corpus: Option<Arc<LoadedCorpus>>,
        mut on_report: impl FnMut(&CheckReport),
    ) -> RunSummary {
        let started = Instant::now();
        let profile = self.profile.unwrap_or_else(|| factory.recall_profile());
        let ctx = CheckContext {
            factory,
            corpus,
            config: self.config,
            profile,
        };
        let checks = self.registry.for_profile(profile);
        let mut reports = Vec::with_capacity(checks.len());
        for check in checks.checks() {
            let t0 = Instant::now();
            let body = (check.run)(ctx.clone());
            self.progress.clear();
            let task = tokio::spawn(progress::scope(
                self.progress.clone(),
                tokio::time::timeout(self.timeout, body),
            ));
            let outcome = match task.await {
                Ok(Ok(outcome)) => outcome,
                Ok(Err(_elapsed)) => Outcome::fail(format!(
                    "timed out after {:?} (the driver hung or is too slow)",
                    self.timeout
                )),
                Err(join) if join.is_panic() => Outcome::fail(format!(
                    "check panicked: {}",
                    panic_message(join.into_panic().as_ref())
                )),
                Err(join) => Outcome::fail(format!("check task was cancelled: {join}")),
            };
            let report = CheckReport {
                id: check.id,
                family: check.family,
                description: check.description,
                outcome,
                duration: t0.elapsed(),
            };
            on_report(&report);
            reports.push(report);
        }
        RunSummary {
            driver_id: ctx.factory.driver_id(),
            profile,
            reports,
            config: self.config,
            duration: started.elapsed(),
        }
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_owned()
    }
}
