//! Runs checks one at a time, isolating panics and hangs.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::FutureExt;
use tokio::sync::oneshot;

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

/// Time a property check is allowed per case: a property check's timeout is
/// the larger of the run's timeout and this times
/// [`RunConfig::cases`](crate::RunConfig::cases), so that
/// `TINYMEMORY_CASES=5000` is not cut short by a timeout sized for the
/// default case count.
pub const PROPERTY_TIME_PER_CASE: Duration = Duration::from_millis(250);

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
    /// Each check runs on a thread of its own, driving the caller's runtime
    /// (its tasks, I/O and timers) with [`Handle::block_on`]; the runner
    /// waits for it from the caller's task. So:
    ///
    /// - a panic fails that check with the panic message;
    /// - a check still running after the timeout fails with
    ///   `ID timed out after …` (with how many property cases had passed,
    ///   and `--timeout SECS raises the limit`), even one whose driver
    ///   blocks its thread (a `std::thread::sleep` or a deadlock in a
    ///   driver call), and the
    ///   run goes on at once;
    /// - a timed-out check that is waiting (an `.await`) is cancelled: its
    ///   future is dropped, and with it the drivers it opened;
    /// - a timed-out check whose thread is blocked cannot be stopped, since
    ///   Rust cannot kill a thread: that thread is abandoned. It keeps what
    ///   the check holds (its drivers, any lock it took) until the blocking
    ///   call returns, when the check is cancelled at its next `.await` and
    ///   its result discarded; a thread that never returns lives until the
    ///   process exits. Its later calls into a shared driver may still
    ///   reach that driver while later checks run.
    ///
    /// [`Handle::block_on`]: tokio::runtime::Handle::block_on
    ///
    /// # Panics
    ///
    /// Must be called inside a tokio runtime with time enabled. Panics if
    /// the operating system cannot start a thread.
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
            self.progress.clear();
            let outcome = self.run_one(check, ctx.clone()).await;
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

impl Runner {
    /// The time `check` may take: the timeout, and for a property check at
    /// least [`PROPERTY_TIME_PER_CASE`] per case, so that `--cases 5000`
    /// is not cut short by a limit sized for the default case count. The
    /// budget is a function of the check and the configuration alone,
    /// never of how fast earlier checks ran.
    fn budget(&self, check: &crate::Check) -> Duration {
        match check.family {
            crate::Family::Property => self.timeout.max(PROPERTY_TIME_PER_CASE * self.config.cases),
            _ => self.timeout,
        }
    }

