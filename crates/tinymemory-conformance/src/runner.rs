//! Runs checks one at a time, isolating panics and hangs.

use std::any::Any;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use futures::stream::{FuturesUnordered, StreamExt};
use futures::FutureExt;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

use tinymemory_api::RecallProfile;

use crate::meter::{Meter, MeteredFactory};
use crate::noise::{self, NoiseLog};
use crate::observe::{CheckStarted, OnReport, RunObserver};
use crate::progress::{self, CaseProgress};
use crate::slots;
use crate::start_order::StartOrder;
use crate::{
    CheckContext, CheckReport, DriverFactory, LoadedCorpus, Outcome, Registry, RunConfig,
    RunSummary,
};

/// The base of a check's time budget, before its allowance for the
/// requests it makes ([`DEFAULT_REQUEST_ALLOWANCE`]): the time the check
/// may take whatever its driver does. The slowest standard check
/// (`corpus.recall_own_words` on SQLite) takes well under a second in a
/// release build; a minute leaves room for slow debug builds.
pub const DEFAULT_CHECK_TIMEOUT: Duration = Duration::from_secs(60);

/// What each request of a check adds to its budget: a check may run for
/// its base ([`DEFAULT_CHECK_TIMEOUT`]) plus this for every request it has
/// made of its driver (each entry or record of a `store_many` or `import`
/// counting as one), so a driver answering at least one request a second
/// on average never runs out of budget, however many requests a check
/// needs. The slowest engines measured answered in 0.3 s (a vector
/// store's recall) and 0.14 s (a store without `store_many`).
pub const DEFAULT_REQUEST_ALLOWANCE: Duration = Duration::from_secs(1);

/// How long one driver call may go unanswered before the driver is taken
/// as hung: `tinymemory_api`'s, so a driver crate's own limit (the exec
/// driver's request timeout) can share it without depending on the suite.
pub use tinymemory_api::DEFAULT_CALL_TIMEOUT;

/// How much longer than the per-call limit the runner waits before it
/// fails a call as hung: a driver that enforces the limit itself (an exec
/// driver's request timeout, [`Runner::with_call_timeout`]) reports first,
/// with its own detail (the process's stderr).
pub const CALL_TIMEOUT_GRACE: Duration = Duration::from_secs(1);

/// Time a property check is allowed per case: a property check's base
/// budget is the larger of the run's timeout and this times
/// [`RunConfig::cases`](crate::RunConfig::cases), so that
/// `TINYMEMORY_CASES=5000` is not cut short by a timeout sized for the
/// default case count.
pub const PROPERTY_TIME_PER_CASE: Duration = Duration::from_millis(250);

/// Runs the checks of a [`Registry`] in order.
#[derive(Debug, Clone)]
pub struct Runner {
    registry: Registry,
    timeout: Duration,
    allowance: Duration,
    call_timeout: Duration,
    config: RunConfig,
    progress: CaseProgress,
    profile: Option<RecallProfile>,
    jobs: usize,
}

impl Runner {
    /// A runner over `registry` with [`DEFAULT_CHECK_TIMEOUT`],
    /// [`DEFAULT_REQUEST_ALLOWANCE`] and [`DEFAULT_CALL_TIMEOUT`].
    #[must_use]
    pub fn new(registry: Registry) -> Self {
        Self {
            registry,
            timeout: DEFAULT_CHECK_TIMEOUT,
            allowance: DEFAULT_REQUEST_ALLOWANCE,
            call_timeout: DEFAULT_CALL_TIMEOUT,
            config: RunConfig::default(),
            progress: CaseProgress::new(),
            profile: None,
            jobs: 1,
        }
    }

    /// Use `timeout` as the base of every check's budget: a check still
    /// running after `timeout` plus its request allowance is stopped with
    /// [`Outcome::Timeout`].
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Add `allowance` to a check's budget for each request it makes of
    /// its driver ([`DEFAULT_REQUEST_ALLOWANCE`]).
    #[must_use]
    pub fn with_request_allowance(mut self, allowance: Duration) -> Self {
        self.allowance = allowance;
        self
    }

    /// Take the driver as hung when one call goes unanswered for
    /// `limit` (plus [`CALL_TIMEOUT_GRACE`]): the check then fails naming
    /// the call ([`DEFAULT_CALL_TIMEOUT`]).
    #[must_use]
    pub fn with_call_timeout(mut self, limit: Duration) -> Self {
        self.call_timeout = limit;
        self
    }

