//! `mutants`: the self-test as a table. Every mutant of the
//! `tinymemory-doubles` catalogue is wrapped around a fresh reference
//! driver of its recall profile ([`Mutant::base`]) per check and
//! run against the standard registry's checks of that profile (no corpus);
//! each row says which checks caught it.

use std::io::Write;

use futures::StreamExt;
use tinymemory_api::RecallProfile;
use tinymemory_conformance::self_test::{run_mutants, MutantRun, MutantVerdict};
use tinymemory_conformance::Registry;
use tinymemory_doubles::{mutants, Mutant};

use crate::error::{CliError, CliResult};
use crate::{exit, runtime};

pub(crate) fn main() -> CliResult {
    runtime::build()?.block_on(run())
}

async fn run() -> CliResult {
    // A closed pipe (`| head -1`) is not an error, as for the other
    // commands: the table is still worked out, so the exit code tells
    // whether every mutant was caught.
    match table(&mut PipeTolerant(std::io::stdout().lock())).await {
        Ok(0) => Ok(exit::SUCCESS),
        Ok(_) => Ok(exit::FAILURES),
        Err(e) => Err(CliError::Setup(format!(
            "failed to write the table to stdout: {e}"
        ))),
    }
}

/// A writer that stops writing, without an error, once the reader has
/// closed the pipe.
struct PipeTolerant<W>(W);

impl<W: std::io::Write> std::io::Write for PipeTolerant<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.write(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(buf.len()),
            other => other,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.0.flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    }
}

/// Runs every mutant and writes the table to `out`, returning how many
/// mutants were not caught exactly as their catalogue entry records.
async fn table(out: &mut impl Write) -> std::io::Result<usize> {
    let registry = Registry::standard();
    let catalogue = mutants();
    let name_w = catalogue.iter().map(|m| m.name.len()).max().unwrap_or(0);
    let check_w = registry
        .checks()
        .iter()
        .map(|c| c.id.len())
        .max()
        .unwrap_or(0);
    let profile_w = RecallProfile::ALL
        .iter()
        .map(|p| p.as_str().len())
        .max()
        .unwrap_or(0);
    writeln!(out, "{}", heading(&registry, catalogue))?;
    // Two lines a mutant: the result row, then the rule it breaks under
    // the mutant's name. Column widths come from the catalogue and the
    // registry, so rows print as each mutant finishes (the progress).
    writeln!(
        out,
        "{:<8}  {:<name_w$}  {:<profile_w$}  {:<check_w$}  caught by",
        "result", "mutant", "profile", "expected check"
    )?;
    writeln!(out, "{:<8}  rule", "")?;
    // As many mutants at once as there are cores (each check on a fresh
    // driver, so the runs are independent); rows are written in catalogue
    // order as their runs finish.
    let at_once = std::thread::available_parallelism().map_or(1, usize::from);
    let mut runs = std::pin::pin!(run_mutants(registry.clone(), catalogue, at_once));
    let mut escaped = 0usize;
    while let Some(run) = runs.next().await {
        let m = run.mutant;
        if let Some(error) = &run.error {
            // The runner isolates check panics, so this is a panic of the
            // runner itself: the mutant is caught by nothing.
            stderr_line!(
                "error: failed to run the checks on mutant {}: {error}",
                m.name
            );
        }
        let verdict = run.verdict();
        if verdict != MutantVerdict::Caught {
            escaped += 1;
        }
        writeln!(
            out,
            "{:<8}  {:<name_w$}  {:<profile_w$}  {:<check_w$}  {}",
            verdict.label(),
            m.name,
            m.profile.as_str(),
            m.check,
            caught_by(&run)
        )?;
        writeln!(out, "{:<8}  {}", "", m.rule)?;
        out.flush()?;
    }
    writeln!(
        out,
        "{} passed, {escaped} failed",
        catalogue.len() - escaped
    )?;
    Ok(escaped)
}

/// The table's first line: how many mutants, and per recall profile that
/// has any, how many wrap its reference driver and how many checks they
/// run against: `18 mutants of tinymemory-doubles, each wrapped around the
/// reference driver of its recall profile and run against that profile's
/// checks: 18 lexical (reference, 33 checks)`.
fn heading(registry: &Registry, catalogue: &[Mutant]) -> String {
    let per_profile: Vec<String> = RecallProfile::ALL
        .into_iter()
        .filter_map(|p| {
            let of_p: Vec<&Mutant> = catalogue.iter().filter(|m| m.profile == p).collect();
            let base = of_p.first()?.base();
            Some(format!(
                "{} {p} ({}, {} checks)",
                of_p.len(),
                base.driver_id(),
                registry.for_profile(p).len()
            ))
        })
        .collect();
    format!(
        "{} mutants of tinymemory-doubles, each wrapped around the reference driver of its \
         recall profile and run against that profile's checks: {}",
        catalogue.len(),
        per_profile.join(", ")
    )
}

/// The table's last column: the checks that failed a rule, in registry
/// order (`-` for none), then `; timed out: ..` with those past their
/// budget.
fn caught_by(run: &MutantRun) -> String {
    let mut column = if run.failed.is_empty() {
        "-".to_owned()
    } else {
        run.failed.join(", ")
    };
    if !run.timed_out.is_empty() {
        column.push_str(&format!("; timed out: {}", run.timed_out.join(", ")));
    }
    column
}

#[cfg(test)]
mod tests {
    use tinymemory_conformance::{Check, Family, Outcome, Profiles};

    use super::*;

    fn check(id: &'static str, profiles: Profiles) -> Check {
        Check {
            id,
            family: Family::Contract,
            profiles,
            description: "what the driver must do",
            run: |_| Box::pin(async { Outcome::Pass }),
        }
    }

    #[test]
    fn the_heading_counts_mutants_and_checks_per_profile() {
        let registry = Registry::from_checks(vec![
            check("store.upsert", Profiles::BOTH),
            check("recall.words", Profiles::LEXICAL),
            check("recall.ranked", Profiles::SEMANTIC),
        ]);
        let m = |name| *tinymemory_doubles::mutant(name).unwrap();
        assert_eq!(
            heading(&registry, &[m("limit-plus-one"), m("like-wildcards")]),
            "2 mutants of tinymemory-doubles, each wrapped around the reference driver of its \
             recall profile and run against that profile's checks: 2 lexical (reference, 2 checks)"
        );
        assert_eq!(
            heading(
                &registry,
                &[m("limit-plus-one"), m("short-top-k"), m("distance-scores")]
            ),
            "3 mutants of tinymemory-doubles, each wrapped around the reference driver of its \
             recall profile and run against that profile's checks: 1 lexical (reference, 2 checks), \
             2 semantic (semantic-reference, 2 checks)"
        );
    }

    #[test]
    fn the_last_column_names_the_failures_then_the_timeouts() {
        let m = tinymemory_doubles::mutant("forget-always-true").unwrap();
        let run = |failed: &[&'static str], timed_out: &[&'static str]| MutantRun {
            mutant: m,
            failed: failed.to_vec(),
            timed_out: timed_out.to_vec(),
            error: None,
        };
        assert_eq!(caught_by(&run(&[], &[])), "-");
        assert_eq!(
            caught_by(&run(&["forget.idempotent", "model.differential"], &[])),
            "forget.idempotent, model.differential"
        );
        assert_eq!(
            caught_by(&run(&["model.differential"], &["forget.idempotent"])),
            "model.differential; timed out: forget.idempotent"
        );
        assert_eq!(
            caught_by(&run(&[], &["forget.idempotent"])),
            "-; timed out: forget.idempotent"
        );
    }
}
