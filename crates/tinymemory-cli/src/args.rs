//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::driver::DriverSpec;

/// Validate a tinymemory memory driver against the conformance suite.
#[derive(Debug, Parser)]
#[command(name = "tinymemory-conformance", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Load the corpus into a fresh store through the section API, then run
    /// every check. Exit 0: all passed; 1: a check failed; 2: usage error;
    /// 3: the driver or corpus could not be opened.
    Run(RunArgs),
    /// List every check: id, family, description.
    List,
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The driver: `reference`, `sqlite` (a temporary file) or
    /// `sqlite:PATH` (the corpus store is written to PATH; checks use fresh
    /// temporary files).
    #[arg(long, default_value = "sqlite", value_parser = DriverSpec::parse)]
    pub(crate) driver: DriverSpec,

    /// Corpus directory (the layout of `fixtures/corpora`). Defaults to the
    /// corpus bundled with this repository.
    #[arg(long, value_name = "DIR", conflicts_with = "no_corpus")]
    pub(crate) corpus: Option<PathBuf>,

    /// Skip loading a corpus; the corpus checks are then skipped.
    #[arg(long)]
    pub(crate) no_corpus: bool,

    /// Seconds one check may run before it fails with a timeout.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub(crate) timeout: u64,

    /// Print only failures and the closing line.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}
