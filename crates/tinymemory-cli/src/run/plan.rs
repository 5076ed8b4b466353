//! The run a `run` command asks for, resolved once from its arguments
//! and the opened driver: the profile, the checks, the corpus, the jobs,
//! the outputs and every other setting the run reads (the reruns, the
//! exec limits, `--overwrite`), every conflict refused before a check
//! runs. Nothing after [`RunPlan::resolve`] reads the arguments again.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use tinymemory_api::RecallProfile;
use tinymemory_conformance::report::{RunCorpus, RunFilter};
use tinymemory_conformance::{
    DriverFactory, Family, Registry, Report, RunConfig, RunSummary, Shard,
};
use tinymemory_exec::ExecConfig;

use super::preflight::{Baseline, Outputs, Preflight};
use crate::args::{AllSkipped, RunArgs};
use crate::driver::{DriverSpec, Opened};
use crate::error::CliError;
use crate::select;

/// Whether and where from the corpus is loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CorpusPlan {
    /// `--no-corpus`: the corpus checks are skipped.
    Skipped,
    /// No corpus check is selected: the run does not pay for the load.
    Unneeded,
    /// Loaded from `--corpus DIR`, else the bundled corpus.
    Load(Option<PathBuf>),
}

/// `--shard K/N` and the whole selection it is a part of, which its
/// report names.
#[derive(Debug)]
pub(crate) struct ShardPlan {
    /// K/N.
    pub(crate) shard: Shard,
    /// The ids of every selected check, of every shard.
    pub(crate) selection: Vec<String>,
}

/// Everything a run does, decided before it starts.
#[derive(Debug)]
pub(crate) struct RunPlan {
    /// `--driver`.
    pub(crate) driver: DriverSpec,
    /// The opened driver, as the header names it.
    pub(crate) description: String,
    /// The profile the driver declares.
    pub(crate) declared: RecallProfile,
    /// `--profile`, if given.
    pub(crate) requested: Option<RecallProfile>,
    /// The profile the run holds the driver to: the one decision the
    /// selection, the runner and the baseline gate all use.
    pub(crate) profile: RecallProfile,
    /// The checks this run executes: the profile's, those `--check` and
    /// `--family` select, and of those the shard's part.
    pub(crate) registry: Registry,
    /// `--check` and `--family`, as the report records them.
    pub(crate) filter: Option<RunFilter>,
    /// `--shard K/N`.
    pub(crate) shard: Option<ShardPlan>,
    /// The corpus.
    pub(crate) corpus: CorpusPlan,
    /// Seed and cases.
    pub(crate) config: RunConfig,
    /// The base of each check's budget (`--timeout`).
    pub(crate) timeout: Duration,
    /// `--call-timeout`.
    pub(crate) call_timeout: Duration,
    /// How many checks run at once.
    pub(crate) jobs: usize,
    /// `--quiet`.
    pub(crate) quiet: bool,
    /// `--all-skipped`.
    pub(crate) all_skipped: AllSkipped,
    /// Where the results go.
    pub(crate) outputs: Outputs,
    /// `--baseline`, of the run's profile.
    pub(crate) baseline: Option<Baseline>,
    /// The limits of an exec driver's processes (`--call-timeout` per
    /// request), which the processes the reruns start alone share.
    pub(crate) exec: ExecConfig,
    /// `--overwrite`: a `sqlite:PATH` store holding entries may be loaded
    /// into.
    pub(crate) overwrite: bool,
    /// `--keep-going`: the checks run on a broken environment.
    pub(crate) keep_going: bool,
    /// The budget of all the reruns of failing checks alone
    /// (`--rerun-budget`), when they are rerun: an exec driver, without
    /// `--no-rerun` or [`NO_RERUN_ENV`] set.
    pub(crate) reruns: Option<Duration>,
}

/// The environment variable that does what `--no-rerun` does, for a CI
/// job or a pytest session (`TINYMEMORY_NO_RERUN=1`): set to anything but
/// empty or `0`.
pub(crate) const NO_RERUN_ENV: &str = "TINYMEMORY_NO_RERUN";

/// The limits of an exec driver's processes for `args`: `--call-timeout`
/// per request. The run's own processes and those its reruns start alone
/// share it.
pub(crate) fn exec_config(args: &RunArgs) -> ExecConfig {
    ExecConfig::default().with_request_timeout(Duration::from_secs(args.call_timeout))
}

/// `--rerun-budget` when the failing checks of `args`'s run are rerun
/// alone: an exec driver, unless `--no-rerun` or [`NO_RERUN_ENV`].
fn reruns(args: &RunArgs) -> Option<Duration> {
    let env_off = std::env::var(NO_RERUN_ENV).is_ok_and(|v| !v.is_empty() && v != "0");
    let on = !args.no_rerun && !env_off && args.driver.command().is_some();
    on.then(|| Duration::from_secs(args.rerun_budget))
}

