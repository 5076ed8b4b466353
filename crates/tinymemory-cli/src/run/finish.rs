//! The end of a run: the bundles, the report, the comparison with the
//! baseline and the exit code.

use tinymemory_conformance::{Bundle, Comparison, Report};

use super::plan::RunPlan;
use crate::args::{AllSkipped, Format};
use crate::console::Console;
use crate::error::{CliError, CliResult};
use crate::files::FileError;
use crate::{exit, files, shared};

/// Writes the report, the bundles (each with its check's own message: the
/// notes a run added, such as a rerun's verdict, are not a bundle's, whose
/// replay runs the check alone and never reruns it) and the comparison;
/// the closing line is the last line of progress.
///
/// # Errors
///
/// A file that cannot be written, or progress that was lost
/// ([`exit::USAGE`]); a run whose every check was skipped
/// ([`exit::NO_CHECKS_RAN`], by [`all_skipped`]).
pub(crate) fn finish(plan: &RunPlan, report: &Report, console: &Console) -> CliResult {
    let mut bundles = Vec::new();
    if let Some(dir) = &plan.outputs.bundle {
        let made = dir.create()?;
        for bundle in Bundle::all_from(report) {
            // The limits the check ran under, which replay keeps.
            let bundle = bundle.with_limits(plan.timeout, plan.call_timeout);
            dir.file(&made, &bundle.file_name())
                .and_then(|t| t.write(&bundle.to_json()))?;
            let path = dir.named().join(bundle.file_name());
            console.line(&format!("bundle: {}", path.display()));
            bundles.push((bundle.check.clone(), path));
        }
    }
    write_report(plan, report, console)?;
    if let Some(events) = &plan.outputs.events {
        events.run_finished(report, &bundles);
        if let Some(message) = events.write_error() {
            return Err(CliError::Usage(message));
        }
    }
    for line in shared::lines(report) {
        console.line(&line);
    }
    console.line(&report.conformance_line());
    let gate_fails = match &plan.baseline {
        Some(b) => {
            let cmp = Comparison::between(&b.report, report);
            for line in cmp.to_text().lines() {
                console.line(line);
            }
            cmp.has_new_failures()
        }
        None => report.counts.failed() > 0,
    };
    console.line(&report.closing_line());
    if let Some(message) = console.write_error() {
        return Err(CliError::Usage(message));
    }
    if gate_fails {
        return Ok(exit::FAILURES);
    }
    all_skipped(plan.all_skipped, report.counts.total, report.counts.skip)
}

/// [`exit::SUCCESS`] unless every one of a run's `total` checks was
/// skipped and `--all-skipped` says such a run fails.
///
/// # Errors
///
/// [`exit::NO_CHECKS_RAN`] for a run of `total` checks, every one skipped,
/// under [`AllSkipped::Fail`].
pub(crate) fn all_skipped(policy: AllSkipped, total: usize, skipped: usize) -> CliResult {
    if total == 0 || skipped < total {
        return Ok(exit::SUCCESS);
    }
    match policy {
        AllSkipped::Fail => Err(CliError::NothingVerified { skipped, total }),
        AllSkipped::Warn => {
            stderr_line!(
                "warning: every selected check was skipped ({skipped} of {total}), so nothing \
                 was verified"
            );
            Ok(exit::SUCCESS)
        }
        AllSkipped::Pass => Ok(exit::SUCCESS),
    }
}

/// The rendered report to `--output`, or to stdout for a non-text format.
/// A text run without `--output` has already printed its lines.
fn write_report(plan: &RunPlan, report: &Report, console: &Console) -> Result<(), FileError> {
    let outputs = &plan.outputs;
    let colour_text = outputs.output.is_none() && console.colour();
    let rendered = match outputs.format {
        Format::Text => report.to_text(colour_text),
        Format::Json => report.to_json(),
        Format::Junit => report.to_junit(),
        Format::Markdown => report.to_markdown(),
    };
    match &outputs.output {
        Some(target) => {
            target.write(&rendered)?;
            console.line(&format!("report: {}", target.named().display()));
            Ok(())
        }
        None if outputs.format == Format::Text => Ok(()),
        None => {
            debug_assert!(!console.is_stdout());
            files::report_stdout(&rendered)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_that_skipped_every_check_fails_unless_told_otherwise() {
        let code = |r: CliResult| r.unwrap_or_else(|e| e.exit_code());
        assert_eq!(
            code(all_skipped(AllSkipped::Fail, 4, 4)),
            exit::NO_CHECKS_RAN
        );
        assert_eq!(code(all_skipped(AllSkipped::Warn, 4, 4)), exit::SUCCESS);
        assert_eq!(code(all_skipped(AllSkipped::Pass, 4, 4)), exit::SUCCESS);
        // One check ran: the run verified something.
        assert_eq!(code(all_skipped(AllSkipped::Fail, 4, 3)), exit::SUCCESS);
        assert_eq!(code(all_skipped(AllSkipped::Fail, 0, 0)), exit::SUCCESS);
    }
}
