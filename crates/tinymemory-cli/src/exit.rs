//! Process exit codes, one meaning each. README.md ("Exit codes") and
//! docs/reports.md list them for users.

/// Every check passed (skips and expected failures allowed), or, with
/// `--baseline`, every failing check already failed in the baseline; for
/// `diff`, no new failure; for `replay`, the check passes now.
pub const SUCCESS: u8 = 0;
/// A check failed (with `--baseline`: a check failed that did not fail in
/// the baseline); for `replay`, the check still fails.
pub const FAILURES: u8 = 1;
/// The command line was wrong (clap exits with this code too), or a file it
/// names cannot be used: a missing, malformed or future-version baseline,
/// report or bundle, or an `--output` / `--bundle` path that cannot be
/// written.
pub const USAGE: u8 = 2;
/// The driver, the corpus or the runtime could not be set up.
pub const SETUP: u8 = 3;
