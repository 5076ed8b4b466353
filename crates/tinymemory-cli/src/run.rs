//! `run`: load the corpus, show the section API on it, run every check,
//! then render the report, compare it with a baseline and write bundles.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tinymemory_api::shown::visible;
use tinymemory_api::RecallProfile;
use tinymemory_conformance::report::CheckEntry;
use tinymemory_conformance::{Bundle, Comparison, Family, Registry, Report, RunConfig, Runner};

use crate::args::{AllSkipped, Format, RunArgs};
use crate::console::{Console, Stream};
use crate::driver::DriverSpec;
use crate::error::{CliError, CliResult, OrExit as _};
use crate::{corpus, driver, exit, files, runtime, select, shared};

mod claims;

pub(crate) fn main(args: &RunArgs) -> CliResult {
    let started = Instant::now();
    // Before anything is read, opened or truncated: an output that is also
    // the store, the corpus, the baseline or another output would destroy
    // it, whatever the run's verdict.
    claims::check(args, trace_file(args).as_deref())
        .and_then(|()| jobs_with_trace(args))
        .or_usage()?;
    // Files named on the command line are checked before the run, so a
    // typo costs nothing; outputs are only written at the end, each
    // atomically, so a run that fails leaves the old files as they were.
    let baseline = args
        .baseline
        .as_deref()
        .map(files::read_report)
        .transpose()
        .or_usage()?;
    if let Some(dir) = args.bundle.as_deref() {
        files::check_writable_dir(dir).or_usage()?;
    }
    if let Some(output) = args.output.as_deref() {
        files::check_writable_file(output).or_usage()?;
    }
    if let Some(trace) = trace_file(args) {
        open_trace(&trace).or_usage()?;
    }
    runtime::build()?.block_on(run(args, baseline.as_ref(), started))
}

