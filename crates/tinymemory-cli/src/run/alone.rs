//! A failure on a driver whose processes carry state from check to check,
//! rerun alone and, when it passes alone, traced to the earlier check that
//! makes it fail.
//!
//! An exec driver's process serves check after check, reset between them
//! (docs/protocol.md, "Lifecycle"): `reset` empties the store, but what the
//! engine learnt (a query plan, a cache, an index's shape, a leaked
//! handle) stays. A check failing after another check's writes changed the
//! engine passes when run alone, and the "this check alone" command a user
//! tries first then proves nothing. So each failing check of an exec
//! driver is run again on a fresh process of its own; when it passes
//! there, the checks that ran before it are tried in front of it, nearest
//! first, each in a fresh process, until one reproduces the failure. The
//! verdict and a command that reproduces it end the failure's message, so
//! every report format carries them. In-process drivers get a fresh store
//! per check and nothing else, so they are not rerun.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tinymemory_conformance::{Family, Outcome, RunSummary, Runner};

use super::plan::RunPlan;
use super::reproduce::Reproduce;
use crate::args::RunArgs;
use crate::console::Console;
use crate::driver;

/// The most failing checks explained in one run: past them a run is
/// broken more widely than by order.
const MAX_EXPLAINED: usize = 3;

/// The most earlier checks tried one at a time in front of a failure.
const MAX_SINGLE_TRIES: usize = 12;

/// The wall time all the reruns of a run may take together; what is not
/// settled by then says so.
const BUDGET: Duration = Duration::from_secs(60);

/// What a rerun alone found.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Verdict {
    /// It fails on a fresh process with nothing before it.
    FailsAlone,
    /// It passes alone and fails after this one earlier check.
    After(&'static str),
    /// It passes alone, passes after each of the nearest earlier checks,
    /// and fails after all of them together.
    AfterAll(Vec<&'static str>),
    /// It passes alone and after every earlier check together: its
    /// failure depends on something no rerun repeats (timing, or state
    /// older than the run).
    NotReproduced(Vec<&'static str>),
    /// The budget ran out first.
    Unsettled,
}

/// The environment variable that does what `--no-rerun` does, for a CI
/// job or a pytest session (`TINYMEMORY_NO_RERUN=1`).
const NO_RERUN_ENV: &str = "TINYMEMORY_NO_RERUN";

/// The messages of the failures [`explain`] added to, as the checks gave
/// them, by check id: what a regression bundle records, since its replay
/// runs the check alone and never reruns it.
pub(crate) type Originals = std::collections::HashMap<&'static str, String>;

/// Reruns the failing checks of an exec driver alone, and appends what
/// each rerun found to its failure's message; returns the messages as
/// they were. Does nothing for other drivers, with `--no-rerun` or with
/// [`NO_RERUN_ENV`] set to anything but empty or `0`.
pub(crate) async fn explain(
    args: &RunArgs,
    plan: &RunPlan,
    summary: &mut RunSummary,
    console: &Console,
) -> Originals {
    let mut originals = Originals::new();
    let env_off = std::env::var(NO_RERUN_ENV).is_ok_and(|v| !v.is_empty() && v != "0");
    if args.no_rerun || env_off || plan.driver.command().is_none() {
        return originals;
    }
    let started = Instant::now();
    let failing: Vec<usize> = summary
        .reports
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.outcome, Outcome::Fail(_)) && r.family != Family::Corpus)
        .map(|(i, _)| i)
        .collect();
    for &i in failing.iter().skip(MAX_EXPLAINED) {
        let id = summary.reports[i].id;
        if let Outcome::Fail(f) = &mut summary.reports[i].outcome {
            originals.insert(id, f.message.clone());
            f.message.push_str(&format!(
                "\n  (not rerun alone: only the first {MAX_EXPLAINED} failures of a run are; \
                 run this check alone with --jobs 1 to tell whether it depends on the checks \
                 before it)"
            ));
        }
    }
    for i in failing.into_iter().take(MAX_EXPLAINED) {
        let id = summary.reports[i].id;
        let earlier: Vec<&'static str> = summary.reports[..i]
            .iter()
            .filter(|r| r.family != Family::Corpus)
            .map(|r| r.id)
            .collect();
        console.line(&format!(
            "rerunning {id} alone on a fresh driver process (--no-rerun skips this)"
        ));
        let verdict = verdict(args, plan, id, &earlier, started).await;
        let said = describe(plan, id, &verdict);
        console.line(&format!(
            "      {id}: {}",
            said.trim_start_matches('\n').trim_start()
        ));
        if let Outcome::Fail(f) = &mut summary.reports[i].outcome {
            originals.insert(id, f.message.clone());
            f.message.push_str(&said);
        }
    }
    originals
}

