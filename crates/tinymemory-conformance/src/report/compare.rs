//! A report against a baseline: what newly fails, what was fixed, what
//! still fails.

use std::fmt::Write as _;

use tinymemory_api::RecallProfile;

use super::{OutcomeKind, Report};
use tinymemory_api::shown::shown;

/// One check in a [`Comparison`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compared {
    /// The check id.
    pub id: String,
    /// How it ended in the current report (`None`: not in it).
    pub now: Option<OutcomeKind>,
    /// Its message in the current report, else in the baseline.
    pub message: Option<String>,
}

/// The difference between a baseline report and a current one, each list
/// in the current report's run order (then the baseline's, for checks the
/// current report lacks).
///
/// A check *fails* when its outcome is `fail` or `unexpectedly-passing`.
/// A check that timed out (`timeout`) broke no rule, so it is neither a
/// failure of the baseline nor one now: it is listed in
/// [`Comparison::timed_out`], and fails the gate whatever the baseline
/// says, since no baseline can vouch for a check that did not finish.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Fails now, and did not fail in the baseline (or was not in it, or
    /// timed out in it).
    pub new_failures: Vec<Compared>,
    /// Ran past its time budget now: the gate fails, since whether it
    /// passes is unknown (raise the budget, `--timeout`).
    pub timed_out: Vec<Compared>,
    /// Failed in the baseline and fails now.
    pub still_failing: Vec<Compared>,
    /// Failed in the baseline and passes now (`pass` or
    /// `expected-failure`).
    pub fixed: Vec<Compared>,
    /// Failed in the baseline but was skipped now or is not in the current
    /// report: neither fixed nor failing.
    pub not_run: Vec<Compared>,
    /// The baseline's and the current report's driver ids, when they
    /// differ.
    pub different_drivers: Option<(String, String)>,
    /// The baseline's and the current report's recall profiles, when they
    /// differ: the two runs applied different checks, so a check of one
    /// profile only shows as "not run" or is absent.
    pub different_profiles: Option<(RecallProfile, RecallProfile)>,
    /// The baseline's and the current report's corpora
    /// ([`RunCorpus::describe`](super::RunCorpus::describe), `not recorded`
    /// for a report that does not say), when both say and they differ
    /// ([`RunCorpus::same_as`](super::RunCorpus::same_as)): the corpus
    /// checks measured other data.
    pub different_corpora: Option<(String, String)>,
}

impl Comparison {
    /// Compares `current` against `baseline`.
    #[must_use]
    pub fn between(baseline: &Report, current: &Report) -> Self {
        let failed_before = |id: &str| {
            baseline
                .checks
                .iter()
                .any(|c| c.id == id && c.outcome.is_rule_failure())
        };
        let mut cmp = Self::default();
        for c in &current.checks {
            let entry = Compared {
                id: c.id.clone(),
                now: Some(c.outcome.clone()),
                message: c
                    .outcome
                    .unknown_note()
                    .map(|note| match &c.message {
                        Some(m) => format!("{note}: {m}"),
                        None => note,
                    })
                    .or_else(|| c.message.clone())
                    .or_else(|| c.reason.clone()),
            };
            match (failed_before(&c.id), &c.outcome) {
                (_, OutcomeKind::Timeout) => cmp.timed_out.push(entry),
                (false, k) if k.is_fail() => cmp.new_failures.push(entry),
                (true, k) if k.is_fail() => cmp.still_failing.push(entry),
                (true, OutcomeKind::Skip) => cmp.not_run.push(entry),
                (true, _) => cmp.fixed.push(entry),
                (false, _) => {}
            }
        }
        for b in baseline
            .checks
            .iter()
            .filter(|b| b.outcome.is_rule_failure())
        {
            if !current.checks.iter().any(|c| c.id == b.id) {
                cmp.not_run.push(Compared {
                    id: b.id.clone(),
                    now: None,
                    message: b.message.clone().or_else(|| b.reason.clone()),
                });
            }
        }
        if baseline.run.driver_id != current.run.driver_id {
            cmp.different_drivers = Some((
                baseline.run.driver_id.clone(),
                current.run.driver_id.clone(),
            ));
        }
        if baseline.run.recall_profile != current.run.recall_profile {
            cmp.different_profiles =
                Some((baseline.run.recall_profile, current.run.recall_profile));
        }
        if let (Some(before), Some(now)) = (&baseline.run.corpus, &current.run.corpus) {
            if !before.same_as(now) {
                cmp.different_corpora = Some((before.describe(), now.describe()));
            }
        }
        cmp
    }

    /// `true` when a check fails that did not fail in the baseline, or a
    /// check timed out: the gate fails.
    #[must_use]
    pub fn has_new_failures(&self) -> bool {
        !self.new_failures.is_empty() || !self.timed_out.is_empty()
    }

    /// `baseline: N new failures, N still failing, N fixed[, N timed
    /// out][, N not run]`.
    #[must_use]
    pub fn summary_line(&self) -> String {
        let mut line = format!(
            "baseline: {} new {}, {} still failing, {} fixed",
            self.new_failures.len(),
            if self.new_failures.len() == 1 {
                "failure"
            } else {
                "failures"
            },
            self.still_failing.len(),
            self.fixed.len()
        );
        if !self.timed_out.is_empty() {
            let _ = write!(line, ", {} timed out", self.timed_out.len());
        }
        if !self.not_run.is_empty() {
            let _ = write!(line, ", {} not run", self.not_run.len());
        }
        line
    }

    /// The comparison as text: a note when the drivers, the recall
    /// profiles or the corpora differ, one line per
    /// compared check (`new failure   recall.limit: message`,
    /// `timed out ...`, `still failing ...`, `fixed ...`, `not run ...`),
    /// then
    /// [`Comparison::summary_line`]; every line ends with a newline.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some((before, now)) = &self.different_drivers {
            let _ = writeln!(
                out,
                "note: the baseline is a report on driver {:?}, this one on {:?}",
                shown(before),
                shown(now)
            );
        }
        if let Some((before, now)) = &self.different_profiles {
            let _ = writeln!(
                out,
                "note: the baseline ran under the {before} recall profile, this one under {now}: \
                 they apply different checks"
            );
        }
        if let Some((before, now)) = &self.different_corpora {
            let _ = writeln!(
                out,
                "note: the baseline measured the corpus {}, this run {}: the corpus checks \
                 measured other data",
                shown(before),
                shown(now)
            );
        }
        let groups = [
            ("new failure  ", &self.new_failures),
            ("timed out    ", &self.timed_out),
            ("still failing", &self.still_failing),
            ("fixed        ", &self.fixed),
            ("not run      ", &self.not_run),
        ];
        for (label, list) in groups {
            for c in list {
                let _ = write!(out, "{label}  {}", shown(&c.id));
                if let Some(m) = c.message.as_deref().and_then(|m| m.lines().next()) {
                    let _ = write!(out, ": {}", shown(m));
                }
                out.push('\n');
            }
        }
        out.push_str(&self.summary_line());
        out.push('\n');
        out
    }
}
