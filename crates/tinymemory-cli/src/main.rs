//! `tinymemory-conformance`: run the conformance suite against a memory
//! driver, over the real corpus.
//!
//! ```text
//! tinymemory-conformance run [--driver reference|semantic|sqlite[:PATH]|..] [--profile lexical|semantic]
//!                            [--corpus DIR | --no-corpus] ..
//! tinymemory-conformance list [--profile lexical|semantic] [--format text|json]
//! tinymemory-conformance hello --driver exec:COMMAND [--call-timeout SECS] [--format text|json]
//! tinymemory-conformance migrate --from DRIVER --to DRIVER [--page-size N] [--overwrite]
//! ```
//!
//! Exit codes are the constants of [`exit`]: 0 every check passed, 1 a check
//! failed, 2 usage error, 3 the driver or the corpus could not be opened,
//! 4 every selected check was skipped.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// `eprintln!` that never panics: a message that cannot be written
/// (stderr's reader gone, `2>&1 | true`, `2>/dev/full`) is dropped, and
/// the exit code still says how the command ended, where `eprintln!`
/// turned every such exit into a panic's 101.
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod args;
mod cleanup;
mod console;
mod corpus;
mod diff;
mod driver;
mod error;
mod exit;
mod files;
mod hello;
mod identity;
mod list;
mod merge;
mod migrate;
mod mutants;
mod progress;
mod replay;
mod run;
mod runtime;
mod scratch;
mod select;
mod shared;
mod target;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

/// How long the end of a command waits for exec driver processes to exit
/// after their stdin closed (each gets `EXIT_GRACE`, then its group
/// `SIGTERM` and `TERM_GRACE`, then `SIGKILL`) before it kills those still
/// running.
const DRIVER_EXIT_WAIT: Duration = tinymemory_exec::EXIT_GRACE
    .saturating_add(tinymemory_exec::TERM_GRACE)
    .saturating_add(Duration::from_secs(1));

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    cleanup::install();
    let result = match cli.command {
        args::Command::Run(run) => run::main(&run),
        args::Command::List(list) => list::main(&list),
        args::Command::Hello(hello) => hello::main(&hello),
        args::Command::Mutants => mutants::main(),
        args::Command::Diff(diff) => diff::main(&diff),
        args::Command::Replay(replay) => replay::main(&replay),
        args::Command::Migrate(migrate) => migrate::main(&migrate),
        args::Command::Merge(merge) => merge::main(&merge),
    };
    // Interrupted, the result is the stopped processes': the handler exits.
    cleanup::wait_if_interrupted();
    let code = result.unwrap_or_else(|e| e.report());
    // Every driver is dropped by now; wait for their processes, so none
    // outlives the command.
    tinymemory_exec::shutdown(DRIVER_EXIT_WAIT);
    ExitCode::from(code)
}
