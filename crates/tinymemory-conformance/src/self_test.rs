//! The self-test: the registry run against every mutant of the
//! `tinymemory_doubles` catalogue, each wrapped around fresh reference
//! drivers of its recall profile (no corpus), and each mutant's verdict
//! against what its catalogue entry records. `tinymemory-conformance
//! mutants` prints it as a table; the suite's own tests require every
//! verdict to be [`MutantVerdict::Caught`].
//!
//! A check that runs past its budget proves nothing either way, so it is
//! kept apart from the rule failures: a run where one timed out is
//! [`MutantVerdict::TimedOut`], never caught (a timed-out expected check
//! would otherwise pass for a catch) and never a surprise.

use std::sync::Arc;

use futures::stream::{self, Stream, StreamExt};
use tinymemory_doubles::Mutant;

use crate::{DriverFactory, FnFactory, Outcome, Registry, Runner};

/// What running the registry on one mutant showed.
#[derive(Debug, Clone)]
pub struct MutantRun {
    /// The mutant.
    pub mutant: &'static Mutant,
    /// The checks that failed a rule (`fail` or `unexpectedly-passing`),
    /// in registry order; not the timeouts.
    pub failed: Vec<&'static str>,
    /// The checks that ran past their budget, in registry order.
    pub timed_out: Vec<&'static str>,
    /// Why the run itself did not finish (the runner isolates a check's
    /// panic, so this is a panic of the runner or a runtime shutting
    /// down); `failed` and `timed_out` are then empty.
    pub error: Option<String>,
}

/// A [`MutantRun`] against the mutant's catalogue entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MutantVerdict {
    /// Exactly [`Mutant::expected_failures`] failed, and nothing timed out.
    Caught,
    /// [`Mutant::check`] did not fail: the mutant escaped the check named
    /// after it.
    Missed,
    /// [`Mutant::check`] failed, but the other failing checks differ from
    /// [`Mutant::also_caught_by`]: an overlap appeared or went away, and
    /// the catalogue entry must say so.
    Surprise,
    /// A check ran past its budget, so the run shows neither a catch nor
    /// a miss for it (a machine too loaded, or a check too slow).
    TimedOut,
}

impl MutantVerdict {
    /// The label of the `mutants` table: `caught`, `MISSED`, `SURPRISE`
    /// or `TIMEOUT` (upper case for every verdict that fails the table).
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Caught => "caught",
            Self::Missed => "MISSED",
            Self::Surprise => "SURPRISE",
            Self::TimedOut => "TIMEOUT",
        }
    }
}

impl MutantRun {
    /// The verdict: [`MutantVerdict::TimedOut`] when any check timed out,
    /// else the rule failures compared with the catalogue entry as sets.
    #[must_use]
    pub fn verdict(&self) -> MutantVerdict {
        if !self.timed_out.is_empty() {
            return MutantVerdict::TimedOut;
        }
        let mut got = self.failed.clone();
        got.sort_unstable();
        let mut want = self.mutant.expected_failures();
        want.sort_unstable();
        if got == want {
            MutantVerdict::Caught
        } else if got.contains(&self.mutant.check) {
            MutantVerdict::Surprise
        } else {
            MutantVerdict::Missed
        }
    }
}

/// Fresh reference drivers of `m`'s recall profile wrapped in `m`,
/// declaring that profile, with the driver id `mutant:NAME`.
#[must_use]
pub fn mutant_factory(m: &'static Mutant) -> Arc<dyn DriverFactory> {
    Arc::new(
        FnFactory::new(format!("mutant:{}", m.name), move || Ok(m.open())).with_profile(m.profile),
    )
}

