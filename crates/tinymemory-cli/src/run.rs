//! `run`: load the corpus, show the section API on it, run every check,
//! then render the report, compare it with a baseline and write bundles.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tinymemory_conformance::report::RunCorpus;
use tinymemory_conformance::{DriverFactory, LoadedCorpus, RunObserver, RunSummary, Runner};
use tinymemory_exec::trace::{Traced, TracedFactory};

use crate::args::RunArgs;
use crate::console::Console;
use crate::driver::{self, CorpusStore, Opened};
use crate::error::{CliError, CliResult};
use crate::progress::ConsoleProgress;
use crate::{corpus, runtime};

use self::overlap::{Answered, Held};
use self::plan::{CorpusPlan, RunPlan};
use self::preflight::{Preflight, TraceFile};
use self::trace_marks::TraceMarks;
use self::waiting::Waiting;

mod alone;
mod claims;
mod environment;
mod events;
pub(crate) mod finish;
pub(crate) mod overlap;
mod overwrite;
mod plan;
mod preflight;
mod reproduce;
mod shared_store;
mod trace_marks;
pub(crate) mod waiting;

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
    run_plan(&plan, opened, &console, started_at).await
}

/// Runs `plan` on the opened driver: its first store opened, load,
/// execute, report. It takes no arguments: the plan holds every setting
/// the run reads.
async fn run_plan(
    plan: &RunPlan,
    opened: Opened,
    console: &Arc<Console>,
    started_at: Instant,
) -> CliResult {
    driver::probe(&opened)
        .await
        .map_err(|e| not_opened_with(plan.outputs.trace.as_ref())(&e))?;
    console.line(&plan.header());
    if let Some(events) = &plan.outputs.events {
        events.run_started(plan);
        events.keep()?;
    }
    // An exec driver's processes start while the corpus loads.
    runner(plan, console).start_ahead(opened.factory.as_ref());
    let waiting = Waiting::new(plan.quiet, console.case_progress());
    console.around(&waiting);
    let ticker = waiting.start();
    // The checks' lines wait for the load's, which may end after the
    // first checks (`run/overlap.rs`).
    let held = Held::holding();
    let mut progress = ConsoleProgress::new(console, plan.quiet).held_by(held.clone());
    let (answered_watch, answered) = Answered::new();
    let mut load_time = Duration::ZERO;
    let mut measured = None;
    let corpus_store = opened.corpus_store;
    let load = async {
        let load_started = Instant::now();
        let mut watch = (
            (&*waiting, answered_watch),
            plan.outputs.events.as_ref().map(events::Events::observer),
        );
        let (corpus, facts) = load_corpus(plan, corpus_store, console, &mut watch).await?;
        load_time = load_started.elapsed();
        measured = facts;
        // The run has started: until here, a refused run or a failed load
        // left no trace file (its error quoted the trace instead).
        if let Some(t) = &plan.outputs.trace {
            t.keep()?;
        }
        held.release(console);
        Ok(corpus)
    };
    let started = SystemTime::now()
        .checked_sub(started_at.elapsed())
        .unwrap_or_else(SystemTime::now);
    let independent = opened.factory.independent_stores();
    // A broken environment stops the run from its checks' outcomes. As
    // many stores are open at once as the runner starts ahead: one per
    // job (one job for shared stores), two for a property check.
    let stores_at_once = if independent { plan.jobs } else { 1 }
        * if plan
            .registry
            .checks()
            .iter()
            .any(|c| c.family == tinymemory_conformance::Family::Property)
        {
            2
        } else {
            1
        };
    let mut watch =
        environment::Watch::new(!environment::keep_going(plan.keep_going), stores_at_once)
            .reporting_to(plan.outputs.events.as_ref());
    let summary = execute(
        plan,
        opened.factory,
        (load, answered),
        console,
        (&mut watch, (&mut progress, &*waiting)),
    )
    .await;
    if let Some(t) = ticker {
        t.abort();
    }
    waiting.finish();
    let mut summary = summary?;
    let mut explained = alone::explain(plan, &mut summary, console, independent).await;
    explained.extend(shared_store::note(independent, &mut summary));
    let report = plan.report(&summary, started, started_at.elapsed(), load_time, measured);
    if let Some(events) = &plan.outputs.events {
        for entry in report
            .checks
            .iter()
            .filter(|c| explained.contains(&c.id.as_str()))
        {
            events.check_updated(entry);
        }
    }
    finish::finish(plan, &report, console)
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
        plan::exec_config(args).with_started_beside(plan::processes_beside(args, trace.is_some()));
    // An exec driver's protocol is traced where it is spoken; an
    // in-process driver is traced by a decorator, in the same shape.
    if let Some(t) = trace.filter(|_| is_exec(&args.driver)) {
        exec = exec.with_trace(t.clone());
    }
    let mut opened =
        driver::open_with(&args.driver, exec).map_err(|e| not_opened_with(trace_file)(&e))?;
    if let Some(t) = trace.filter(|_| !is_exec(&args.driver)) {
        opened.factory = Arc::new(TracedFactory::new(opened.factory, t.clone()));
    }
    Ok(opened)
}

fn is_exec(driver: &crate::driver::DriverSpec) -> bool {
    driver.command().is_some()
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
    plan: &RunPlan,
    store: CorpusStore,
    console: &Console,
    progress: &mut dyn RunObserver,
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
            overwrite::refuse(&plan.driver, store.as_ref(), !plan.overwrite).await?;
            if let Some(t) = trace.filter(|_| !is_exec(&plan.driver)) {
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

/// Runs the plan's checks while `load` loads the corpus (the checks start
/// once `answered` resolves: `Runner::run_loading`), `progress` (the
/// console's and the broken environment's watch) and the trace (when
/// there is one) watching.
///
/// # Errors
///
/// The load's error, or the trace could not be written.
async fn execute(
    plan: &RunPlan,
    factory: Arc<dyn DriverFactory>,
    (load, answered): (
        impl Future<Output = Result<Option<Arc<LoadedCorpus>>, CliError>>,
        impl Future<Output = ()>,
    ),
    console: &Arc<Console>,
    progress: impl RunObserver,
) -> Result<RunSummary, CliError> {
    let runner = runner(plan, console);
    // The trace's note is added before the event stream writes the entry.
    let marks = plan
        .outputs
        .trace
        .as_ref()
        .map(|t| TraceMarks::new(console, &t.trace, &t.path));
    let events = plan.outputs.events.as_ref().map(events::Events::observer);
    let mut watch = (progress, (marks, events));
    let summary = runner
        .run_loading(factory, load, answered, &mut watch)
        .await?;
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
