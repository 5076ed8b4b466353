//! `run`: load the corpus, show the section API on it, run every check,
//! then render the report, compare it with a baseline and write bundles.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tinymemory_api::shown::visible;
use tinymemory_conformance::report::CheckEntry;
use tinymemory_conformance::{DriverFactory, LoadedCorpus, RunSummary, Runner};
use tinymemory_exec::ExecConfig;

use crate::args::RunArgs;
use crate::console::Console;
use crate::driver::{self, DriverSpec, Opened};
use crate::error::{CliError, CliResult, OrExit as _};
use crate::{corpus, runtime};

use self::plan::{CorpusPlan, RunPlan};
use self::preflight::Preflight;

mod claims;
mod finish;
mod overwrite;
mod plan;
mod preflight;

/// Runs the checks `args` select against its driver.
///
/// # Errors
///
/// The argument, file, driver or corpus that stopped the run, with its
/// exit code.
pub(crate) fn main(args: &RunArgs) -> CliResult {
    let started = Instant::now();
    let preflight = Preflight::resolve(args)?;
    runtime::build()?.block_on(run(args, preflight, started))
}

async fn run(args: &RunArgs, preflight: Preflight, started_at: Instant) -> CliResult {
    let console = Arc::new(Console::new(
        preflight.outputs.progress_stream(),
        args.quiet,
    ));
    let opened = open(args, preflight.outputs.trace.is_some()).await?;
    let plan = RunPlan::resolve(args, preflight, &opened).await?;
    console.line(&plan.header());
    let load_started = Instant::now();
    let corpus = load_corpus(&plan, opened.corpus_store, &console).await?;
    let load_time = load_started.elapsed();
    let started = SystemTime::now()
        .checked_sub(started_at.elapsed())
        .unwrap_or_else(SystemTime::now);
    let summary = execute(&plan, opened.factory, corpus, &console).await?;
    let report = plan.report(&summary, started, started_at.elapsed(), load_time);
    finish::finish(&plan, &report, &console)
}

/// Opens the driver, traced when `traced`, and opens one store up front:
/// drivers that connect lazily (PostgreSQL, exec) only meet their server
/// or process here, so "cannot be opened" is exit 3 instead of every check
/// failing the same way.
///
/// # Errors
///
/// A [`CliError::setup`] naming why the driver could not be opened.
async fn open(args: &RunArgs, traced: bool) -> Result<Opened, CliError> {
    let exec = ExecConfig::default().with_request_timeout(Duration::from_secs(args.call_timeout));
    let mut opened = driver::open_with(&args.driver, exec).map_err(|e| not_opened(&e))?;
    // An exec driver's protocol is traced where it is spoken; an
    // in-process driver is traced by a decorator, in the same shape.
    if traced && !matches!(args.driver, DriverSpec::Exec(_)) {
        opened.factory = Arc::new(tinymemory_exec::trace::TracedFactory::new(opened.factory));
        opened.corpus_store = Box::new(tinymemory_exec::trace::Traced::new(opened.corpus_store));
    }
    driver::probe(&opened).await.map_err(|e| not_opened(&e))?;
    Ok(opened)
}

/// The driver could not be opened: [`crate::exit::SETUP`], its message
/// escaped.
fn not_opened(e: &dyn std::fmt::Display) -> CliError {
    CliError::setup(format!(
        "failed to open the driver: {}",
        visible(&e.to_string())
    ))
}

/// Loads the corpus into `store` when the plan says to.
///
/// # Errors
///
/// A [`CliError::setup`]: the corpus could not be read or stored.
async fn load_corpus(
    plan: &RunPlan,
    store: Box<dyn tinymemory_api::MemoryProvider>,
    console: &Console,
) -> Result<Option<Arc<LoadedCorpus>>, CliError> {
    match &plan.corpus {
        CorpusPlan::Skipped => {
            console.line("no corpus: the corpus checks will be skipped");
            Ok(None)
        }
        CorpusPlan::Unneeded => Ok(None),
        CorpusPlan::Load(root) => {
            let loaded = corpus::load(root.as_deref(), store, console, !plan.quiet)
                .await
                .or_setup()?;
            Ok(Some(Arc::new(loaded)))
        }
    }
}

/// Runs the plan's checks, printing each as it finishes.
///
/// # Errors
///
/// The trace could not be written.
async fn execute(
    plan: &RunPlan,
    factory: Arc<dyn DriverFactory>,
    corpus: Option<Arc<LoadedCorpus>>,
    console: &Arc<Console>,
) -> Result<RunSummary, CliError> {
    let ids: Vec<&'static str> = plan.registry.checks().iter().map(|c| c.id).collect();
    let runner = Runner::new(plan.registry.clone())
        .with_profile(plan.profile)
        .with_timeout(plan.timeout)
        .with_call_timeout(plan.call_timeout)
        .with_config(plan.config)
        .with_jobs(plan.jobs)
        .with_progress(console.case_progress());
    if let Some(first) = ids.first() {
        console.running(1, ids.len(), first);
        tinymemory_exec::trace::set_check(Some(first));
    }
    let ticker = console.start_ticker();
    let mut done = 0;
    let trace = plan.outputs.trace.as_deref();
    // Where each failed check's records lie in the trace.
    let mut traced: Vec<(&'static str, String)> = Vec::new();
    let mut trace_from = tinymemory_exec::trace::lines() + 1;
    let mut summary = runner
        .run(factory, corpus, |report| {
            done += 1;
            let trace_to = tinymemory_exec::trace::lines();
            let where_traced = trace
                .filter(|_| report.outcome.is_fail() && trace_to >= trace_from)
                .map(|path| trace_lines(path, trace_from, trace_to));
            trace_from = trace_to + 1;
            if !plan.quiet || report.outcome.is_fail() {
                console.line(&CheckEntry::from(report).text_line(console.colour()));
            }
            if let Some(w) = where_traced {
                console.line(&format!("      {w}"));
                traced.push((report.id, w));
            }
            tinymemory_exec::trace::set_check(ids.get(done).copied());
            match ids.get(done) {
                Some(next) => console.running(done + 1, ids.len(), next),
                None => console.idle(),
            }
        })
        .await;
    if let Some(t) = ticker {
        t.abort();
    }
    console.idle();
    tinymemory_exec::trace::flush().map_err(|e| {
        let path = trace.unwrap_or_else(|| Path::new("?"));
        CliError::usage(format!("failed to write the trace {}: {e}", path.display()))
    })?;
    for r in &mut summary.reports {
        if let (Some((_, w)), tinymemory_conformance::Outcome::Fail(f)) =
            (traced.iter().find(|(id, _)| *id == r.id), &mut r.outcome)
        {
            f.message.push_str(&format!(" [{w}]"));
        }
    }
    Ok(summary)
}

/// `trace: lines 120-131 of FILE (the check's last 12 records, from 101)`:
/// where a failed check's last operations are, the last [`TRACE_TAIL`]
/// records of those it wrote from line `from` to line `to`.
fn trace_lines(path: &Path, from: u64, to: u64) -> String {
    let first = from.max(to.saturating_sub(TRACE_TAIL - 1));
    if first == from {
        format!("trace: lines {from}-{to} of {}", path.display())
    } else {
        format!(
            "trace: lines {first}-{to} of {} (its last {TRACE_TAIL} records; the check's first is line {from})",
            path.display()
        )
    }
}

/// How many of a failed check's last trace records its message names.
const TRACE_TAIL: u64 = 12;