async fn verdict(
    args: &RunArgs,
    plan: &RunPlan,
    id: &'static str,
    earlier: &[&'static str],
    started: Instant,
) -> Verdict {
    let within = || started.elapsed() < BUDGET;
    match fails(args, plan, &[id]).await {
        Some(true) => return Verdict::FailsAlone,
        Some(false) => {}
        None => return Verdict::Unsettled,
    }
    for &before in earlier.iter().rev().take(MAX_SINGLE_TRIES) {
        if !within() {
            return Verdict::Unsettled;
        }
        if fails(args, plan, &[before, id]).await == Some(true) {
            return Verdict::After(before);
        }
    }
    if earlier.is_empty() {
        return Verdict::NotReproduced(Vec::new());
    }
    if !within() {
        return Verdict::Unsettled;
    }
    let mut all = earlier.to_vec();
    all.push(id);
    match fails(args, plan, &all).await {
        Some(true) => Verdict::AfterAll(earlier.to_vec()),
        Some(false) => Verdict::NotReproduced(earlier.to_vec()),
        None => Verdict::Unsettled,
    }
}

/// Whether `id`, run last after `ids`' others in one fresh driver process
/// (one job, the run's seed, cases and timeouts, no corpus), fails;
/// `None` when the driver could not be started or the check did not end
/// in a pass or a failure.
async fn fails(args: &RunArgs, plan: &RunPlan, ids: &[&'static str]) -> Option<bool> {
    let opened = driver::open_with(&plan.driver, super::exec_config(args)).ok()?;
    let registry = plan.registry.filter(|c| ids.contains(&c.id));
    let summary = Runner::new(registry)
        .with_profile(plan.profile)
        .with_timeout(plan.timeout)
        .with_call_timeout(plan.call_timeout)
        .with_config(plan.config)
        .with_jobs(1)
        .run(Arc::clone(&opened.factory), None, |_| {})
        .await;
    let last = *ids.last()?;
    match &summary.reports.iter().find(|r| r.id == last)?.outcome {
        Outcome::Pass => Some(false),
        Outcome::Fail(_) => Some(true),
        _ => None,
    }
}

/// The sentence a verdict adds to the failure's message, with the command
/// that reproduces the failure.
fn describe(plan: &RunPlan, id: &'static str, verdict: &Verdict) -> String {
    let reproduce = Reproduce::of(plan);
    let command = |ids: &[&str]| reproduce.run(ids);
    match verdict {
        Verdict::FailsAlone => format!(
            "\n  fails alone too, on a fresh driver process: the checks before it are not the \
             cause; reproduce: {}",
            command(&[id])
        ),
        Verdict::After(before) => format!(
            "\n  passes alone, on a fresh driver process, and fails after {before} on the same \
             process: {before} leaves state in the engine that reset does not clear (a query \
             plan, a cache, an index's shape), which a store must not depend on; reproduce: {}",
            command(&[before, id])
        ),
        Verdict::AfterAll(before) => {
            let mut ids: Vec<&str> = before.clone();
            ids.push(id);
            format!(
                "\n  passes alone, on a fresh driver process, and after each of the {} checks \
                 nearest before it, but fails after all {} checks that ran before it on the same \
                 process: their state adds up in the engine (reset does not clear it); \
                 reproduce: {}",
                MAX_SINGLE_TRIES.min(before.len()),
                before.len(),
                command(&ids)
            )
        }
        Verdict::NotReproduced(before) => format!(
            "\n  passes alone, on a fresh driver process, and after the {} checks that ran before \
             it: the failure depends on what no rerun repeats (timing, other processes, or state \
             older than the run)",
            before.len()
        ),
        Verdict::Unsettled => "\n  (not rerun alone: the reruns' time budget was spent, or the \
                               driver could not be started again)"
            .to_owned(),
    }
}
