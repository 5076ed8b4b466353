//! `tinymemory-conformance`: run the conformance suite against a memory
//! driver, over the real corpus.
//!
//! ```text
//! tinymemory-conformance run [--driver reference|semantic|sqlite[:PATH]|..] [--profile lexical|semantic]
//!                            [--corpus DIR | --no-corpus] ..
//! tinymemory-conformance list [--profile lexical|semantic]
//! ```
//!
//! Exit codes are the constants of [`exit`]: 0 every check passed, 1 a check
//! failed, 2 usage error, 3 the driver or the corpus could not be opened.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod args;
mod console;
mod corpus;
mod diff;
mod driver;
mod exit;
mod files;
mod list;
mod mutants;
mod replay;
mod run;
mod runtime;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let code = match cli.command {
        args::Command::Run(run) => run::main(&run),
        args::Command::List(list) => list::main(&list),
        args::Command::Mutants => mutants::main(),
        args::Command::Diff(diff) => diff::main(&diff),
        args::Command::Replay(replay) => replay::main(&replay),
    };
    ExitCode::from(code)
}
