//! Process exit codes, one meaning each. docs/cli.md ("Exit codes") and
//! docs/reports.md list them for users.

/// Every check passed (skips and expected failures allowed), or, with
/// `--baseline`, every failing check already failed in the baseline; for
/// `diff`, no new failure; for `replay`, the check passes now; for
/// `migrate`, the target verified equal to the source.
pub const SUCCESS: u8 = 0;
/// A check failed (with `--baseline`: a check failed that did not fail in
/// the baseline); for `replay`, the check still fails; for `migrate`, a
/// record failed to import, a driver failed part-way, or the target
/// differs from the source.
pub const FAILURES: u8 = 1;
/// The command line was wrong (clap exits with this code too), or a file it
/// names cannot be used: a missing, malformed or future-version baseline,
/// report or bundle, or an `--output` / `--bundle` path that cannot be
/// written; for `migrate`, a target that holds entries without
/// `--overwrite`, or a `--from`/`--to` that names no store.
pub const USAGE: u8 = 2;
/// The driver, the corpus or the runtime could not be set up; for
/// `migrate`, also a driver that does not provide the portability family
/// (`MemoryError::Unsupported`).
pub const SETUP: u8 = 3;
/// `run`: every selected check was skipped, so nothing was verified (a
/// driver without the families the selection names, a corpus check with
/// `--no-corpus`); `--all-skipped pass` or `warn` makes it 0. The code and
/// the default follow nextest's "no tests to run" (exit 4, `--no-tests
/// fail`), so a CI gate never passes a driver on nothing.
pub const NO_CHECKS_RAN: u8 = 4;
/// `run`: the driver's environment is broken: its first calls failed on a
/// missing module, a refused connection or a missing database extension,
/// so the run stopped before any check with the error and its remedy
/// (docs/cli.md, "A broken environment"); `--keep-going` runs the checks
/// anyway. A code of its own, so a host (the pytest plugin, node:test)
/// shows the one message and no check as failed.
pub const BROKEN_ENVIRONMENT: u8 = 5;
