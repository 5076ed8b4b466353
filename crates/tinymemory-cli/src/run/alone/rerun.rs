//! One rerun: a sequence of checks on a fresh driver process, within what
//! is left of the reruns' budget, read against the failure the run saw.
//!
//! A fresh process is not enough for a rerun to mean anything. The run's
//! processes may still hold what one process at a time may hold (a lock on
//! an embedded database) while they close, so each rerun of a driver whose
//! processes share one database waits for every driver process before it
//! to end; one declaring `independent_stores` takes a process started
//! ahead instead ([`Spares`]). A rerun that fails another way than
//! the run did (its store could not be opened, a call failed with another
//! kind of error) says nothing about the check. And a driver whose
//! processes share one database (it does not declare `independent_stores`)
//! may find there what earlier checks left, so the rerun looks at its store
//! after `reset` first.

use std::sync::Arc;
use std::time::Duration;

use tinymemory_conformance::{DriverError, DriverFactory, Failure, Outcome, Runner};
use tokio::time::Instant;

use super::super::plan::RunPlan;
use super::ahead::Spares;
use crate::driver;

/// The longest wait for the processes before a rerun to end: what ending
/// one takes at most (its stdin closed, `EXIT_GRACE` to exit, `SIGTERM`
/// and `TERM_GRACE`), and a second to be reaped. Those still running then
/// are killed.
const PROCESSES_END_WAIT: Duration = tinymemory_exec::EXIT_GRACE
    .saturating_add(tinymemory_exec::TERM_GRACE)
    .saturating_add(Duration::from_secs(1));

/// How one rerun ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Try {
    /// The check failed as it did in the run: on a driver error of the same
    /// kind and rule, or on a wrong answer both times.
    Fails,
    /// The check passed.
    Passes,
    /// The rerun tells nothing about the check: why (the driver could not
    /// be started, the check failed another way, ran out of time).
    Undecided(String),
    /// The reruns' budget ran out before or during it.
    OutOfBudget,
}

/// What a fresh process's store held right after `reset`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Leftover {
    /// Entries in all.
    pub(super) entries: u64,
    /// The namespaces holding them, as `namespaces()` listed them.
    pub(super) namespaces: Vec<String>,
}

/// The reruns of one run: its driver and limits, when their budget ends,
/// and, for a driver whose processes are stores of their own, the
/// processes started ahead for them.
pub(super) struct Reruns<'a> {
    plan: &'a RunPlan,
    deadline: Instant,
    spares: Option<Spares>,
}

/// What one rerun found, and how long it waited for its fresh process to
/// start (from when it asked for one until the process had answered
/// `hello`, or the budget ran out).
pub(super) struct Once {
    pub(super) read: Try,
    pub(super) leftover: Option<Leftover>,
    pub(super) starting: Duration,
}

impl<'a> Reruns<'a> {
    /// Reruns of `plan`'s checks, all of which end by `budget` from now.
    /// For a driver that declared `independent_stores`, `ahead` fresh
    /// processes start now, beside one another ([`Spares`]); one that did
    /// not gets none (`ahead` is then unused).
    pub(super) fn new(
        plan: &'a RunPlan,
        budget: Duration,
        independent: bool,
        ahead: usize,
    ) -> Self {
        let deadline = Instant::now() + budget;
        let spares = plan
            .driver
            .command()
            .filter(|_| independent)
            .map(|command| {
                Spares::start(
                    command.clone(),
                    plan.exec.clone(),
                    plan.call_timeout,
                    deadline,
                    ahead,
                )
            });
        Self {
            plan,
            deadline,
            spares,
        }
    }