impl RunPlan {
    /// The plan for `args` against the opened driver, in the order its
    /// refusals are checked: `--jobs`, the selection, `--shard`, a
    /// baseline of another profile. It opens no store (a `sqlite:PATH`
    /// store holding entries is refused when the corpus is loaded).
    ///
    /// # Errors
    ///
    /// A [`CliError::Usage`] naming the argument and why.
    pub(crate) fn resolve(
        args: &RunArgs,
        preflight: Preflight,
        opened: &Opened,
    ) -> Result<Self, CliError> {
        let Preflight { outputs, baseline } = preflight;
        let jobs = jobs(args, outputs.trace.is_some(), opened.factory.as_ref())?;
        let declared = opened.factory.recall_profile();
        let profile = args.profile.unwrap_or(declared);
        let (registry, filter) = select::select(
            &Registry::standard().for_profile(profile),
            profile,
            &args.checks,
            &args.families,
        )?;
        let (registry, shard) = shard(registry, args.shard)?;
        let corpus = if args.no_corpus {
            CorpusPlan::Skipped
        } else if registry.checks().iter().any(|c| c.family == Family::Corpus) {
            CorpusPlan::Load(args.corpus.clone())
        } else {
            CorpusPlan::Unneeded
        };
        let loads = matches!(corpus, CorpusPlan::Load(_));
        if let Some(b) = &baseline {
            same_profile(b, profile)?;
        }
        Ok(Self {
            driver: args.driver.clone(),
            description: match (&opened.without_corpus, loads) {
                (Some(other), false) => other.clone(),
                _ => opened.description.clone(),
            },
            declared,
            requested: args.profile,
            profile,
            registry,
            filter,
            shard,
            corpus,
            config: RunConfig {
                seed: args.seed,
                cases: args.cases,
            },
            timeout: Duration::from_secs(args.timeout),
            call_timeout: Duration::from_secs(args.call_timeout),
            jobs,
            quiet: args.quiet,
            all_skipped: args.all_skipped,
            outputs,
            baseline,
            exec: exec_config(args),
            overwrite: args.overwrite,
            keep_going: args.keep_going,
            reruns: reruns(args),
        })
    }

    /// `true` when the corpus is loaded.
    pub(crate) fn loads_corpus(&self) -> bool {
        matches!(self.corpus, CorpusPlan::Load(_))
    }

    /// The run's first line: tool, driver, the recall profile the run
    /// holds it to (saying so when `--profile` overrides the driver's),
    /// seed and cases: `tinymemory-conformance 0.1.0 against reference (in
    /// memory), lexical recall profile; seed 1, 64 cases per property`.
    pub(crate) fn header(&self) -> String {
        header(
            &self.description,
            self.declared,
            self.requested,
            self.config,
        )
    }

    /// The report of the run that gave `summary`, begun at `started`,
    /// which took `whole_run` (`corpus_load` of it loading the corpus),
    /// and `measured` the corpus, when it says.
    pub(crate) fn report(
        &self,
        summary: &RunSummary,
        started: SystemTime,
        whole_run: Duration,
        corpus_load: Duration,
        measured: Option<RunCorpus>,
    ) -> Report {
        let mut report = Report::from_summary(summary, started)
            .with_driver_spec(self.driver.to_string())
            .with_driver_version(self.driver.version())
            .with_durations(whole_run, self.loads_corpus().then_some(corpus_load));
        if let Some(filter) = &self.filter {
            report = report.with_filter(filter.clone());
        }
        if let Some(s) = &self.shard {
            report = report.with_shard(s.shard, s.selection.clone());
        }
        if let Some(corpus) = measured {
            report = report.with_corpus(corpus);
        }
        report
    }
}

/// A shard runs its part of the selection; its report names the whole.
///
/// # Errors
///
/// More shards than checks: some would run nothing.
fn shard(
    registry: Registry,
    shard: Option<Shard>,
) -> Result<(Registry, Option<ShardPlan>), CliError> {
    let Some(shard) = shard else {
        return Ok((registry, None));
    };
    let selection: Vec<String> = registry.checks().iter().map(|c| c.id.to_owned()).collect();
    if shard.total as usize > selection.len().max(1) {
        return Err(CliError::Usage(format!(
            "--shard {shard}: {} shards for a selection of {} checks would leave \
             shards with nothing to run; use at most {} shards",
            shard.total,
            selection.len(),
            selection.len().max(1)
        )));
    }
    Ok((registry.shard(shard), Some(ShardPlan { shard, selection })))
}

