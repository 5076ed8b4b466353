//! Process exit codes, one meaning each.

/// Every check passed (skips allowed).
pub const SUCCESS: u8 = 0;
/// At least one check failed.
pub const FAILURES: u8 = 1;
/// The command line was wrong (clap exits with this code too).
pub const USAGE: u8 = 2;
/// The driver, the corpus or the runtime could not be set up.
pub const SETUP: u8 = 3;