    /// Run up to `jobs` checks at once (at least 1; the default is 1),
    /// each on fresh stores of its own, when the factory's stores are
    /// independent ([`DriverFactory::independent_stores`]; otherwise one
    /// at a time, whatever `jobs` says). The checks, their seeds, verdicts
    /// and messages, and the order of the reports (registry order) do not
    /// depend on `jobs`; only durations do, and `on_report` is called in
    /// registry order, each report once every check before it has
    /// finished too. With more than one job the checks start costliest
    /// first (descending [`cost`](crate::shard::cost), ties in registry
    /// order), so the longest do not end the run alone; at one job, in
    /// registry order. The `jobs` are slots: once every check has started, a
    /// property check runs more of its cases at once on the slots left
    /// free, each case on a fresh store, its verdict still that of the
    /// first failing case in case order. A property check's live case
    /// count ([`Runner::with_progress`]) is kept only at one job.
    #[must_use]
    pub fn with_jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs.max(1);
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
    /// - a driver call unanswered for the per-call limit
    ///   ([`Runner::with_call_timeout`]) fails the check naming the call
    ///   (`` `recall` (namespace "a:b") got no answer in 31.0s ``): the
    ///   driver hung;
    /// - a check still running after its budget (the timeout, plus the
    ///   request allowance for every request it made: `docs/reports.md`,
    ///   "Per-check timeout") ends with [`Outcome::Timeout`], giving the
    ///   requests answered and their rate (and how many property cases had
    ///   passed), never as a rule failure;
    /// - either holds even for a driver that blocks its thread (a
    ///   `std::thread::sleep` or a deadlock in a driver call), and the
    ///   run goes on at once;
    /// - a stopped check that is waiting (an `.await`) is cancelled: its
    ///   future is dropped, and with it the drivers it opened;
    /// - a stopped check whose thread is blocked cannot be stopped, since
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
        on_report: impl FnMut(&CheckReport),
    ) -> RunSummary {
        self.run_observed(factory, corpus, &mut OnReport(on_report))
            .await
    }

    /// Tells `factory` how many stores this run will hold at once
    /// ([`DriverFactory::start_ahead`]), so a factory whose stores are
    /// processes can start them now, before the corpus is loaded.
    /// [`Runner::run`] does it too; calling it first only starts the same
    /// processes earlier. The number is the run's jobs (one when the
    /// factory's stores are not independent) for the checks its profile
    /// selects, at most one per check; twice that when a property check is
    /// selected, since `properties.cap_determinism` holds two stores and a
    /// property runs cases on free slots; none for no check.
    pub fn start_ahead(&self, factory: &dyn DriverFactory) {
        let profile = self.profile.unwrap_or_else(|| factory.recall_profile());
        let checks = self.registry.for_profile(profile);
        let jobs = if factory.independent_stores() {
            self.jobs
        } else {
            1
        };
        let slots = jobs.min(checks.len());
        let two_stores = checks
            .checks()
            .iter()
            .any(|c| c.family == crate::Family::Property);
        factory.start_ahead(if two_stores { 2 * slots } else { slots });
    }

    /// [`Runner::run`], telling `observer` of each check as it starts and
    /// as it finishes (in registry order; [`RunObserver`]). The reports
    /// the summary holds are those `observer` saw, with what it added.
    ///
    /// # Panics
    ///
    /// As [`Runner::run`].
    pub async fn run_observed<O: RunObserver + ?Sized>(
        &self,
        factory: Arc<dyn DriverFactory>,
        corpus: Option<Arc<LoadedCorpus>>,
        observer: &mut O,
    ) -> RunSummary {
        let loaded = async { Ok::<_, Infallible>(corpus) };
        match self
            .run_loading(factory, loaded, std::future::ready(()), observer)
            .await
        {
            Ok(summary) => summary,
            Err(never) => match never {},
        }
    }

    /// [`Runner::run_observed`] while the corpus loads: `load` resolves to
    /// the loaded corpus (`None` for none), or to the load's error, which
    /// ends the run: the checks under way are stopped as a timed-out check
    /// is ([`Runner::run`]), none is reported, and the error is returned.
    ///
    /// The load is part of the run's work, so it holds one of the
    /// [`Runner::with_jobs`] slots from the start until it resolves: at
    /// one job, or on a driver whose stores share one database, no check
    /// starts before the load ends, exactly as when the corpus is loaded
    /// first. With more, the checks start while it loads:
    ///
    /// - none before `answered` resolves (the corpus store has answered its
    ///   first write), or the load ends, so a store that cannot be reached
    ///   fails the load before any check meets it;
    /// - a check that reads the corpus ([`Family::reads_corpus`]) starts
    ///   only once the load has ended, and the checks after it start
    ///   meanwhile, as slots free up; once loaded, the first check left
    ///   starts on the load's slot. A check of another family started
    ///   during the load sees no corpus ([`CheckContext::corpus`] is
    ///   `None`);
    /// - the checks start costliest first (descending
    ///   [`cost`](crate::shard::cost), ties in registry order), so that no
    ///   long check is left to run alone at the end; at one job, in
    ///   registry order, those passed over during the load first;
    /// - the reports, their order and what they say do not change:
    ///   `observer` is told of each report in registry order, as
    ///   [`Runner::run_observed`] does; only the order checks start in
    ///   does.
    ///
    /// A `load` that is ready when first polled is loaded before any check
    /// starts: [`Runner::run_observed`] is this with the corpus given. The
    /// summary's duration is from the call, the load included.
    ///
    /// [`Family::reads_corpus`]: crate::Family::reads_corpus
    ///
    /// # Errors
    ///
    /// The load's error, once it fails.
    ///
    /// # Panics
    ///
    /// As [`Runner::run`].
    pub async fn run_loading<O, E>(
        &self,
        factory: Arc<dyn DriverFactory>,
        load: impl Future<Output = Result<Option<Arc<LoadedCorpus>>, E>>,
        answered: impl Future<Output = ()>,
        observer: &mut O,
    ) -> Result<RunSummary, E>
    where
        O: RunObserver + ?Sized,
    {
        let started = Instant::now();
        self.start_ahead(factory.as_ref());
        let profile = self.profile.unwrap_or_else(|| factory.recall_profile());
        let mut ctx = CheckContext {
            factory,
            corpus: None,
            config: self.config,
            profile,
        };
        let checks = self.registry.for_profile(profile);
        let mut reports = Vec::with_capacity(checks.len());
        let jobs = if ctx.factory.independent_stores() {
            self.jobs
        } else {
            1
        };
        // `jobs` slots (`crate::slots`): the load holds one until it ends;
        // a check starts as soon as one is free, and a property check may
        // run its cases on slots no check is waiting for. Reports are held
        // until every check before them has finished, so they come out in
        // registry order.
        let slots = Arc::new(Semaphore::new(jobs));
        let mut load_slot = Some(
            Arc::clone(&slots)
                .try_acquire_owned()
                .expect("no check holds a slot before the run starts"),
        );
        let mut load = pin!(load);
        let mut answered = pin!(answered);
        let mut loaded = false;
        let mut open = false;
        // A corpus given already loaded is there before the first check.
        if let Poll::Ready(corpus) = futures::poll!(load.as_mut()) {
            ctx.corpus = corpus?;
            (loaded, open) = (true, true);
            load_slot = None;
        }
        let mut running = FuturesUnordered::new();
        let mut finished: BTreeMap<usize, CheckReport> = BTreeMap::new();
        let total = checks.len();
        // Costliest first when checks run side by side; one job keeps
        // registry order (`crate::start_order`).
        let mut order = StartOrder::new(checks.checks(), jobs > 1);
        let mut waited: Option<OwnedSemaphorePermit> = None;
        loop {
            while open && order.peek(loaded).is_some() {
                let Some(slot) = waited
                    .take()
                    .or_else(|| Arc::clone(&slots).try_acquire_owned().ok())
                else {
                    break;
                };
                let Some((position, check)) = order.pop(loaded) else {
                    break;
                };
                // One job keeps the caller's live case count, cleared
                // before each check; parallel checks each count their own
                // (for their timeout messages).
                let progress = if jobs == 1 {
                    self.progress.clear();
                    self.progress.clone()
                } else {
                    CaseProgress::new()
                };
                observer.check_started(CheckStarted {
                    position,
                    total,
                    check,
                });
                let report = self.run_reported(check, ctx.clone(), progress, Arc::clone(&slots));
                running.push(async move {
                    let report = report.await;
                    drop(slot);
                    (position, report)
                });
            }
            let startable = open && order.peek(loaded).is_some();
            let done = tokio::select! {
                biased;
                corpus = load.as_mut(), if !loaded => {
                    ctx.corpus = corpus?;
                    (loaded, open) = (true, true);
                    // The checks that waited for the corpus take the
                    // load's slot before anything else can.
                    waited = load_slot.take().filter(|_| order.peek(true).is_some());
                    continue;
                }
                () = answered.as_mut(), if !open => {
                    open = true;
                    continue;
                }
                done = running.next(), if !running.is_empty() => done,
                slot = Arc::clone(&slots).acquire_owned(), if startable && waited.is_none() => {
                    waited = Some(slot.expect("the run's semaphore is never closed"));
                    continue;
                }
                else => None,
            };
            let Some((position, report)) = done else {
                break;
            };
            finished.insert(position, report);
            while let Some(mut report) = finished.remove(&reports.len()) {
                observer.check_finished(&mut report);
                reports.push(report);
            }
        }
        debug_assert!(order.is_empty(), "every check started");
        Ok(RunSummary {
            driver_id: ctx.factory.driver_id(),
            profile,
            reports,
            config: self.config,
            duration: started.elapsed(),
        })
    }
}