    /// Runs `ids` in that order on one fresh driver process (one job, the
    /// run's seed, cases and timeouts, no corpus) and reads how the last
    /// of them ended against `original`, the failure the run saw. Cut at
    /// the budget's end. The process is one started ahead for a driver of
    /// independent stores, else one started once every driver process
    /// before it has ended. Also gives what the process's store held after
    /// `reset`, when the driver's processes share a database and it was
    /// not empty.
    pub(super) async fn once(&self, ids: &[&'static str], original: &Failure) -> Once {
        let out_of_budget = |starting| Once {
            read: Try::OutOfBudget,
            leftover: None,
            starting,
        };
        if Instant::now() >= self.deadline {
            return out_of_budget(Duration::ZERO);
        }
        if self.spares.is_none() {
            // A wait for processes to end, not for the driver to answer:
            // it may end past the budget by a driver's shutdown, at most.
            let _ =
                tokio::task::spawn_blocking(|| tinymemory_exec::shutdown(PROCESSES_END_WAIT)).await;
            if Instant::now() >= self.deadline {
                return out_of_budget(Duration::ZERO);
            }
        }
        let asked = Instant::now();
        let fresh = tokio::time::timeout_at(self.deadline, self.fresh()).await;
        let starting = asked.elapsed();
        let factory = match fresh {
            Err(_) => return out_of_budget(starting),
            Ok(Err(_)) if Instant::now() >= self.deadline => return out_of_budget(starting),
            Ok(Err(e)) => {
                return Once {
                    read: Try::Undecided(format!("the driver could not be started again: {e}")),
                    leftover: None,
                    starting,
                }
            }
            Ok(Ok(factory)) => factory,
        };
        let (read, leftover) =
            tokio::time::timeout_at(self.deadline, self.attempt(factory, ids, original))
                .await
                .unwrap_or((Try::OutOfBudget, None));
        Once {
            read,
            leftover,
            starting,
        }
    }

    /// A factory whose first process is fresh: one started ahead, or one
    /// started now, its `hello` held to the smaller of `--call-timeout`
    /// and the budget left, so it does not outlive the budget: a `hello`
    /// waited for on a blocking thread cannot be cut from outside, and
    /// the run would wait for it at its end.
    async fn fresh(&self) -> Result<Arc<dyn DriverFactory>, String> {
        if let Some(spares) = &self.spares {
            return spares
                .take()
                .await
                .map(|f| Arc::new(f) as Arc<dyn DriverFactory>)
                .map_err(|e| e.to_string());
        }
        let spec = self.plan.driver.clone();
        let config = self
            .plan
            .exec
            .clone()
            .with_request_timeout(self.call_timeout());
        // Opening an exec driver waits for its `hello` on this thread: off
        // the runtime, so the budget can cut it.
        match tokio::task::spawn_blocking(move || {
            driver::open_with(&spec, config).map(|o| o.factory)
        })
        .await
        {
            Ok(opened) => opened.map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The smaller of `--call-timeout` and what is left of the budget.
    fn call_timeout(&self) -> Duration {
        self.plan
            .call_timeout
            .min(self.deadline.saturating_duration_since(Instant::now()))
    }

    /// One rerun on `factory`, every call of it held to the smaller of its
    /// limit and the budget left. A try that ran out of budget this way is
    /// out of budget, not undecided.
    async fn attempt(
        &self,
        factory: Arc<dyn DriverFactory>,
        ids: &[&'static str],
        original: &Failure,
    ) -> (Try, Option<Leftover>) {
        let call_timeout = self.call_timeout();
        let (read, leftover) = self
            .attempt_within(factory, ids, original, call_timeout)
            .await;
        if Instant::now() >= self.deadline && read != Try::Passes && read != Try::Fails {
            return (Try::OutOfBudget, None);
        }
        (read, leftover)
    }

    async fn attempt_within(
        &self,
        factory: Arc<dyn DriverFactory>,
        ids: &[&'static str],
        original: &Failure,
        call_timeout: Duration,
    ) -> (Try, Option<Leftover>) {
        let leftover = if factory.independent_stores() {
            None
        } else {
            match leftover(factory.as_ref()).await {
                Ok(found) => found,
                Err(e) => {
                    return (
                        Try::Undecided(format!("failed to open a fresh store: {e}")),
                        None,
                    )
                }
            }
        };
        let Some(&last) = ids.last() else {
            return (Try::Passes, leftover);
        };
        let plan = self.plan;
        let summary = Runner::new(plan.registry.filter(|c| ids.contains(&c.id)))
            .with_profile(plan.profile)
            .with_timeout(plan.timeout)
            .with_call_timeout(call_timeout)
            .with_config(plan.config)
            .with_jobs(1)
            .run(Arc::clone(&factory), None, |_| {})
            .await;
        let read = summary.reports.iter().find(|r| r.id == last).map_or_else(
            || Try::Undecided(format!("{last} did not run")),
            |r| read(&r.outcome, original),
        );
        (read, leftover)
    }
}

/// What a fresh store of `factory` holds: `None` when it is empty.
async fn leftover(
    factory: &dyn DriverFactory,
) -> Result<Option<Leftover>, tinymemory_api::MemoryError> {
    let store = factory.open().await?;
    let namespaces = store.namespaces().await?;
    if namespaces.is_empty() {
        return Ok(None);
    }
    Ok(Some(Leftover {
        entries: namespaces.iter().map(|n| n.count).sum(),
        namespaces: namespaces.into_iter().map(|n| n.namespace).collect(),
    }))
}

/// How a rerun's outcome bears on the run's failure `original`.
fn read(outcome: &Outcome, original: &Failure) -> Try {
    match outcome {
        Outcome::Pass => Try::Passes,
        Outcome::Fail(f) if same_way(f, original) => Try::Fails,
        Outcome::Fail(f) => Try::Undecided(first_line(&f.message)),
        Outcome::Timeout(message) => Try::Undecided(first_line(message)),
        Outcome::Skip(_) | Outcome::NotServed => Try::Undecided(format!(
            "the check was skipped: {}",
            outcome.message().unwrap_or_default()
        )),
        other => Try::Undecided(format!("the check ended {other:?}")),
    }
}

/// Whether two failures of one check are the same: both wrong answers, or
/// both on a driver error of the same kind, rule and family.
fn same_way(a: &Failure, b: &Failure) -> bool {
    let how = |e: &DriverError| (e.kind.clone(), e.rule.clone(), e.family.clone());
    a.driver_error.as_ref().map(how) == b.driver_error.as_ref().map(how)
}

fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tinymemory_api::MemoryError;

    fn on(e: &MemoryError) -> Failure {
        Failure::new(e.to_string()).caused_by(e)
    }

    #[test]
    fn a_failure_counts_only_when_it_fails_the_same_way() {
        let wrong = Failure::new("expected 3, got 5");
        let backend = on(&MemoryError::fault("locked"));
        let invalid = on(&MemoryError::invalid("namespace.charset", "bad"));
        assert_eq!(
            read(&Outcome::Fail(Failure::new("expected 3, got 4")), &wrong),
            Try::Fails
        );
        assert_eq!(
            read(&Outcome::Fail(backend.clone()), &wrong),
            Try::Undecided("backend failure: locked".to_owned())
        );
        assert_eq!(
            read(&Outcome::Fail(on(&MemoryError::fault("other"))), &backend),
            Try::Fails
        );
        assert_eq!(
            read(&Outcome::Fail(backend), &invalid),
            Try::Undecided("backend failure: locked".to_owned())
        );
        assert_eq!(read(&Outcome::Pass, &invalid), Try::Passes);
    }
}
