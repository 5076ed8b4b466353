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
//! verdict and a command that reproduces it are a note of the failure
//! (`FailureNote::rerun`), which every report format prints after the
//! message; the message, and so a bundle, stays as the check wrote it. In-process drivers get a fresh store
//! per check and nothing else, so they are not rerun.
//!
//! One rerun is one sample of a store that may fail now and then, so a
//! rerun that goes against the run (the check passes alone) or names a
//! cause (it fails after an earlier check) is repeated before it is
//! believed, and one that fails another way than the run did decides
//! nothing ([`rerun`]). All of them together keep to `--rerun-budget`.
//!
//! Each rerun costs a driver start-up. For a driver whose processes are
//! stores of their own (`independent_stores`), the failing checks are
//! decided side by side, up to `--jobs` at once, on processes started
//! ahead ([`ahead`]), so start-ups overlap one another and the reruns; the
//! notes are the same, in the same order, whichever finishes first.

use std::time::Duration;

use futures::StreamExt as _;

use tinymemory_conformance::report::{FailureNote, NoteKind};
use tinymemory_conformance::{Failure, Family, Outcome, RunSummary};

use self::rerun::{Leftover, Reruns, Try};
use super::plan::RunPlan;
use super::reproduce::Reproduce;
use crate::console::Console;

mod ahead;
mod rerun;

/// The most failing checks explained in one run: past them a run is
/// broken more widely than by order.
const MAX_EXPLAINED: usize = 3;

/// The most earlier checks tried one at a time in front of a failure.
const MAX_SINGLE_TRIES: usize = 12;

/// How many reruns in a row must agree before a rerun that goes against
/// the run (the check passes alone) or names a cause (it fails after an
/// earlier check) is believed: one sample of a store that fails now and
/// then would name a different cause each run.
const REPEATS: usize = 3;

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
    /// The same rerun failed one time and passed another: `failed` of
    /// `tries` reruns failed as the run did.
    NowAndThen { failed: usize, tries: usize },
    /// A rerun ended otherwise than by the check passing or failing as in
    /// the run: why.
    Undecided(String),
    /// The budget ran out first.
    OutOfBudget,
}

/// Reruns the failing checks of an exec driver alone, and adds what each
/// rerun found to its failure as a note ([`NoteKind::Rerun`], or
/// [`NoteKind::NotRerun`] past the first [`MAX_EXPLAINED`]); returns the
/// ids of the checks it added a note to. Does nothing unless the plan
/// reruns ([`RunPlan::reruns`]). `independent` is whether the driver's
/// `hello` declared `independent_stores`: its checks are then decided up
/// to `--jobs` at once, each rerun on a process started ahead; else one
/// after another, each rerun's process started once every process before
/// it has ended.
pub(crate) async fn explain(
    plan: &RunPlan,
    summary: &mut RunSummary,
    console: &Console,
    independent: bool,
) -> Vec<&'static str> {
    let mut explained = Vec::new();
    let Some(budget) = plan.reruns else {
        return explained;
    };
    let failing: Vec<usize> = summary
        .reports
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.outcome, Outcome::Fail(_)) && r.family != Family::Corpus)
        .map(|(i, _)| i)
        .collect();
    for &i in failing.iter().skip(MAX_EXPLAINED) {
        explained.push(summary.reports[i].id);
        if let Outcome::Fail(f) = &mut summary.reports[i].outcome {
            f.notes.push(FailureNote::new(
                NoteKind::NotRerun,
                format!(
                    "(not rerun alone: only the first {MAX_EXPLAINED} failures of a run are; \
                     run this check alone with --jobs 1 to tell whether it depends on the \
                     checks before it)"
                ),
            ));
        }
    }
    let asked: Vec<Asked> = failing
        .into_iter()
        .take(MAX_EXPLAINED)
        .filter_map(|i| {
            let Outcome::Fail(original) = &summary.reports[i].outcome else {
                return None;
            };
            Some(Asked {
                index: i,
                id: summary.reports[i].id,
                earlier: summary.reports[..i]
                    .iter()
                    .filter(|r| r.family != Family::Corpus)
                    .map(|r| r.id)
                    .collect(),
                original: original.clone(),
            })
        })
        .collect();
    if asked.is_empty() {
        return explained;
    }
    let at_once = if independent {
        plan.jobs.clamp(1, asked.len())
    } else {
        1
    };
    // One process starting ahead per check being decided: the next
    // rerun's, while the current one runs.
    let reruns = Reruns::new(plan, budget, independent, at_once);
    let starts: Vec<&'static str> = asked.iter().map(|a| a.id).collect();
    let rerunning = |id: &str| {
        console.line(&format!(
            "rerunning {id} alone on a fresh driver process (--no-rerun skips this)"
        ));
    };
    starts.iter().take(at_once).for_each(|id| rerunning(id));
    // `buffered` yields in the checks' order and starts the next check
    // when the oldest is taken, so the console's lines and the notes do
    // not depend on which rerun finished first.
    let mut decided = futures::stream::iter(asked.into_iter().map(|a| decide(&reruns, a)))
        .buffered(at_once)
        .enumerate();
    while let Some((k, (index, id, verdict, tally))) = decided.next().await {
        let reproduce = reproduce_ids(id, &verdict).map(|ids| Reproduce::of(plan).run(&ids));
        let mut said = describe(budget, &verdict, &tally, reproduce.as_deref());
        if let Some(left) = tally
            .leftover
            .as_ref()
            .filter(|_| verdict != Verdict::FailsAlone)
        {
            said.push_str(&not_empty(left));
        }
        console.line(&format!("      {id}: {said}"));
        if let Some(next) = starts.get(k + at_once) {
            rerunning(next);
        }
        if let Outcome::Fail(f) = &mut summary.reports[index].outcome {
            f.notes
                .push(FailureNote::rerun(verdict.name(), said, reproduce));
            explained.push(id);
        }
    }
    explained
}