    /// Runs `check` on a thread of its own ([`Runner::run`]) and waits for
    /// its outcome, at most the timeout.
    async fn run_one(&self, check: &crate::Check, ctx: CheckContext) -> Outcome {
        let handle = tokio::runtime::Handle::current();
        let body = progress::scope(self.progress.clone(), (check.run)(ctx));
        let (done_tx, done_rx) = oneshot::channel();
        let (cancel_tx, cancel_rx) = oneshot::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name(format!("check {}", check.id))
            .spawn(move || {
                let guarded = AssertUnwindSafe(body).catch_unwind();
                let outcome = handle.block_on(async move {
                    tokio::select! {
                        biased;
                        outcome = guarded => Some(outcome),
                        // Timed out, or the runner itself was dropped.
                        _ = cancel_rx => None,
                    }
                });
                if let Some(outcome) = outcome {
                    let _ = done_tx.send(outcome);
                }
            });
        if let Err(e) = spawned {
            return Outcome::fail(format!("failed to start a thread for the check: {e}"));
        }
        let budget = self.budget(check);
        match tokio::time::timeout(budget, done_rx).await {
            Ok(Ok(Ok(outcome))) => outcome,
            Ok(Ok(Err(payload))) => Outcome::fail(format!(
                "check panicked: {}",
                panic_message(payload.as_ref())
            )),
            Ok(Err(_gone)) => Outcome::fail("check thread ended without an outcome"),
            Err(_elapsed) => {
                // Cancels a check that is waiting; one whose thread is
                // blocked stops at its next `.await`, whenever that is.
                let _ = cancel_tx.send(());
                let cases = self
                    .progress
                    .get()
                    .filter(|&(done, _)| done > 0)
                    .map(|(done, all)| format!(", {done} of {all} property cases had passed"))
                    .unwrap_or_default();
                Outcome::fail(format!(
                    "{} timed out after {budget:?} (the driver hung or is too slow){cases}; \
                     --timeout SECS raises the limit",
                    check.id
                ))
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Check, Family, FnFactory, Profiles};
    use tinymemory_reference::ReferenceDriver;

    fn blocks_its_thread(_: CheckContext) -> crate::CheckFuture {
        Box::pin(async {
            // A driver call that never yields: std::thread::sleep in recall.
            std::thread::sleep(Duration::from_secs(3));
            Outcome::Pass
        })
    }

    fn waits(_: CheckContext) -> crate::CheckFuture {
        Box::pin(async {
            tokio::time::sleep(Duration::from_secs(3)).await;
            Outcome::Pass
        })
    }

    /// Unwinds without running the panic hook, whose backtrace printing
    /// can outlast the short timeout on a loaded machine.
    fn panics(_: CheckContext) -> crate::CheckFuture {
        Box::pin(async { std::panic::resume_unwind(Box::new("the driver unwrapped a None")) })
    }

    /// A property check that passes 12 cases, then hangs.
    fn hangs_after_cases(_: CheckContext) -> crate::CheckFuture {
        Box::pin(async {
            progress::report(12, 64);
            tokio::time::sleep(Duration::from_secs(3)).await;
            Outcome::Pass
        })
    }

    fn passes(_: CheckContext) -> crate::CheckFuture {
        Box::pin(async { Outcome::Pass })
    }

    fn check(id: &'static str, run: fn(CheckContext) -> crate::CheckFuture) -> Check {
        Check {
            id,
            family: Family::Contract,
            profiles: Profiles::BOTH,
            description: "a runner test",
            run,
        }
    }

    async fn run_all() -> (RunSummary, Duration) {
        let registry = Registry::from_checks(vec![
            check("t.blocks", blocks_its_thread),
            check("t.waits", waits),
            check("t.cases", hangs_after_cases),
            check("t.panics", panics),
            check("t.passes", passes),
        ]);
        let factory = Arc::new(FnFactory::new("reference", || {
            Ok(Box::new(ReferenceDriver::new()) as _)
        }));
        let t0 = Instant::now();
        let summary = Runner::new(registry)
            .with_timeout(Duration::from_millis(300))
            .run(factory, None, |_| {})
            .await;
        (summary, t0.elapsed())
    }

    fn assert_isolated(summary: &RunSummary, elapsed: Duration) {
        let outcomes: Vec<_> = summary
            .reports
            .iter()
            .map(|r| (r.id, r.outcome.message().unwrap_or("pass").to_owned()))
            .collect();
        assert_eq!(
            outcomes,
            [
                (
                    "t.blocks",
                    "t.blocks timed out after 300ms (the driver hung or is too slow); \
                     --timeout SECS raises the limit"
                        .to_owned()
                ),
                (
                    "t.waits",
                    "t.waits timed out after 300ms (the driver hung or is too slow); \
                     --timeout SECS raises the limit"
                        .to_owned()
                ),
                (
                    "t.cases",
                    "t.cases timed out after 300ms (the driver hung or is too slow), \
                     12 of 64 property cases had passed; --timeout SECS raises the limit"
                        .to_owned()
                ),
                (
                    "t.panics",
                    "check panicked: the driver unwrapped a None".to_owned()
                ),
                ("t.passes", "pass".to_owned()),
            ]
        );
        assert!(
            elapsed < Duration::from_millis(2_500),
            "the run took {elapsed:?}"
        );
    }

    fn naps(_: CheckContext) -> crate::CheckFuture {
        Box::pin(async {
            tokio::time::sleep(Duration::from_millis(600)).await;
            Outcome::Pass
        })
    }

    /// A property check gets `PROPERTY_TIME_PER_CASE` per case when that
    /// is more than the timeout; an example check gets the timeout.
    #[tokio::test]
    async fn property_checks_are_budgeted_per_case() {
        let property = Check {
            family: Family::Property,
            ..check("t.property", naps)
        };
        let registry = Registry::from_checks(vec![property, check("t.example", naps)]);
        let factory = Arc::new(FnFactory::new("reference", || {
            Ok(Box::new(ReferenceDriver::new()) as _)
        }));
        let summary = Runner::new(registry)
            .with_timeout(Duration::from_millis(300))
            .with_config(RunConfig { seed: 1, cases: 8 })
            .run(factory, None, |_| {})
            .await;
        let outcomes: Vec<_> = summary
            .reports
            .iter()
            .map(|r| (r.id, r.outcome.message().unwrap_or("pass").to_owned()))
            .collect();
        assert_eq!(
            outcomes,
            [
                ("t.property", "pass".to_owned()),
                (
                    "t.example",
                    "t.example timed out after 300ms (the driver hung or is too slow); \
                     --timeout SECS raises the limit"
                        .to_owned()
                ),
            ]
        );
    }

    #[tokio::test]
    async fn a_check_blocking_its_thread_times_out_on_a_current_thread_runtime() {
        let (summary, elapsed) = run_all().await;
        assert_isolated(&summary, elapsed);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_check_blocking_its_thread_times_out_on_a_multi_thread_runtime() {
        let (summary, elapsed) = run_all().await;
        assert_isolated(&summary, elapsed);
    }
}