/// A baseline of another profile ran other checks: its failures of checks
/// this run skips would pass the gate as "not run".
///
/// # Errors
///
/// A baseline whose profile is not `profile`.
fn same_profile(baseline: &Baseline, profile: RecallProfile) -> Result<(), CliError> {
    let theirs = baseline.report.run.recall_profile;
    if theirs == profile {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "the baseline {} was run under the {theirs} recall profile and this run is {profile}: \
         their checks differ, so the gate would not compare like with like; \
         record a baseline under {profile}, or run with --profile {theirs}",
        baseline.path.display(),
    )))
}

/// How many driver processes an exec driver starts beside its first while
/// that one answers `hello` ([`ExecConfig::started_beside`](tinymemory_exec::ExecConfig::started_beside)):
/// one for each job after the first of an explicit `--jobs N`, at most one
/// per check either profile would select; none without `--jobs` or with a
/// trace (one job). Only `--jobs N` says, before `hello`, that the
/// driver's start-ups may overlap: it is refused for a driver whose
/// stores are not independent, whereas without it such a driver runs one
/// job, and two of its start-ups at once could collide (one creating a
/// shared cache or schema the other also creates). Counted before the
/// driver's profile is known, so from the larger selection.
pub(crate) fn processes_beside(args: &RunArgs, traced: bool) -> usize {
    let Some(jobs) = args.jobs.filter(|_| !traced) else {
        return 0;
    };
    let jobs = usize::try_from(jobs).unwrap_or(usize::MAX);
    let selected = [RecallProfile::Lexical, RecallProfile::Semantic]
        .into_iter()
        .filter_map(|profile| {
            select::select(
                &Registry::standard().for_profile(profile),
                profile,
                &args.checks,
                &args.families,
            )
            .ok()
            .map(|(registry, _)| registry.len())
        })
        .max()
        .unwrap_or(0);
    jobs.min(selected).saturating_sub(1)
}

/// How many checks run at once: `--jobs`, else the cores (at most
/// [`MAX_JOBS`](crate::args::MAX_JOBS)) for a driver
/// whose stores are independent (1 for one that does not say so, such as
/// an exec driver without `independent_stores`, and 1 with a trace, whose
/// lines name the one running check).
///
/// # Errors
///
/// `--jobs` above 1 for a driver whose stores are not independent,
/// naming why (with a trace it was refused before the trace was opened).
fn jobs(args: &RunArgs, traced: bool, factory: &dyn DriverFactory) -> Result<usize, CliError> {
    let independent = factory.independent_stores();
    let Some(asked) = args.jobs.map(|n| usize::try_from(n).unwrap_or(usize::MAX)) else {
        return Ok(if traced || !independent {
            1
        } else {
            std::thread::available_parallelism()
                .map_or(1, std::num::NonZeroUsize::get)
                .min(crate::args::MAX_JOBS as usize)
        });
    };
    if asked > 1 && !independent {
        return Err(CliError::Usage(format!(
            "--jobs {asked}: the driver {} does not declare that two of its stores are \
             independent, so checks run at once could share one store (a driver backed by one \
             database); run it with --jobs 1, or have its hello declare \
             \"independent_stores\": true (docs/protocol.md, \"Lifecycle\"; a Python store: `independent_stores = True` on its class)",
            args.driver
        )));
    }
    Ok(asked)
}

/// [`RunPlan::header`] of its parts.
fn header(
    driver: &str,
    declared: RecallProfile,
    requested: Option<RecallProfile>,
    config: RunConfig,
) -> String {
    let profile = match requested {
        Some(p) if p != declared => {
            format!("{p} recall profile (--profile; the driver declares {declared})")
        }
        _ => format!("{declared} recall profile"),
    };
    format!(
        "tinymemory-conformance {} against {driver}, {profile}; seed {}, {} cases per property",
        env!("CARGO_PKG_VERSION"),
        config.seed,
        config.cases
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_profile_and_an_override() {
        let config = RunConfig { seed: 7, cases: 3 };
        let v = env!("CARGO_PKG_VERSION");
        assert_eq!(
            header(
                "reference (in memory)",
                RecallProfile::Lexical,
                None,
                config
            ),
            format!(
                "tinymemory-conformance {v} against reference (in memory), lexical recall profile; \
                 seed 7, 3 cases per property"
            )
        );
        assert_eq!(
            header(
                "semantic-reference (in memory)",
                RecallProfile::Semantic,
                Some(RecallProfile::Semantic),
                config
            ),
            format!(
                "tinymemory-conformance {v} against semantic-reference (in memory), semantic recall profile; \
                 seed 7, 3 cases per property"
            )
        );
        assert_eq!(
            header(
                "reference (in memory)",
                RecallProfile::Lexical,
                Some(RecallProfile::Semantic),
                config
            ),
            format!(
                "tinymemory-conformance {v} against reference (in memory), semantic recall profile \
                 (--profile; the driver declares lexical); seed 7, 3 cases per property"
            )
        );
    }
}
