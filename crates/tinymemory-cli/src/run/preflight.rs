//! What `run` settles from its arguments alone, before anything is opened:
//! the outputs, refused when they clash with a file the run uses, the
//! baseline read, and the trace started.

use std::path::{Path, PathBuf};

use tinymemory_conformance::Report;
use tinymemory_exec::trace::Trace;

use super::claims;
use crate::args::{Format, RunArgs};
use crate::console::Stream;
use crate::error::CliError;
use crate::files::{self, FileError};
use crate::target::{DirTarget, Target};

/// The environment variable naming a trace file when `--trace` is not
/// given; it applies to `exec:` drivers only and is ignored for others, so
/// a CI job can set it once for every run.
const TRACE_ENV: &str = "TINYMEMORY_TRACE";

/// Where a run's results go.
#[derive(Debug)]
pub(crate) struct Outputs {
    /// `--format`.
    pub(crate) format: Format,
    /// `--output FILE`, resolved: the rendered report, else stdout.
    pub(crate) output: Option<Target>,
    /// `--bundle DIR`, resolved: a regression bundle per failing check.
    pub(crate) bundle: Option<DirTarget>,
    /// `--trace FILE`, else [`TRACE_ENV`] for an `exec:` driver.
    pub(crate) trace: Option<TraceFile>,
    /// `--events PATH`: the run's events, one JSON line each.
    pub(crate) events: Option<super::events::Events>,
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
    /// The temporary file and the output it is renamed onto, until kept;
    /// `None` from the start for a trace written in place (a FIFO, a
    /// device).
    pending: std::sync::Mutex<Option<(tempfile::TempPath, Target)>>,
}

impl TraceFile {
    /// Puts the trace at its path (once; later calls do nothing), with
    /// the permissions [`Target::write`] gives a report.
    ///
    /// # Errors
    ///
    /// A [`crate::files::FileError`] naming the path when the rename
    /// fails.
    pub(crate) fn keep(&self) -> Result<(), CliError> {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        match pending {
            Some((tmp, target)) => Ok(target.commit(tmp)?),
            None => Ok(()),
        }
    }
}

/// The most trace lines an error quotes, and the most characters of each.
const QUOTED_LINES: usize = 12;
const QUOTED_CHARS: usize = 400;

impl TraceFile {
    /// For the error of a run that ends before its first check, which
    /// leaves no trace file behind (a refused or failed run creates
    /// nothing the user did not have): the trace's last lines, each cut
    /// at [`QUOTED_CHARS`] characters, as indented lines to append to the
    /// message; empty for a trace written in place, which the user reads
    /// there.
    pub(crate) fn quoted(&self) -> String {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some((tmp, _)) = pending.as_ref() else {
            return String::new();
        };
        // Nothing more can be done about a trace that cannot be read back
        // on the way out than to say so.
        let _ = self.trace.flush();
        let text = std::fs::read_to_string(tmp).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let shown = &lines[lines.len().saturating_sub(QUOTED_LINES)..];
        let mut out = format!(
            "\n  trace: not written to {} (the run did not start); {}:",
            self.path.display(),
            match (lines.len(), shown.len()) {
                (0, _) => "it was empty".to_owned(),
                (n, k) if n == k => format!("its {n} line{}", if n == 1 { "" } else { "s" }),
                (n, k) => format!("its last {k} of {n} lines"),
            }
        );
        for line in shown {
            let cut: String = line.chars().take(QUOTED_CHARS).collect();
            let more = if cut.len() < line.len() { " …" } else { "" };
            // Shown as the error shows the driver's text, escaped there.
            out.push_str(&format!("\n    {cut}{more}"));
        }
        out
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
    /// A [`CliError::Usage`] naming the argument and why.
    pub(crate) fn resolve(args: &RunArgs) -> Result<Self, CliError> {
        let trace = trace_file(args);
        claims::check(args, trace.as_deref())?;
        jobs_with_trace(args.jobs, trace.is_some())?;
        crate::select::check_patterns(&args.checks, args.profile)?;
        let baseline = match &args.baseline {
            Some(path) => Some(Baseline {
                path: path.clone(),
                report: files::read_report(path)?,
            }),
            None => None,
        };
        let bundle = args
            .bundle
            .as_deref()
            .map(|dir| DirTarget::resolve(dir, &claims::bundle_names(args)))
            .transpose()?;
        let output = args.output.as_deref().map(Target::resolve).transpose()?;
        let events = args
            .events
            .as_deref()
            .map(super::events::Events::open)
            .transpose()?;
        let trace = match trace {
            Some(path) => {
                let (trace, pending) = open_trace(&path)?;
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
                output,
                bundle,
                trace,
                events,
            },
            baseline,
        })
    }
}

/// `--trace FILE`, else [`TRACE_ENV`] when the driver is an `exec:` one.
fn trace_file(args: &RunArgs) -> Option<PathBuf> {
    args.trace.clone().or_else(|| {
        std::env::var_os(TRACE_ENV)
            .filter(|v| !v.is_empty() && args.driver.command().is_some())
            .map(PathBuf::from)
    })
}

/// Refuses `--jobs` above 1 with a trace, before the trace file is opened
/// (and truncated).
///
/// # Errors
///
/// A usage error saying why.
fn jobs_with_trace(jobs: Option<u32>, traced: bool) -> Result<(), CliError> {
    match jobs {
        Some(asked) if asked > 1 && traced => Err(CliError::Usage(format!(
            "--jobs {asked} with a trace: each trace line names the one running check, so a \
             traced run runs one check at a time; drop --jobs or the trace"
        ))),
        _ => Ok(()),
    }
}

/// Starts the trace to `path` before the driver starts: the trace's
/// handle, writing to a temporary file in the directory `path` resolves
/// to, renamed onto it when kept, or in place (a FIFO, a device).
fn open_trace(path: &Path) -> Result<(Trace, Option<(tempfile::TempPath, Target)>), FileError> {
    let target = Target::resolve(path)?;
    let (out, pending): (Box<dyn std::io::Write + Send>, _) = match target.temporary()? {
        None => (target.open_in_place()?, None),
        Some(tmp) => {
            let (file, tmp) = tmp.into_parts();
            (Box::new(file), Some((tmp, target)))
        }
    };
    Ok((Trace::new(Box::new(std::io::LineWriter::new(out))), pending))
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
