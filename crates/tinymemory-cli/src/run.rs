//! `run`: load the corpus, show the section API on it, run every check,
//! then render the report, compare it with a baseline and write bundles.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tinymemory_conformance::report::RunCorpus;
use tinymemory_conformance::{DriverFactory, LoadedCorpus, RunObserver, RunSummary, Runner};
use tinymemory_exec::trace::{Traced, TracedFactory};
use tinymemory_exec::ExecConfig;

use crate::args::RunArgs;
use crate::console::Console;
use crate::driver::{self, CorpusStore, Opened};
use crate::error::{CliError, CliResult};
use crate::progress::ConsoleProgress;
use crate::{corpus, runtime};

use self::plan::{CorpusPlan, RunPlan};
use self::preflight::{Preflight, TraceFile};
use self::trace_marks::TraceMarks;

mod alone;
mod claims;
mod environment;
pub(crate) mod finish;
mod overwrite;
mod plan;
mod preflight;
mod reproduce;
mod trace_marks;

/// Runs the checks `args` select against its driver.
///
/// # Errors
///
/// The argument, file, driver or corpus that stopped the run, with its
/// exit code.
pub(crate) fn main(args: &RunArgs) -> CliResult {
    let started = Instant::now();
    if args.stop_on_stdin_eof {
        crate::cleanup::stop_at_end_of_stdin();
    }
    let preflight = Preflight::resolve(args)?;
    runtime::build()?.block_on(run(args, preflight, started))
}

async fn run(args: &RunArgs, preflight: Preflight, started_at: Instant) -> CliResult {
    let console = Arc::new(Console::new(
        preflight.outputs.progress_stream(),
        args.quiet,
    ));
    let opened = open(args, preflight.outputs.trace.as_ref())?;
    // Every refusal comes before the driver's first store: a refused run
    // resets no store of the driver (an exec driver was only asked
    // `hello`) and creates no `sqlite:PATH` file.
    let plan = RunPlan::resolve(args, preflight, &opened)?;
    driver::probe(&opened)
        .await
        .map_err(|e| not_opened_with(plan.outputs.trace.as_ref())(&e))?;
    console.line(&plan.header());
    // An exec driver's processes start while the corpus loads.
    runner(&plan, &console).start_ahead(opened.factory.as_ref());
    let mut progress = ConsoleProgress::new(&console, plan.quiet);
    let load_started = Instant::now();
    let (corpus, measured) =
        load_corpus(args, &plan, opened.corpus_store, &console, &mut progress).await?;
    let load_time = load_started.elapsed();
    // The run starts: until here, a refused or failed run left no trace
    // file (its error quoted the trace instead).
    if let Some(t) = &plan.outputs.trace {
        t.keep()?;
    }
    let started = SystemTime::now()
        .checked_sub(started_at.elapsed())
        .unwrap_or_else(SystemTime::now);
    // A broken environment stops the run from its checks' outcomes.
    let mut watch = environment::Watch::new(!environment::keep_going(args.keep_going));
    let mut summary = execute(
        &plan,
        opened.factory,
        corpus,
        &console,
        &mut (&mut watch, &mut progress),
    )
    .await?;
    let originals = alone::explain(args, &plan, &mut summary, &console).await;
    let report = plan.report(&summary, started, started_at.elapsed(), load_time, measured);
    finish::finish(&plan, &report, &originals, &console)
}

/// Opens the driver, traced to `trace_file`: its factory, and how to open
/// its corpus store. Drivers that connect lazily (PostgreSQL, exec) meet
/// their server or process in [`driver::probe`], after the plan, so
/// "cannot be opened" is exit 3 instead of every check failing the same
/// way.
///
/// # Errors
///
/// A [`CliError::Setup`] naming why the driver could not be opened,
/// quoting the trace (what the driver was sent before it failed), whose
/// file is not written.
fn open(args: &RunArgs, trace_file: Option<&TraceFile>) -> Result<Opened, CliError> {
    let trace = trace_file.map(|t| &t.trace);
    let mut exec =
        exec_config(args).with_started_beside(plan::processes_beside(args, trace.is_some()));
    // An exec driver's protocol is traced where it is spoken; an
    // in-process driver is traced by a decorator, in the same shape.
    if let Some(t) = trace.filter(|_| is_exec(args)) {
        exec = exec.with_trace(t.clone());
    }
    let mut opened =
        driver::open_with(&args.driver, exec).map_err(|e| not_opened_with(trace_file)(&e))?;
    if let Some(t) = trace.filter(|_| !is_exec(args)) {
        opened.factory = Arc::new(TracedFactory::new(opened.factory, t.clone()));
    }
    Ok(opened)
}

