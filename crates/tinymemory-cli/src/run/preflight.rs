//! What `run` settles from its arguments alone, before anything is opened:
//! the outputs, refused when they clash with a file the run uses, the
//! baseline read, and the trace started.

use std::path::{Path, PathBuf};

use tinymemory_conformance::Report;
use tinymemory_exec::trace::Trace;

use super::claims;
use crate::args::{Format, RunArgs};
use crate::console::Stream;
use crate::driver::DriverSpec;
use crate::error::{CliError, OrExit as _};
use crate::files;

/// The environment variable naming a trace file when `--trace` is not
/// given; it applies to `exec:` drivers only and is ignored for others, so
/// a CI job can set it once for every run.
const TRACE_ENV: &str = "TINYMEMORY_TRACE";

/// Where a run's results go.
#[derive(Debug)]
pub(crate) struct Outputs {
    /// `--format`.
    pub(crate) format: Format,
    /// `--output FILE`: the rendered report, else stdout.
    pub(crate) output: Option<PathBuf>,
    /// `--bundle DIR`: a regression bundle per failing check.
    pub(crate) bundle: Option<PathBuf>,
    /// `--trace FILE`, else [`TRACE_ENV`] for an `exec:` driver.
    pub(crate) trace: Option<TraceFile>,
}

/// The trace file and the handle that writes to it.
///
/// The lines go to a temporary file beside [`TraceFile::path`] until
/// [`TraceFile::keep`] renames it there: a run refused before its first
/// check leaves an old trace of that name as it was.
#[derive(Debug)]
pub(crate) struct TraceFile {
    /// The file, as named.
    pub(crate) path: PathBuf,
    /// Writes to it.
    pub(crate) trace: Trace,
    /// The temporary file and the file it is renamed over, until kept;
    /// `None` from the start for a trace written in place (a FIFO, a
    /// device: [`files::Destination::Through`]).
    pending: std::sync::Mutex<Option<(tempfile::TempPath, PathBuf)>>,
}

impl TraceFile {
    /// Puts the trace at its path (once; later calls do nothing), with
    /// the permissions [`files::write`] gives a report.
    ///
    /// # Errors
    ///
    /// A message naming the path when the rename fails.
    pub(crate) fn keep(&self) -> Result<(), String> {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        match pending {
            Some((tmp, target)) => files::persist(tmp, &target)
                .map_err(|e| format!("failed to write {}: {e}", self.path.display())),
            None => Ok(()),
        }
    }
}

impl Outputs {
    /// Where progress goes: a non-text report without `--output` owns
    /// stdout, so progress moves to stderr.
    pub(crate) fn progress_stream(&self) -> Stream {
        if self.format != Format::Text && self.output.is_none() {
            Stream::Stderr
        } else {
            Stream::Stdout
        }
    }
}

/// `--baseline FILE`, read.
#[derive(Debug)]
pub(crate) struct Baseline {
    /// The file, as named.
    pub(crate) path: PathBuf,
    /// Its report.
    pub(crate) report: Report,
}

/// The arguments checked before the driver is opened.
#[derive(Debug)]
pub(crate) struct Preflight {
    /// Where the results go, each checked writable.
    pub(crate) outputs: Outputs,
    /// The baseline, read.
    pub(crate) baseline: Option<Baseline>,
}

impl Preflight {
    /// Refuses an output that is also a file the run reads or writes, and
    /// `--jobs` above 1 with a trace, before anything is read, opened or
    /// truncated; then reads the baseline, checks that the outputs can be
    /// written (a typo costs nothing; they are only written at the end,
    /// each atomically, so a run that fails leaves the old files as they
    /// were) and starts the trace, so an exec driver's `hello` is in it.
    ///
    /// # Errors
    ///
    /// A [`CliError::usage`] naming the argument and why.
    pub(crate) fn resolve(args: &RunArgs) -> Result<Self, CliError> {
        let trace = trace_file(args);
        claims::check(args, trace.as_deref())
            .and_then(|()| jobs_with_trace(args.jobs, trace.is_some()))
            .and_then(|()| crate::select::check_patterns(&args.checks, args.profile))
            .or_usage()?;
        let baseline = match &args.baseline {
            Some(path) => Some(Baseline {
                path: path.clone(),
                report: files::read_report(path).or_usage()?,
            }),
            None => None,
        };
        if let Some(dir) = args.bundle.as_deref() {
            files::check_writable_dir(dir).or_usage()?;
        }
        if let Some(output) = args.output.as_deref() {
            files::check_writable_file(output).or_usage()?;
        }
        let trace = match trace {
            Some(path) => {
                let (trace, pending) = open_trace(&path).or_usage()?;
                Some(TraceFile {
                    trace,
                    path,
                    pending: std::sync::Mutex::new(pending),
                })
            }
            None => None,
        };
        Ok(Self {
            outputs: Outputs {
                format: args.format,
                output: args.output.clone(),
                bundle: args.bundle.clone(),
                trace,
            },
            baseline,
        })
    }
}

/// `--trace FILE`, else [`TRACE_ENV`] when the driver is an `exec:` one.
fn trace_file(args: &RunArgs) -> Option<PathBuf> {
    args.trace.clone().or_else(|| {
        std::env::var_os(TRACE_ENV)
            .filter(|v| !v.is_empty() && matches!(args.driver, DriverSpec::Exec(_)))
            .map(PathBuf::from)
    })
}

/// Refuses `--jobs` above 1 with a trace, before the trace file is opened
/// (and truncated).
///
/// # Errors
///
/// The message saying why.
fn jobs_with_trace(jobs: Option<u32>, traced: bool) -> Result<(), String> {
    match jobs {
        Some(asked) if asked > 1 && traced => Err(format!(
            "--jobs {asked} with a trace: each trace line names the one running check, so a \
             traced run runs one check at a time; drop --jobs or the trace"
        )),
        _ => Ok(()),
    }
}

/// Starts the trace to `path` before the driver starts.
/// The trace's handle, writing to a temporary file beside the file it
/// will be renamed over, or in place ([`files::Destination`]).
fn open_trace(path: &Path) -> Result<(Trace, Option<(tempfile::TempPath, PathBuf)>), String> {
    files::check_writable_file(path)?;
    let failed = |e: &dyn std::fmt::Display| format!("failed to write {}: {e}", path.display());
    let (file, pending) = match files::destination(path) {
        files::Destination::Through => (std::fs::File::create(path).map_err(|e| failed(&e))?, None),
        files::Destination::Replace(target) => {
            let (file, tmp) = files::temporary_beside(&target)
                .map_err(|e| failed(&e))?
                .into_parts();
            crate::cleanup::remove_on_signal(tmp.to_path_buf());
            (file, Some((tmp, target)))
        }
    };
    Ok((
        Trace::new(Box::new(std::io::LineWriter::new(file))),
        pending,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_refuses_parallel_jobs() {
        assert!(jobs_with_trace(Some(2), true).is_err());
        assert!(jobs_with_trace(Some(1), true).is_ok());
        assert!(jobs_with_trace(Some(2), false).is_ok());
        assert!(jobs_with_trace(None, true).is_ok());
    }
}