impl Runner {
    /// The base of `check`'s budget: the timeout, and for a property check
    /// at least [`PROPERTY_TIME_PER_CASE`] per case, so that `--cases 5000`
    /// is not cut short by a limit sized for the default case count. The
    /// base is a function of the check and the configuration alone,
    /// never of how fast earlier checks ran; the check's requests add to
    /// it as they are made ([`Runner::budget_after`]).
    fn budget(&self, check: &crate::Check) -> Duration {
        match check.family {
            crate::Family::Property => self.timeout.max(PROPERTY_TIME_PER_CASE * self.config.cases),
            _ => self.timeout,
        }
    }

    /// [`Runner::run_one`], timed, as its report.
    async fn run_reported(
        &self,
        check: &crate::Check,
        ctx: CheckContext,
        progress: CaseProgress,
        slots: Arc<Semaphore>,
    ) -> CheckReport {
        let t0 = Instant::now();
        let noise = NoiseLog::new();
        let outcome = self
            .run_one(check, ctx, (progress, noise.clone()), slots)
            .await;
        CheckReport {
            id: check.id,
            family: check.family,
            description: check.description,
            outcome,
            duration: t0.elapsed(),
            score_noise: noise.largest(),
        }
    }

    /// Runs `check` on a thread of its own ([`Runner::run`]) and waits for
    /// its outcome while its driver keeps answering and its budget lasts.
    async fn run_one(
        &self,
        check: &crate::Check,
        ctx: CheckContext,
        (progress, noise): (CaseProgress, NoiseLog),
        slots: Arc<Semaphore>,
    ) -> Outcome {
        let meter = Meter::default();
        let ctx = CheckContext {
            factory: Arc::new(MeteredFactory::new(ctx.factory, meter.clone())),
            corpus: ctx.corpus.map(|c| Arc::new(c.metered(meter.clone()))),
            ..ctx
        };
        let handle = tokio::runtime::Handle::current();
        let body = progress::scope(
            progress.clone(),
            slots::scope(slots, noise::scope(noise, (check.run)(ctx))),
        );
        let (done_tx, mut done_rx) = oneshot::channel();
        let (cancel_tx, cancel_rx) = oneshot::channel::<()>();
        let started = Instant::now();
        let spawned = std::thread::Builder::new()
            .name(format!("check {}", check.id))
            .spawn(move || {
                let guarded = AssertUnwindSafe(body).catch_unwind();
                let outcome = handle.block_on(async move {
                    tokio::select! {
                        biased;
                        outcome = guarded => Some(outcome),
                        // Stopped, or the runner itself was dropped.
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
        let base = self.budget(check);
        let hang_after = self.call_timeout.saturating_add(CALL_TIMEOUT_GRACE);
        // Both deadlines only move later (requests add budget, answers
        // take calls off the waiting list) except when a call starts, and
        // a call starting after `now` cannot hang before `now +
        // hang_after` (a call's limit is at least `hang_after`): so waking
        // at the earliest of the two and that, and looking again, is
        // exact. Waking at each call's start instead was a thread switch
        // per driver call (about 28,000 in the main job).
        let stopped = loop {
            let now = Instant::now();
            let budget = self.budget_after(base, meter.units());
            let hang_at = meter
                .first_to_hang(hang_after)
                .map(|(_, _, deadline)| deadline);
            let ends_at = later(started, budget);
            let wake = hang_at
                .map_or(ends_at, |h| h.min(ends_at))
                .min(later(now, hang_after));
            let finished = tokio::time::timeout_at(wake.into(), &mut done_rx).await;
            match finished {
                Ok(Ok(Ok(outcome))) => return meter.attribute(outcome),
                Ok(Ok(Err(payload))) => {
                    return Outcome::fail(format!(
                        "check panicked: {}",
                        panic_message(payload.as_ref())
                    ))
                }
                Ok(Err(_gone)) => return Outcome::fail("check thread ended without an outcome"),
                Err(_elapsed) => {}
            }
            let now = Instant::now();
            if let Some((call, since, deadline)) = meter.first_to_hang(hang_after) {
                if now >= deadline {
                    let limit = match call.units {
                        1 => format!("{:?}", self.call_timeout),
                        n => format!("{:?} per entry, {n} entries", self.call_timeout),
                    };
                    break Outcome::fail(format!(
                        "the driver hung: {call} got no answer in {:.1?}, past the per-call limit \
                         of {limit} ({} earlier calls of the check were answered); --call-timeout \
                         SECS raises the limit",
                        now - since,
                        meter.answered()
                    ));
                }
            }
            let budget = self.budget_after(base, meter.units());
            if now >= later(started, budget) {
                break Outcome::Timeout(self.timeout_message(
                    check,
                    (&meter, &progress),
                    base,
                    now - started,
                ));
            }
        };
        // Cancels a check that is waiting; one whose thread is blocked
        // stops at its next `.await`, whenever that is.
        let _ = cancel_tx.send(());
        stopped
    }

    /// The budget of a check whose base is `base` once it has asked its
    /// driver for `units` requests.
    fn budget_after(&self, base: Duration, units: u64) -> Duration {
        let units = u32::try_from(units).unwrap_or(u32::MAX);
        base.saturating_add(self.allowance.saturating_mul(units))
    }

    /// `ID ran past its budget of 12s (10s, plus 1s for each of 2
    /// requests): its driver answered 2 calls (0.17 per second) …;
    /// --timeout SECS raises the budget`, `elapsed` after the check
    /// started.
    fn timeout_message(
        &self,
        check: &crate::Check,
        (meter, progress): (&Meter, &CaseProgress),
        base: Duration,
        elapsed: Duration,
    ) -> String {
        let units = meter.units();
        let answered = meter.answered();
        let cases = progress
            .get()
            .filter(|&(done, _)| done > 0)
            .map(|(done, all)| format!(", and {done} of {all} property cases had passed"))
            .unwrap_or_default();
        let work = match meter.oldest_waiting() {
            None if units == 0 => {
                "the check made no request of its driver, so it is the check itself that ran \
                 this long"
                    .to_owned()
            }
            waiting => {
                let rate = answered as f64 / elapsed.as_secs_f64().max(f64::EPSILON);
                let waiting = waiting
                    .map(|(call, since)| {
                        format!(
                            ", and {call} had waited {:.1?} for its answer",
                            since.elapsed()
                        )
                    })
                    .unwrap_or_default();
                format!(
                    "its driver answered {answered} {} ({rate:.2} per second){waiting}, none \
                     unanswered past the per-call limit: slow, not hung, so no rule was found broken",
                    if answered == 1 { "call" } else { "calls" }
                )
            }
        };
        let requests = if units == 1 {
            "the 1 request".to_owned()
        } else {
            format!("each of {units} requests")
        };
        format!(
            "{} ran past its budget of {:?} ({base:?}, plus {:?} for {requests}): \
             {work}{cases}; --timeout SECS raises the budget",
            check.id,
            self.budget_after(base, units),
            self.allowance,
        )
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

/// `at + after`, or a deadline a century away when that is past what an
/// [`Instant`] holds (`--timeout` and `--call-timeout` take any `u64`).
pub(crate) fn later(at: Instant, after: Duration) -> Instant {
    const NEVER: Duration = Duration::from_secs(100 * 365 * 24 * 60 * 60);
    at.checked_add(after.min(NEVER))
        .or_else(|| at.checked_add(NEVER))
        .unwrap_or(at)
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

    async fn run_all(jobs: usize) -> (RunSummary, Duration) {
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
            .with_jobs(jobs)
            .run(factory, None, |_| {})
            .await;
        (summary, t0.elapsed())
    }

    fn assert_isolated(summary: &RunSummary, elapsed: Duration) {
        let no_request = |id: &str| {
            format!("{id} ran past its budget of 300ms (300ms, plus 1s for each of 0 requests): ")
        };
        let outcomes: Vec<_> = summary
            .reports
            .iter()
            .map(|r| (r.id, r.outcome.label()))
            .collect();
        assert_eq!(
            outcomes,
            [
                ("t.blocks", "timeout"),
                ("t.waits", "timeout"),
                ("t.cases", "timeout"),
                ("t.panics", "fail"),
                ("t.passes", "pass"),
            ]
        );
        let message = |i: usize| summary.reports[i].outcome.message().unwrap_or_default();
        for (i, id) in [(0, "t.blocks"), (1, "t.waits")] {
            assert!(message(i).starts_with(&no_request(id)), "{}", message(i));
            assert!(
                message(i).ends_with(
                    ": the check made no request of its driver, so it is the check itself that \
                     ran this long; --timeout SECS raises the budget"
                ),
                "{}",
                message(i)
            );
        }
        assert!(
            message(2).starts_with(&no_request("t.cases")),
            "{}",
            message(2)
        );
        assert!(
            message(2).ends_with(
                "ran this long, and 12 of 64 property cases had passed; --timeout SECS raises \
                 the budget"
            ),
            "{}",
            message(2)
        );
        assert_eq!(message(3), "check panicked: the driver unwrapped a None");
        assert_eq!(summary.failed(), 4);
        assert_eq!(summary.timed_out(), 3);
        assert_eq!(summary.closing_line(), "1 passed, 1 failed, 3 timed out");
        assert!(
            elapsed < Duration::from_millis(2_500),
            "the run took {elapsed:?}"
        );
    }

    /// Opens a driver and makes 20 requests of it.
    fn twenty_requests(ctx: CheckContext) -> crate::CheckFuture {
        Box::pin(async move {
            let store = match ctx.factory.open().await {
                Ok(s) => s,
                Err(e) => return Outcome::fail(e.to_string()),
            };
            for n in 0..20 {
                if let Err(e) = store.get("global", &format!("k{n}")).await {
                    return Outcome::fail(e.to_string());
                }
            }
            Outcome::Pass
        })
    }

    fn slow_factory(delay: Duration) -> Arc<dyn DriverFactory> {
        Arc::new(FnFactory::new("slow", move || {
            Ok(Box::new(tinymemory_doubles::Latency::new(
                ReferenceDriver::new(),
                tinymemory_doubles::Pause::new(tinymemory_doubles::Delay::Fixed(delay)),
            )) as _)
        }))
    }

    /// 20 gets of 40 ms each take at least 800 ms, far past a 300 ms
    /// timeout; with 100 ms allowed per request (the open counts too) the
    /// budget is 2.4 s, and the check passes. Without the allowance (a
    /// fixed budget, as before) the same check times out, and says how
    /// fast the driver was.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_slow_driver_that_keeps_answering_passes() {
        let registry = Registry::from_checks(vec![check("t.slow", twenty_requests)]);
        let runner = |allowance| {
            Runner::new(registry.clone())
                .with_timeout(Duration::from_millis(300))
                .with_request_allowance(allowance)
        };
        let factory = || slow_factory(Duration::from_millis(40));
        let summary = runner(Duration::from_millis(100))
            .run(factory(), None, |_| {})
            .await;
        assert_eq!(summary.reports[0].outcome, Outcome::Pass);
        assert!(summary.reports[0].duration >= Duration::from_millis(800));

        let summary = runner(Duration::ZERO).run(factory(), None, |_| {}).await;
        let Outcome::Timeout(message) = &summary.reports[0].outcome else {
            panic!("{:?}", summary.reports[0].outcome);
        };
        assert!(
            message
                .starts_with("t.slow ran past its budget of 300ms (300ms, plus 0ns for each of "),
            "{message}"
        );
        assert!(message.contains(" per second)"), "{message}");
        assert!(
            message.ends_with(
                ", none unanswered past the per-call limit: slow, not hung, so no rule was found \
                 broken; --timeout SECS raises the budget"
            ),
            "{message}"
        );
    }

    /// A provider whose `recall` never answers, awaiting or blocking
    /// (`hangs`), and whose every `store` takes `store_time` (its
    /// `store_many` is the trait's default: one `store` per entry).
    struct Scripted {
        blocks: bool,
        hangs: bool,
        store_time: Duration,
    }

    #[async_trait::async_trait]
    impl tinymemory_api::MemoryProvider for Scripted {
        fn driver_id(&self) -> &str {
            "hangs"
        }
        async fn store(
            &self,
            _: &str,
            _: &str,
            _: &str,
            _: tinymemory_api::MemoryCategory,
            _: Option<&str>,
            _: tinymemory_api::MemoryTaint,
        ) -> Result<(), tinymemory_api::MemoryError> {
            tokio::time::sleep(self.store_time).await;
            Ok(())
        }
        async fn get(
            &self,
            _: &str,
            _: &str,
        ) -> Result<Option<tinymemory_api::MemoryEntry>, tinymemory_api::MemoryError> {
            Ok(None)
        }
        async fn forget(&self, _: &str, _: &str) -> Result<bool, tinymemory_api::MemoryError> {
            Ok(false)
        }
        async fn list(
            &self,
            _: Option<&str>,
            _: Option<&tinymemory_api::MemoryCategory>,
            _: Option<&str>,
        ) -> Result<Vec<tinymemory_api::MemoryEntry>, tinymemory_api::MemoryError> {
            Ok(Vec::new())
        }
        async fn namespaces(
            &self,
        ) -> Result<Vec<tinymemory_api::NamespaceSummary>, tinymemory_api::MemoryError> {
            Ok(Vec::new())
        }
        async fn recall(
            &self,
            _: &str,
            _: usize,
            _: &tinymemory_api::RecallOptions,
        ) -> Result<Vec<tinymemory_api::MemoryEntry>, tinymemory_api::MemoryError> {
            if !self.hangs {
            } else if self.blocks {
                std::thread::sleep(Duration::from_secs(4));
            } else {
                std::future::pending::<()>().await;
            }
            Ok(Vec::new())
        }
    }

    fn recalls_once(ctx: CheckContext) -> crate::CheckFuture {
        Box::pin(async move {
            let store = match ctx.factory.open().await {
                Ok(s) => s,
                Err(e) => return Outcome::fail(e.to_string()),
            };
            let _ = store.get("a:b", "k").await;
            let opts = tinymemory_api::RecallOptions {
                namespace: Some("a:b".to_owned()),
                ..tinymemory_api::RecallOptions::default()
            };
            let _ = store.recall("anything", 5, &opts).await;
            Outcome::Pass
        })
    }

    /// A call that gets no answer fails the check naming the call, after
    /// the per-call limit and its grace, well before the base budget (60
    /// s), whether the driver awaits forever or blocks its thread.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_hung_call_fails_naming_the_call() {
        for blocks in [false, true] {
            let registry = Registry::from_checks(vec![check("t.hangs", recalls_once)]);
            let factory = Arc::new(FnFactory::new("hangs", move || {
                Ok(Box::new(Scripted {
                    blocks,
                    hangs: true,
                    store_time: Duration::ZERO,
                }) as _)
            }));
            let summary = Runner::new(registry)
                .with_call_timeout(Duration::from_millis(200))
                .run(factory, None, |_| {})
                .await;
            let report = &summary.reports[0];
            let Outcome::Fail(failure) = &report.outcome else {
                panic!("{:?}", report.outcome);
            };
            assert!(
                failure.message.starts_with(
                    "the driver hung: `recall` (namespace \"a:b\") got no answer in 1."
                ),
                "{}",
                failure.message
            );
            assert!(
                failure.message.ends_with(
                    ", past the per-call limit of 200ms (2 earlier calls of the check were \
                     answered); --call-timeout SECS raises the limit"
                ),
                "{}",
                failure.message
            );
            assert!(
                report.duration < Duration::from_secs(3),
                "{:?}",
                report.duration
            );
        }
    }

    fn stores_twenty(ctx: CheckContext) -> crate::CheckFuture {
        Box::pin(async move {
            let store = match ctx.factory.open().await {
                Ok(s) => s,
                Err(e) => return Outcome::fail(e.to_string()),
            };
            let batch: Vec<tinymemory_api::NewEntry> = (0..20)
                .map(|i| tinymemory_api::NewEntry::new("a:b", format!("k{i}"), "text"))
                .collect();
            match store.store_many(&batch).await {
                Ok(()) => Outcome::Pass,
                Err(e) => Outcome::fail(e.to_string()),
            }
        })
    }

    /// A batch gets the per-call limit once per entry: a driver without
    /// its own `store_many` is sent one `store` per entry, each well
    /// within the limit, and is slow (3 s for 20), not hung (a fresh
    /// user's tantivy store failed as hung at 30 s into 3,000 entries).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_batch_of_calls_each_within_the_limit_is_not_hung() {
        let registry = Registry::from_checks(vec![check("t.batch", stores_twenty)]);
        let factory = Arc::new(FnFactory::new("slow-stores", || {
            Ok(Box::new(Scripted {
                blocks: false,
                hangs: false,
                store_time: Duration::from_millis(150),
            }) as _)
        }));
        let summary = Runner::new(registry)
            .with_call_timeout(Duration::from_millis(200))
            .run(factory, None, |_| {})
            .await;
        assert_eq!(summary.reports[0].outcome, Outcome::Pass);
        assert!(summary.reports[0].duration >= Duration::from_secs(3));
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
            .map(|r| (r.id, r.outcome.label()))
            .collect();
        assert_eq!(outcomes, [("t.property", "pass"), ("t.example", "timeout")]);
    }

    #[tokio::test]
    async fn a_check_blocking_its_thread_times_out_on_a_current_thread_runtime() {
        let (summary, elapsed) = run_all(1).await;
        assert_isolated(&summary, elapsed);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_check_blocking_its_thread_times_out_on_a_multi_thread_runtime() {
        let (summary, elapsed) = run_all(1).await;
        assert_isolated(&summary, elapsed);
    }

    /// Records each event as `+id` (started) or `-id` (finished), and
    /// adds to every finished report's failure message.
    #[derive(Default)]
    struct Events(Vec<String>);

    impl RunObserver for Events {
        fn load_progress(&mut self, done: usize, total: usize) {
            self.0.push(format!("load {done}/{total}"));
        }

        fn check_started(&mut self, started: CheckStarted<'_>) {
            assert_eq!(started.total, 5);
            self.0
                .push(format!("+{} {}", started.check.id, started.position));
        }

        fn check_finished(&mut self, report: &mut CheckReport) {
            if let Outcome::Fail(f) = &mut report.outcome {
                f.message.push_str(" [seen]");
            }
            self.0.push(format!("-{}", report.id));
        }
    }

    async fn observe(jobs: usize) -> (RunSummary, Vec<String>) {
        let registry = Registry::from_checks(
            ["t.a", "t.b", "t.c", "t.d"]
                .into_iter()
                .map(|id| check(id, passes))
                .chain([check("t.panics", panics)])
                .collect(),
        );
        let factory = Arc::new(FnFactory::new("reference", || {
            Ok(Box::new(ReferenceDriver::new()) as _)
        }));
        let mut events = Events::default();
        let summary = Runner::new(registry)
            .with_jobs(jobs)
            .run_observed(factory, None, &mut events)
            .await;
        (summary, events.0)
    }

    /// One job: each check starts after the one before has finished, and
    /// what the observer adds to a report is in the summary.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_observer_sees_each_check_start_then_finish() {
        let (summary, events) = observe(1).await;
        assert_eq!(
            events,
            [
                "+t.a 0",
                "-t.a",
                "+t.b 1",
                "-t.b",
                "+t.c 2",
                "-t.c",
                "+t.d 3",
                "-t.d",
                "+t.panics 4",
                "-t.panics"
            ]
        );
        assert_eq!(
            summary.reports[4].outcome.message(),
            Some("check panicked: the driver unwrapped a None [seen]")
        );
    }

    /// Three jobs: every check starts before it finishes, three start at
    /// once, and they finish in registry order.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn parallel_checks_finish_in_registry_order() {
        let (_, events) = observe(3).await;
        assert_eq!(&events[..3], ["+t.a 0", "+t.b 1", "+t.c 2"]);
        let finished: Vec<&str> = events.iter().filter_map(|e| e.strip_prefix('-')).collect();
        assert_eq!(finished, ["t.a", "t.b", "t.c", "t.d", "t.panics"]);
        for id in finished {
            let start = events
                .iter()
                .position(|e| e.starts_with(&format!("+{id} ")));
            let end = events.iter().position(|e| *e == format!("-{id}"));
            assert!(start < end, "{events:?}");
        }
    }

    /// Timeouts, a panic and a pass among checks run three at a time: the
    /// same outcomes and messages, in registry order, as one at a time.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn parallel_checks_time_out_and_report_as_sequential_ones() {
        let (summary, elapsed) = run_all(3).await;
        assert_isolated(&summary, elapsed);
    }
}