/// `trace: lines 120-131 of FILE (the check's last 12 records, from 101)`:
/// where a failed check's last operations are, the last [`TRACE_TAIL`]
/// records of those it wrote from line `from` to line `to`.
fn trace_lines(path: &std::path::Path, from: u64, to: u64) -> String {
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

/// The environment variable naming a trace file when `--trace` is not
/// given; it applies to `exec:` drivers only and is ignored for others, so
/// a CI job can set it once for every run.
pub(crate) const TRACE_ENV: &str = "TINYMEMORY_TRACE";

/// `--trace FILE`, else [`TRACE_ENV`] when the driver is an `exec:` one.
fn trace_file(args: &RunArgs) -> Option<std::path::PathBuf> {
    args.trace.clone().or_else(|| {
        std::env::var_os(TRACE_ENV)
            .filter(|v| !v.is_empty() && matches!(args.driver, DriverSpec::Exec(_)))
            .map(std::path::PathBuf::from)
    })
}

/// Starts `--trace FILE` before the driver starts, so an exec driver's
/// `hello` is in the trace too.
fn open_trace(path: &std::path::Path) -> Result<(), String> {
    files::check_writable_file(path)?;
    let file = std::fs::File::create(path)
        .map_err(|e| format!("failed to write {}: {e}", path.display()))?;
    tinymemory_exec::trace::install(Box::new(std::io::LineWriter::new(file)));
    Ok(())
}

/// Refuses to load the corpus into an existing `sqlite:PATH` store that
/// holds entries, unless `--overwrite` says to: the load upserts, so it
/// would replace the user's entries that share a namespace and key.
async fn refuse_overwrite(
    args: &RunArgs,
    opened: &driver::Opened,
    loads_corpus: bool,
) -> Result<(), String> {
    let DriverSpec::Sqlite(Some(path)) = &args.driver else {
        return Ok(());
    };
    if !loads_corpus || args.overwrite {
        return Ok(());
    }
    let namespaces = opened
        .corpus_store
        .namespaces()
        .await
        .map_err(|e| format!("failed to read the store {}: {e}", path.display()))?;
    if namespaces.is_empty() {
        return Ok(());
    }
    let entries: u64 = namespaces.iter().map(|n| n.count).sum();
    Err(format!(
        "the store {} already holds {entries} entries in {} namespaces, and loading the corpus \
         would replace those with the same namespace and key; name a new file, or pass \
         --overwrite to load the corpus into it anyway",
        path.display(),
        namespaces.len()
    ))
}

/// Where the rendered report goes and where progress goes: a non-text
/// report without `--output` owns stdout, so progress moves to stderr.
fn progress_stream(args: &RunArgs) -> Stream {
    if args.format != Format::Text && args.output.is_none() {
        Stream::Stderr
    } else {
        Stream::Stdout
    }
}

/// The driver could not be opened: [`exit::SETUP`], its message escaped.
fn not_opened(e: &dyn std::fmt::Display) -> CliError {
    CliError::setup(format!(
        "failed to open the driver: {}",
        visible(&e.to_string())
    ))
}

async fn run(args: &RunArgs, baseline: Option<&Report>, started_at: Instant) -> CliResult {
    let console = Arc::new(Console::new(progress_stream(args), args.quiet));
    let exec = tinymemory_exec::ExecConfig::default()
        .with_request_timeout(Duration::from_secs(args.call_timeout));
    let mut opened = driver::open_with(&args.driver, exec).map_err(|e| not_opened(&e))?;
    // An exec driver's protocol is traced where it is spoken; an
    // in-process driver is traced by a decorator, in the same shape.
    if args.trace.is_some() && !matches!(args.driver, DriverSpec::Exec(_)) {
        opened.factory = Arc::new(tinymemory_exec::trace::TracedFactory::new(opened.factory));
        opened.corpus_store = Box::new(tinymemory_exec::trace::Traced::new(opened.corpus_store));
    }
    // Drivers that connect lazily (PostgreSQL, exec) only meet their
    // server or process here: one store opened up front turns "cannot be
    // opened" into exit 3 instead of every check failing the same way.
    driver::probe(&opened).await.map_err(|e| not_opened(&e))?;
    let config = RunConfig {
        seed: args.seed,
        cases: args.cases,
    };
    let jobs = jobs(args, opened.factory.as_ref()).or_usage()?;
    let declared = opened.factory.recall_profile();
    let profile = args.profile.unwrap_or(declared);
    // The runner runs only the checks of the run's profile, and of those
    // only the ones `--check` and `--family` select; the status line counts
    // the same ones.
    let selected = select::select(
        &Registry::standard().for_profile(profile),
        profile,
        &args.checks,
        &args.families,
    );
    let (registry, filter) = selected.or_usage()?;
    // A shard runs its part of the selection; its report names the whole.
    let selection: Vec<String> = registry.checks().iter().map(|c| c.id.to_owned()).collect();
    let registry = match args.shard {
        Some(shard) if shard.total as usize > selection.len().max(1) => {
            return Err(CliError::usage(format!(
                "--shard {shard}: {} shards for a selection of {} checks would leave \
                 shards with nothing to run; use at most {} shards",
                shard.total,
                selection.len(),
                selection.len().max(1)
            )));
        }
        Some(shard) => registry.shard(shard),
        None => registry,
    };
    // A run that selects no corpus check does not pay for the load.
    let loads_corpus =
        !args.no_corpus && registry.checks().iter().any(|c| c.family == Family::Corpus);
    refuse_overwrite(args, &opened, loads_corpus)
        .await
        .or_usage()?;
    // A baseline of another profile ran other checks: its failures of
    // checks this run skips would pass the gate as "not run".
    if let Some(b) = baseline.filter(|b| b.run.recall_profile != profile) {
        return Err(CliError::usage(format!(
            "the baseline {} was run under the {} recall profile and this run is {profile}: \
             their checks differ, so the gate would not compare like with like; \
             record a baseline under {profile}, or run with --profile {}",
            args.baseline
                .as_deref()
                .map_or_else(String::new, |p| p.display().to_string()),
            b.run.recall_profile,
            b.run.recall_profile
        )));
    }
    console.line(&header(&opened.description, declared, args.profile, config));
    let load_started = Instant::now();
    let corpus = if args.no_corpus {
        console.line("no corpus: the corpus checks will be skipped");
        None
    } else if !loads_corpus {
        None
    } else {
        let loaded = corpus::load(
            args.corpus.as_deref(),
            opened.corpus_store,
            &console,
            !args.quiet,
        )
        .await;
        Some(Arc::new(loaded.or_setup()?))
    };

    let load_time = load_started.elapsed();
    let ids: Vec<&'static str> = registry.checks().iter().map(|c| c.id).collect();
    let runner = Runner::new(registry)
        .with_profile(profile)
        .with_timeout(Duration::from_secs(args.timeout))
        .with_call_timeout(Duration::from_secs(args.call_timeout))
        .with_config(config)
        .with_jobs(jobs)
        .with_progress(console.case_progress());
    let started = SystemTime::now()
        .checked_sub(started_at.elapsed())
        .unwrap_or_else(SystemTime::now);
    if let Some(first) = ids.first() {
        console.running(1, ids.len(), first);
        tinymemory_exec::trace::set_check(Some(first));
    }
    let ticker = console.start_ticker();
    let mut done = 0;
    let trace = trace_file(args);
    // Where each failed check's records lie in the trace.
    let mut traced: Vec<(&'static str, String)> = Vec::new();
    let mut trace_from = tinymemory_exec::trace::lines() + 1;
    let mut summary = runner
        .run(opened.factory, corpus, |report| {
            done += 1;
            let trace_to = tinymemory_exec::trace::lines();
            let where_traced = trace
                .as_deref()
                .filter(|_| report.outcome.is_fail() && trace_to >= trace_from)
                .map(|path| trace_lines(path, trace_from, trace_to));
            trace_from = trace_to + 1;
            if !args.quiet || report.outcome.is_fail() {
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
        let path = args
            .trace
            .as_deref()
            .unwrap_or_else(|| std::path::Path::new("?"));
        CliError::usage(format!("failed to write the trace {}: {e}", path.display()))
    })?;

    for r in &mut summary.reports {
        if let (Some((_, w)), tinymemory_conformance::Outcome::Fail(f)) =
            (traced.iter().find(|(id, _)| *id == r.id), &mut r.outcome)
        {
            f.message.push_str(&format!(" [{w}]"));
        }
    }
    let mut report = Report::from_summary(&summary, started)
        .with_driver_spec(args.driver.to_string())
        .with_driver_version(args.driver.version())
        .with_durations(started_at.elapsed(), loads_corpus.then_some(load_time));
    if let Some(filter) = filter {
        report = report.with_filter(filter);
    }
    if let Some(shard) = args.shard {
        report = report.with_shard(shard, selection);
    }
    finish(args, &report, baseline, &console)
}

/// How many checks run at once: `--jobs`, else the cores for a driver
/// whose stores are independent (1 for one that does not say so, such as
/// an exec driver without `independent_stores`, and 1 with a trace, whose
/// lines name the one running check).
///
/// # Errors
///
/// `--jobs` above 1 for a driver whose stores are not independent,
/// naming why (with a trace it was refused before: [`jobs_with_trace`]).
fn jobs(
    args: &RunArgs,
    factory: &dyn tinymemory_conformance::DriverFactory,
) -> Result<usize, String> {
    let traced = trace_file(args).is_some();
    let independent = factory.independent_stores();
    let Some(asked) = args.jobs.map(|n| usize::try_from(n).unwrap_or(usize::MAX)) else {
        return Ok(if traced || !independent {
            1
        } else {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
    };
    if asked > 1 && !independent {
        return Err(format!(
            "--jobs {asked}: the driver {} does not declare that two of its stores are \
             independent, so checks run at once could share one store (a driver backed by one \
             database); run it with --jobs 1, or have its hello declare \
             \"independent_stores\": true (docs/protocol.md, \"Lifecycle\")",
            args.driver
        ));
    }
    Ok(asked)
}

/// Refuses `--jobs` above 1 with a trace, before the trace file is opened
/// (and truncated).
///
/// # Errors
///
/// The message saying why.
fn jobs_with_trace(args: &RunArgs) -> Result<(), String> {
    match args.jobs {
        Some(asked) if asked > 1 && trace_file(args).is_some() => Err(format!(
            "--jobs {asked} with a trace: each trace line names the one running check, so a \
             traced run runs one check at a time; drop --jobs or the trace"
        )),
        _ => Ok(()),
    }
}

/// The run's first line: tool, driver, the recall profile the run holds it
/// to (saying so when `--profile` overrides the driver's), seed and cases:
/// `tinymemory-conformance 0.1.0 against reference (in memory), lexical
/// recall profile; seed 1, 64 cases per property`.
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

/// Writes the report, the bundles and the comparison; the closing line is
/// the last line of progress.
fn finish(
    args: &RunArgs,
    report: &Report,
    baseline: Option<&Report>,
    console: &Console,
) -> CliResult {
    if let Some(dir) = &args.bundle {
        for bundle in Bundle::all_from(report) {
            let path = dir.join(bundle.file_name());
            files::write(&path, &bundle.to_json()).or_usage()?;
            console.line(&format!("bundle: {}", path.display()));
        }
    }
    write_report(args, report, console).or_usage()?;
    for line in shared::lines(report) {
        console.line(&line);
    }
    console.line(&report.conformance_line());
    let gate_fails = match baseline {
        Some(b) => {
            let cmp = Comparison::between(b, report);
            for line in cmp.to_text().lines() {
                console.line(line);
            }
            cmp.has_new_failures()
        }
        None => report.counts.failed() > 0,
    };
    console.line(&report.closing_line());
    if let Some(message) = console.write_error() {
        return Err(CliError::usage(message));
    }
    if gate_fails {
        return Ok(exit::FAILURES);
    }
    all_skipped(args.all_skipped, report.counts.total, report.counts.skip)
}

/// [`exit::SUCCESS`] unless every one of a run's `total` checks was
/// skipped and `--all-skipped` says such a run fails.
///
/// # Errors
///
/// [`exit::NO_CHECKS_RAN`] for a run of `total` checks, every one skipped,
/// under [`AllSkipped::Fail`].
fn all_skipped(policy: AllSkipped, total: usize, skipped: usize) -> CliResult {
    if total == 0 || skipped < total {
        return Ok(exit::SUCCESS);
    }
    let what =
        format!("every selected check was skipped ({skipped} of {total}), so nothing was verified");
    match policy {
        AllSkipped::Fail => Err(CliError::new(
            exit::NO_CHECKS_RAN,
            format!("{what}; --all-skipped warn or pass accepts such a run"),
        )),
        AllSkipped::Warn => {
            eprintln!("warning: {what}");
            Ok(exit::SUCCESS)
        }
        AllSkipped::Pass => Ok(exit::SUCCESS),
    }
}

/// The rendered report to `--output`, or to stdout for a non-text format.
/// A text run without `--output` has already printed its lines.
fn write_report(args: &RunArgs, report: &Report, console: &Console) -> Result<(), String> {
    let colour_text = args.output.is_none() && console.colour();
    let rendered = match args.format {
        Format::Text => report.to_text(colour_text),
        Format::Json => report.to_json(),
        Format::Junit => report.to_junit(),
        Format::Markdown => report.to_markdown(),
    };
    match &args.output {
        Some(path) => {
            files::write(path, &rendered)?;
            console.line(&format!("report: {}", path.display()));
            Ok(())
        }
        None if args.format == Format::Text => Ok(()),
        None => {
            debug_assert!(!console.is_stdout());
            files::stdout(&rendered)
        }
    }
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

    #[test]
    fn a_run_that_skipped_every_check_fails_unless_told_otherwise() {
        let code = |r: CliResult| r.unwrap_or_else(|e| e.code());
        assert_eq!(
            code(all_skipped(AllSkipped::Fail, 4, 4)),
            exit::NO_CHECKS_RAN
        );
        assert_eq!(all_skipped(AllSkipped::Warn, 4, 4), Ok(exit::SUCCESS));
        assert_eq!(all_skipped(AllSkipped::Pass, 4, 4), Ok(exit::SUCCESS));
        // One check ran: the run verified something.
        assert_eq!(all_skipped(AllSkipped::Fail, 4, 3), Ok(exit::SUCCESS));
        assert_eq!(all_skipped(AllSkipped::Fail, 0, 0), Ok(exit::SUCCESS));
    }
}