/// The limits of an exec driver's processes: `--call-timeout` per request.
/// The run's own processes and those its reruns start alone share it.
fn exec_config(args: &RunArgs) -> ExecConfig {
    ExecConfig::default().with_request_timeout(Duration::from_secs(args.call_timeout))
}

fn is_exec(args: &RunArgs) -> bool {
    args.driver.command().is_some()
}

/// [`driver::not_opened`], quoting the trace when there is one: the
/// trace file itself is not written ([`TraceFile::quoted`]).
fn not_opened_with(
    trace_file: Option<&TraceFile>,
) -> impl Fn(&dyn std::fmt::Display) -> CliError + '_ {
    move |e| match trace_file {
        Some(t) => driver::not_opened(&format!("{e}{}", t.quoted())),
        None => driver::not_opened(e),
    }
}

/// Opens the corpus store and loads the corpus into it, when the plan
/// says to: a `sqlite:PATH` store holding entries is refused first,
/// unless `--overwrite`. Returns it with what the report records of it:
/// the facts of the corpus loaded, `none` under `--no-corpus`, nothing
/// when no corpus check was selected.
///
/// # Errors
///
/// A [`CliError::Setup`]: the store could not be opened, or the corpus
/// read or stored; a [`CliError::Usage`] for a store holding entries.
async fn load_corpus(
    args: &RunArgs,
    plan: &RunPlan,
    store: CorpusStore,
    console: &Console,
    progress: &mut ConsoleProgress<'_>,
) -> Result<(Option<Arc<LoadedCorpus>>, Option<RunCorpus>), CliError> {
    match &plan.corpus {
        CorpusPlan::Skipped => {
            console.line("no corpus: the corpus checks will be skipped");
            Ok((None, Some(RunCorpus::None)))
        }
        CorpusPlan::Unneeded => Ok((None, None)),
        CorpusPlan::Load(root) => {
            let trace = plan.outputs.trace.as_ref();
            let mut store = store.open().await.map_err(|e| not_opened_with(trace)(&e))?;
            overwrite::refuse(&args.driver, store.as_ref(), !args.overwrite).await?;
            if let Some(t) = trace.filter(|_| !is_exec(args)) {
                store = Box::new(Traced::new(store, t.trace.clone()));
            }
            let (loaded, facts) =
                corpus::load(root.as_deref(), store, console, !plan.quiet, progress).await?;
            Ok((Some(Arc::new(loaded)), Some(RunCorpus::Loaded(facts))))
        }
    }
}

/// The runner of the plan's checks, reporting case progress to `console`.
fn runner(plan: &RunPlan, console: &Console) -> Runner {
    Runner::new(plan.registry.clone())
        .with_profile(plan.profile)
        .with_timeout(plan.timeout)
        .with_call_timeout(plan.call_timeout)
        .with_config(plan.config)
        .with_jobs(plan.jobs)
        .with_progress(console.case_progress())
}

/// Runs the plan's checks, `progress` (the console's and the broken
/// environment's watch) and the trace (when there is one) watching.
///
/// # Errors
///
/// The trace could not be written.
async fn execute(
    plan: &RunPlan,
    factory: Arc<dyn DriverFactory>,
    corpus: Option<Arc<LoadedCorpus>>,
    console: &Arc<Console>,
    progress: &mut impl RunObserver,
) -> Result<RunSummary, CliError> {
    let runner = runner(plan, console);
    let ticker = console.start_ticker();
    let summary = match &plan.outputs.trace {
        Some(t) => {
            let mut watch = (progress, TraceMarks::new(console, &t.trace, &t.path));
            runner.run_observed(factory, corpus, &mut watch).await
        }
        None => runner.run_observed(factory, corpus, progress).await,
    };
    if let Some(t) = ticker {
        t.abort();
    }
    console.idle();
    if let Some(t) = &plan.outputs.trace {
        t.trace.flush().map_err(|e| {
            CliError::Usage(format!(
                "failed to write the trace {}: {e}",
                t.path.display()
            ))
        })?;
    }
    Ok(summary)
}