/// A failing check to rerun: its index in the run's reports, its id, the
/// checks that ran before it, and its failure in the run.
struct Asked {
    index: usize,
    id: &'static str,
    earlier: Vec<&'static str>,
    original: Failure,
}

/// What the reruns of one failing check found: its index and id, the
/// verdict, and the counts behind it.
async fn decide(reruns: &Reruns<'_>, asked: Asked) -> (usize, &'static str, Verdict, Counted) {
    let mut tally = Tally::new(reruns, asked.original);
    let verdict = verdict(&mut tally, asked.id, &asked.earlier).await;
    (asked.index, asked.id, verdict, tally.counted())
}

/// The checks, in order, whose run on one fresh process reproduces the
/// failure of `id` that `verdict` found; `None` when no run does.
fn reproduce_ids(id: &'static str, verdict: &Verdict) -> Option<Vec<&'static str>> {
    match verdict {
        Verdict::FailsAlone | Verdict::NowAndThen { .. } => Some(vec![id]),
        Verdict::After(before) => Some(vec![before, id]),
        Verdict::AfterAll(before) => {
            let mut ids = before.clone();
            ids.push(id);
            Some(ids)
        }
        Verdict::NotReproduced(_) | Verdict::Undecided(_) | Verdict::OutOfBudget => None,
    }
}

impl Verdict {
    /// The verdict's name in a report's rerun note
    /// ([`FailureNote::verdict`]).
    fn name(&self) -> &'static str {
        match self {
            Self::FailsAlone => "fails-alone",
            Self::After(_) => "after",
            Self::AfterAll(_) => "after-all",
            Self::NotReproduced(_) => "not-reproduced",
            Self::NowAndThen { .. } => "now-and-then",
            Self::Undecided(_) => "undecided",
            Self::OutOfBudget => "out-of-budget",
        }
    }
}

/// The reruns of one failing check: how many failed as the run did, of
/// how many decided, and what a fresh store held after `reset` the first
/// time it was not empty.
struct Tally<'a> {
    reruns: &'a Reruns<'a>,
    original: Failure,
    failed: usize,
    tries: usize,
    leftover: Option<Leftover>,
    starting: Duration,
}

/// What a [`Tally`] found besides the verdict: what a fresh store held
/// after `reset`, and how long its reruns waited for their processes to
/// start.
struct Counted {
    leftover: Option<Leftover>,
    starting: Duration,
}