/// Runs `registry` (its checks of `m`'s profile, under the default
/// [`Runner`]) against `m`, one check at a time.
pub async fn run_mutant(registry: Registry, m: &'static Mutant) -> MutantRun {
    let summary = Runner::new(registry)
        .run(mutant_factory(m), None, |_| {})
        .await;
    let of = |wanted: fn(&Outcome) -> bool| -> Vec<&'static str> {
        summary
            .reports
            .iter()
            .filter(|r| wanted(&r.outcome))
            .map(|r| r.id)
            .collect()
    };
    MutantRun {
        mutant: m,
        failed: of(|o| o.is_fail() && !matches!(o, Outcome::Timeout(_))),
        timed_out: of(|o| matches!(o, Outcome::Timeout(_))),
        error: None,
    }
}

/// Runs `registry` against each of `mutants`, at most `at_once` of them
/// at a time (at least 1), each on a task of its own, and yields their
/// runs in the order of `mutants` as they finish.
///
/// The bound keeps each check's wall time near its own: with every
/// mutant at once on a loaded machine, checks waited behind one another
/// past their budgets and the table reported timeouts as catches.
///
/// # Panics
///
/// Outside a Tokio runtime (the runs are spawned).
pub fn run_mutants(
    registry: Registry,
    mutants: &'static [Mutant],
    at_once: usize,
) -> impl Stream<Item = MutantRun> {
    stream::iter(mutants)
        .map(move |m| {
            let run = tokio::spawn(run_mutant(registry.clone(), m));
            async move {
                run.await.unwrap_or_else(|join| MutantRun {
                    mutant: m,
                    failed: Vec::new(),
                    timed_out: Vec::new(),
                    error: Some(join.to_string()),
                })
            }
        })
        .buffered(at_once.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ran(failed: &[&'static str], timed_out: &[&'static str]) -> MutantRun {
        MutantRun {
            mutant: tinymemory_doubles::mutant("forget-always-true").unwrap(),
            failed: failed.to_vec(),
            timed_out: timed_out.to_vec(),
            error: None,
        }
    }

    #[test]
    fn verdicts_compare_the_rule_failures_with_the_catalogue_entry() {
        let m = tinymemory_doubles::mutant("forget-always-true").unwrap();
        assert_eq!(
            m.expected_failures(),
            ["forget.idempotent", "model.differential"]
        );
        let exact = ["model.differential", "forget.idempotent"];
        assert_eq!(ran(&exact, &[]).verdict(), MutantVerdict::Caught);
        assert_eq!(ran(&[], &[]).verdict(), MutantVerdict::Missed);
        assert_eq!(
            ran(&["model.differential"], &[]).verdict(),
            MutantVerdict::Missed
        );
        assert_eq!(
            ran(&["forget.idempotent"], &[]).verdict(),
            MutantVerdict::Surprise
        );
        assert_eq!(
            ran(
                &["forget.idempotent", "model.differential", "store.upsert"],
                &[]
            )
            .verdict(),
            MutantVerdict::Surprise
        );
    }

    /// A timeout is no catch: not of the expected check, not beside an
    /// exact catch.
    #[test]
    fn a_timed_out_check_makes_the_verdict_a_timeout() {
        assert_eq!(
            ran(&["model.differential"], &["forget.idempotent"]).verdict(),
            MutantVerdict::TimedOut
        );
        assert_eq!(
            ran(
                &["forget.idempotent", "model.differential"],
                &["store.upsert"]
            )
            .verdict(),
            MutantVerdict::TimedOut
        );
        assert_eq!(
            [
                MutantVerdict::Caught,
                MutantVerdict::Missed,
                MutantVerdict::Surprise,
                MutantVerdict::TimedOut
            ]
            .map(MutantVerdict::label),
            ["caught", "MISSED", "SURPRISE", "TIMEOUT"]
        );
    }

    /// The runs come back in catalogue order whatever the bound, and a
    /// bound of 0 is taken as 1.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runs_come_back_in_the_order_given() {
        let all = tinymemory_doubles::mutants();
        let some = &all[..3];
        for at_once in [0, 1, 3] {
            let names: Vec<&str> = run_mutants(Registry::standard(), some, at_once)
                .map(|r| r.mutant.name)
                .collect()
                .await;
            assert_eq!(names, some.iter().map(|m| m.name).collect::<Vec<_>>());
        }
    }
}