impl<'a> Tally<'a> {
    fn new(reruns: &'a Reruns<'a>, original: Failure) -> Self {
        Self {
            reruns,
            original,
            failed: 0,
            tries: 0,
            leftover: None,
            starting: Duration::ZERO,
        }
    }

    fn counted(self) -> Counted {
        Counted {
            leftover: self.leftover,
            starting: self.starting,
        }
    }

    /// One rerun of `ids`, counted.
    async fn once(&mut self, ids: &[&'static str]) -> Try {
        let once = self.reruns.once(ids, &self.original).await;
        let read = once.read;
        self.starting += once.starting;
        if self.leftover.is_none() {
            self.leftover = once.leftover;
        }
        match read {
            Try::Fails => {
                self.failed += 1;
                self.tries += 1;
            }
            Try::Passes => self.tries += 1,
            Try::Undecided(_) | Try::OutOfBudget => {}
        }
        read
    }

    /// `Err` of the verdict a rerun that neither passed nor failed as the
    /// run did gives.
    fn settled(&self, read: &Try) -> Result<(), Verdict> {
        match read {
            Try::Fails | Try::Passes => Ok(()),
            Try::Undecided(why) => Err(Verdict::Undecided(why.clone())),
            Try::OutOfBudget => Err(Verdict::OutOfBudget),
        }
    }

    fn now_and_then(&self) -> Verdict {
        Verdict::NowAndThen {
            failed: self.failed,
            tries: self.tries,
        }
    }
}

/// Reruns the failing check `id` alone, then (when it passes alone) after
/// each of the `earlier` checks, nearest first, then after all of them.
/// A rerun that agrees with the run (it fails alone) is taken at once; one
/// that goes against it (it passes alone) or names a cause (it fails after
/// a check) only once [`REPEATS`] reruns agree.
async fn verdict(tally: &mut Tally<'_>, id: &'static str, earlier: &[&'static str]) -> Verdict {
    match verdict_or_stop(tally, id, earlier).await {
        Ok(v) | Err(v) => v,
    }
}

async fn verdict_or_stop(
    tally: &mut Tally<'_>,
    id: &'static str,
    earlier: &[&'static str],
) -> Result<Verdict, Verdict> {
    let alone = tally.once(&[id]).await;
    tally.settled(&alone)?;
    if alone == Try::Fails {
        return Ok(Verdict::FailsAlone);
    }
    for _ in 1..REPEATS {
        let again = tally.once(&[id]).await;
        tally.settled(&again)?;
        if again == Try::Fails {
            return Ok(tally.now_and_then());
        }
    }
    for &before in earlier.iter().rev().take(MAX_SINGLE_TRIES) {
        let after = tally.once(&[before, id]).await;
        tally.settled(&after)?;
        if after == Try::Fails {
            return confirmed(tally, &[before, id], Verdict::After(before)).await;
        }
    }
    if earlier.is_empty() {
        return Ok(Verdict::NotReproduced(Vec::new()));
    }
    let mut all = earlier.to_vec();
    all.push(id);
    let after_all = tally.once(&all).await;
    tally.settled(&after_all)?;
    if after_all == Try::Fails {
        return confirmed(tally, &all, Verdict::AfterAll(earlier.to_vec())).await;
    }
    Ok(Verdict::NotReproduced(earlier.to_vec()))
}

/// `verdict`, once `ids` has failed [`REPEATS`] times in a row (it just
/// failed once); [`Verdict::NowAndThen`] when one of the reruns passes.
async fn confirmed(
    tally: &mut Tally<'_>,
    ids: &[&'static str],
    verdict: Verdict,
) -> Result<Verdict, Verdict> {
    for _ in 1..REPEATS {
        let again = tally.once(ids).await;
        tally.settled(&again)?;
        if again == Try::Passes {
            return Ok(tally.now_and_then());
        }
    }
    Ok(verdict)
}

/// What a verdict adds when the fresh process's store was not empty after
/// `reset`: what the rerun could not rule out.
fn not_empty(left: &Leftover) -> String {
    format!(
        "\n  (the fresh process's store was not empty after reset: it held {}, left in the \
         database the driver's processes share, which may explain a count or a hit of the \
         failure; a store must be empty after reset, store.opens_empty)",
        held(left)
    )
}

/// `5 entries in namespaces "a", "b"`.
fn held(left: &Leftover) -> String {
    let names: Vec<String> = left
        .namespaces
        .iter()
        .map(|n| tinymemory_conformance::report::visible(&format!("{n:?}")).into_owned())
        .collect();
    format!(
        "{} {} in {} {}",
        left.entries,
        if left.entries == 1 {
            "entry"
        } else {
            "entries"
        },
        if names.len() == 1 {
            "namespace"
        } else {
            "namespaces"
        },
        names.join(", ")
    )
}

/// The sentence of a verdict's note, with `reproduce`, the command that
/// reproduces the failure ([`reproduce_ids`]), and what `counted` found.
fn describe(
    budget: Duration,
    verdict: &Verdict,
    counted: &Counted,
    reproduce: Option<&str>,
) -> String {
    let leftover = counted.leftover.as_ref();
    let command = reproduce.unwrap_or_default();
    match verdict {
        Verdict::FailsAlone if leftover.is_some() => format!(
            "fails alone too, on a fresh driver process, but not on an empty store: after \
             reset it held {}, left in the database the driver's processes share (by the checks \
             before it, or an earlier run), so they are not ruled out as the cause: those \
             entries may explain a count or a hit of the failure (a store must be empty after \
             reset, store.opens_empty); reproduce: {}",
            leftover.map(held).unwrap_or_default(),
            command
        ),
        Verdict::FailsAlone => format!(
            "fails alone too, on a fresh driver process: the checks before it are not the \
             cause; reproduce: {command}"
        ),
        Verdict::After(before) => format!(
            "passes alone, on a fresh driver process, and fails after {before} on the same \
             process: {before} leaves state in the engine that reset does not clear (a query \
             plan, a cache, an index's shape), which a store must not depend on; reproduce: \
             {command}"
        ),
        Verdict::AfterAll(before) => {
            format!(
                "passes alone, on a fresh driver process, and after each of the {} checks \
                 nearest before it, but fails after all {} checks that ran before it on the same \
                 process: their state adds up in the engine (reset does not clear it); \
                 reproduce: {command}",
                MAX_SINGLE_TRIES.min(before.len()),
                before.len(),
            )
        }
        Verdict::NotReproduced(before) => format!(
            "passes alone, on a fresh driver process, and after the {} checks that ran before \
             it: the failure depends on what no rerun repeats (timing, other processes, or state \
             older than the run)",
            before.len()
        ),
        Verdict::NowAndThen { failed, tries } => format!(
            "fails now and then, not reproducibly ({failed} of {tries} reruns on fresh driver \
             processes failed as the run did, alone or after the checks before it): no check \
             before it is the cause, and a store must answer the same every time; reproduce, \
             repeating until it fails: {command}"
        ),
        Verdict::Undecided(why) => format!(
            "the rerun could not decide: {}",
            tinymemory_conformance::report::visible(why)
        ),
        Verdict::OutOfBudget => format!(
            "not decided within the rerun budget ({}s for all the reruns of a run{}; \
             --rerun-budget SECS raises it)",
            budget.as_secs(),
            spent_starting(budget, counted.starting)
        ),
    }
}

/// What a verdict out of budget says of the start-ups: `, 41s of which its
/// reruns waited for fresh driver processes to start` when they took at
/// least half the budget (a slow start-up, not the store, ran it out),
/// else nothing. Whole seconds, rounded.
fn spent_starting(budget: Duration, starting: Duration) -> String {
    if starting.saturating_mul(2) < budget {
        return String::new();
    }
    format!(
        ", {}s of which its reruns waited for fresh driver processes to start",
        starting.as_secs_f64().round()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_out_of_budget_names_start_ups_that_took_half_of_it() {
        let secs = Duration::from_secs_f64;
        assert_eq!(spent_starting(secs(60.0), secs(29.9)), "");
        assert_eq!(
            spent_starting(secs(60.0), secs(30.0)),
            ", 30s of which its reruns waited for fresh driver processes to start"
        );
        assert_eq!(
            spent_starting(secs(60.0), secs(41.6)),
            ", 42s of which its reruns waited for fresh driver processes to start"
        );
    }
}
