//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tinymemory_api::{RecallProfile, UnknownRecallProfile};
use tinymemory_conformance::{Family, RunConfig, DEFAULT_CALL_TIMEOUT, DEFAULT_CHECK_TIMEOUT};

use crate::driver::DriverSpec;
use crate::select::{self, CheckPattern};

/// `--timeout`'s default, in seconds: the library's [`DEFAULT_CHECK_TIMEOUT`].
const DEFAULT_TIMEOUT_SECS: u64 = DEFAULT_CHECK_TIMEOUT.as_secs();

/// `--call-timeout`'s default, in seconds: the library's
/// [`DEFAULT_CALL_TIMEOUT`].
const DEFAULT_CALL_TIMEOUT_SECS: u64 = DEFAULT_CALL_TIMEOUT.as_secs();

/// `--rerun-budget`'s default, in seconds: what all the reruns of a run's
/// failing checks alone may take together.
const DEFAULT_RERUN_BUDGET_SECS: u64 = 60;

/// `--rerun-budget`'s largest value, in seconds: a year. Past what an
/// `Instant` can add, a budget once panicked the run.
const MAX_RERUN_BUDGET_SECS: u64 = 365 * 24 * 3600;

/// The largest `--timeout` and `--call-timeout`, in seconds, of every
/// command: a year, the longest limit a bundle may record (`replay`
/// refuses a longer one), so a run never writes a bundle its own `replay`
/// refuses.
pub(crate) const MAX_LIMIT_SECS: u64 = 365 * 24 * 3600;

/// The most `--jobs` a run takes, and the most jobs the default (the
/// cores) gives: a property check runs its cases on every free slot, each
/// on a fresh store (an exec driver's: a process of its own), so jobs
/// bound how many stores a run holds at once, and an N far past any
/// machine's cores started a process per case.
pub(crate) const MAX_JOBS: u32 = 1024;

/// Validate a tinymemory memory driver against the conformance suite.
#[derive(Debug, Parser)]
#[command(name = "tinymemory-conformance", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
#[allow(
    clippy::large_enum_variant,
    reason = "parsed once per process; `run`'s arguments are the largest and the usual"
)]
pub(crate) enum Command {
    /// Load the corpus into a fresh store through the section API, then run
    /// every check of the recall profile (the driver's, or `--profile`).
    /// Exit 0: all passed; 1: a check failed; 2: usage error;
    /// 3: the driver or corpus could not be opened; 4: every selected
    /// check was skipped (`--all-skipped`); 5: the driver's environment is
    /// broken (a missing module, a refused connection; `--keep-going`).
    Run(RunArgs),
    /// List every check: id, family, the recall profiles it applies to,
    /// description.
    List(ListArgs),
    /// Start an `exec:` driver, ask its `hello` and print what it
    /// declared (id, recall profile, optional ops, independent stores),
    /// then end it. Exit 0: it answered; 2: usage error or not an `exec:`
    /// driver; 3: it did not start or answer a valid `hello`.
    Hello(HelloArgs),
    /// The self-test as a table: run every check of a mutant's recall
    /// profile on every mutant of tinymemory-doubles (each wrapped around
    /// the reference driver of that profile) and show which checks caught
    /// it. Exit 0 when every mutant is caught by
    /// exactly the checks its catalogue entry names, 1 otherwise.
    Mutants,
    /// Compare two JSON reports: new failures, still failing, fixed. Exit 0
    /// when B has no failure that A lacks, 1 when it has, 2 when a file
    /// cannot be read.
    Diff(DiffArgs),
    /// Run the check of a regression bundle (written by `run --bundle`)
    /// again, with its seed and cases. Exit 0 when it passes now, 1 when it
    /// still fails (or was skipped), 2 for a bad bundle, 3 when the driver
    /// cannot be opened.
    Replay(ReplayArgs),
    /// Copy a store into another driver through export and import, in
    /// pages, then verify the target against the source (counts per
    /// namespace, every record, a SHA-256 digest). Exit 0: verified equal;
    /// 1: a record failed to import, a driver failed part-way, or the
    /// target differs; 2: usage error (a non-empty target without
    /// `--overwrite`); 3: a driver cannot be opened or does not provide
    /// the portability family.
    Migrate(MigrateArgs),
    /// Join the JSON reports of the shards of one run (`run --shard K/N`)
    /// into one report, in any format. Refused (exit 2, naming why) unless
    /// they are every shard of one run: the same seed, cases, driver,
    /// profile, selection and suite version, each shard once, each check
    /// once. Exit 0: every check passed; 1: a check failed; 2: refused;
    /// 4: every check was skipped (`--all-skipped`).
    Merge(MergeArgs),
}

/// `merge`'s options.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The shards' JSON reports (`run --shard K/N --format json`).
    #[arg(value_name = "REPORT", required = true)]
    pub(crate) reports: Vec<PathBuf>,
    /// The merged report's format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Write the merged report to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// What a merge whose every check was skipped exits with, as for
    /// `run`: `fail` (exit 4, the default), `warn` or `pass` (exit 0).
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = AllSkipped::Fail)]
    pub(crate) all_skipped: AllSkipped,
}

/// `migrate`'s options.
#[derive(Debug, Args)]
pub(crate) struct MigrateArgs {
    /// The store to copy, read only: `sqlite:PATH` (an existing file),
    /// `postgres:URL` (the tables of schema `tinymemory`) or
    /// `exec:'COMMAND ARGS'` (started without `reset`).
    #[arg(long, value_name = "DRIVER", value_parser = driver_parser())]
    pub(crate) from: DriverSpec,

    /// The store to copy into, as `--from` (a missing `sqlite:PATH` is
    /// created); a driver in memory (`reference`, say) makes a dry run
    /// whose copy is discarded.
    #[arg(long, value_name = "DRIVER", value_parser = driver_parser())]
    pub(crate) to: DriverSpec,

    /// Records per `export_page` and per `import` call (at least 1).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PAGE_SIZE,
          value_parser = parse_page_size)]
    pub(crate) page_size: usize,

    /// Migrate into a target that already holds entries: records sharing
    /// a namespace and key with a source record are replaced, the others
    /// are kept (and left out of the verification). Without it such a
    /// target is refused.
    #[arg(long)]
    pub(crate) overwrite: bool,

    /// No progress on stderr; the summary is still printed.
    #[arg(long, short)]
    pub(crate) quiet: bool,

    /// Migrate a source that holds no records. Without it such a source is
    /// refused (exit 3): a mistyped path, or an exec driver started without
    /// its file, opens an empty store, and copying it would look like a
    /// successful migration.
    #[arg(long)]
    pub(crate) allow_empty_source: bool,
}

/// `--page-size`'s default: 1,000 records, the corpus loader's batch.
const DEFAULT_PAGE_SIZE: usize = 1_000;

/// Why a `--page-size` is refused.
#[derive(Debug, thiserror::Error)]
enum PageSizeError {
    #[error("a page of 0 records never advances the export; give at least 1")]
    Zero,
    #[error("{given:?} is not a number of records: {source}")]
    NotANumber {
        given: String,
        source: std::num::ParseIntError,
    },
}

/// `--page-size`: a whole number of at least 1.
fn parse_page_size(s: &str) -> Result<usize, PageSizeError> {
    match s.parse::<usize>() {
        Ok(0) => Err(PageSizeError::Zero),
        Ok(n) => Ok(n),
        Err(source) => Err(PageSizeError::NotANumber {
            given: s.to_owned(),
            source,
        }),
    }
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    // `--help` lists each kind's spellings from its registration
    // (`crate::driver::long_help`), so a new kind is described where it
    // lives.
    #[arg(long, default_value = "sqlite", value_parser = driver_parser(),
          value_name = "SPEC",
          help = "The driver: sqlite, sqlite:PATH, postgres:URL, exec:'COMMAND ARGS' and more (--help lists every kind)",
          long_help = crate::driver::long_help())]
    pub(crate) driver: DriverSpec,

    /// With `--driver sqlite:PATH`, load the corpus into PATH even when it
    /// already holds entries (those sharing a namespace and key with a
    /// corpus entry are replaced). Without it such a store is refused.
    #[arg(long)]
    pub(crate) overwrite: bool,

    /// The recall profile to hold the driver to, `lexical` or `semantic`,
    /// instead of the one it declares (`semantic` for the semantic driver,
    /// an exec driver's `hello`, `lexical` otherwise): only the checks of
    /// that profile run.
    #[arg(long, value_name = "PROFILE", value_parser = parse_profile)]
    pub(crate) profile: Option<RecallProfile>,

    /// Corpus directory (the layout of `fixtures/corpora`). Defaults to the
    /// corpus bundled with this repository.
    #[arg(long, value_name = "DIR", conflicts_with = "no_corpus")]
    pub(crate) corpus: Option<PathBuf>,

    /// Skip loading a corpus; the corpus checks are then skipped.
    #[arg(long)]
    pub(crate) no_corpus: bool,

    /// The base of each check's time budget, in seconds (1 to a year): a
    /// check may run this long plus 1 s for every request it makes of the
    /// driver (each entry of a batch counting as one), so a driver that
    /// keeps answering is slow, not broken. A check past its budget ends
    /// as TIMEOUT (it fails the run, but no rule was found broken);
    /// docs/reports.md, "Per-check timeout".
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=MAX_LIMIT_SECS))]
    pub(crate) timeout: u64,

    /// Seconds one driver call may go unanswered before the driver is
    /// taken as hung (1 to a year): the check fails naming the call, and an
    /// exec driver's process is stopped.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_CALL_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=MAX_LIMIT_SECS))]
    pub(crate) call_timeout: u64,

    /// Run up to N checks at once, each on fresh stores of its own (for an
    /// exec driver, a process each). Default: the number of cores for an
    /// in-process driver; 1 for an exec driver unless its `hello` declares
    /// `independent_stores`, and 1 with `--trace`. Reports do not depend
    /// on N. An N above 1 for a driver whose stores are not independent,
    /// or with `--trace`, is refused, and so is an N above 1024.
    #[arg(long, short = 'j', value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_JOBS)))]
    pub(crate) jobs: Option<u32>,

    /// Run only shard K of N (`2/4`): a deterministic partition of the
    /// selected checks balanced by their measured cost, the same on every
    /// machine. The JSON report records K/N and the whole selection;
    /// `merge` joins the shards' reports into the run's.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<tinymemory_conformance::Shard>,

    /// Print only the run header, the corpus load (its warnings and
    /// summary), failures, the conformance level and the closing line: no
    /// passing checks, no example, no live status line.
    #[arg(long, short)]
    pub(crate) quiet: bool,

    /// The report format. `text` prints each check as it finishes; the
    /// others print the whole report at the end, on stdout (progress then
    /// goes to stderr) or to `--output`.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,

    /// Write the report to FILE instead of stdout; progress and the closing
    /// line still go to stdout.
    #[arg(long, short, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,

    /// Seed for the randomised checks; the same seed gives the same cases.
    #[arg(long, value_name = "S", default_value_t = RunConfig::DEFAULT_SEED)]
    pub(crate) seed: u64,

    /// Cases per property check.
    #[arg(long, value_name = "N", default_value_t = RunConfig::DEFAULT_CASES,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) cases: u32,

    /// An earlier JSON report (`--format json`): print new failures, fixed
    /// and still-failing checks, and exit 0 unless a check fails that did
    /// not fail in it.
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<PathBuf>,

    /// Write a regression bundle for each failing check into DIR (created
    /// if missing), for `replay`.
    #[arg(long, value_name = "DIR")]
    pub(crate) bundle: Option<PathBuf>,

    /// Run only the checks whose id or family matches PATTERN, a glob:
    /// `store.upsert`, `recall.*`, `*self_retrieval`, `sections`.
    /// Repeatable; a check matching any `--check` or `--family` runs. The
    /// corpus is loaded only when a corpus check is selected, and the
    /// conformance level is then never FULL. A pattern matching no check
    /// of the run's profile is a usage error.
    #[arg(long = "check", value_name = "PATTERN", value_parser = CheckPattern::parse)]
    pub(crate) checks: Vec<CheckPattern>,

    /// Run only the checks of family NAME: `contract`, `sections`,
    /// `portability`, `interface`, `corpus` or `property`. Repeatable, and
    /// adds to `--check`.
    #[arg(long = "family", value_name = "NAME", value_parser = select::parse_family)]
    pub(crate) families: Vec<Family>,

    /// What a run whose every check was skipped exits with: `fail` (exit
    /// 4, the default: nothing was verified), `warn` (exit 0, with a
    /// warning on stderr) or `pass` (exit 0).
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = AllSkipped::Fail)]
    pub(crate) all_skipped: AllSkipped,

    /// Do not rerun the failing checks of an `exec:` driver alone, each on
    /// a fresh driver process, to tell a failure that depends on the
    /// checks before it (which the rerun then names) from one that does
    /// not (docs/cli.md, "Order-dependent failures").
    #[arg(long)]
    pub(crate) no_rerun: bool,

    /// Seconds all the reruns of failing checks alone may take together
    /// (at least 1): a rerun still going when they are spent is stopped,
    /// and its check's verdict is "not decided within the rerun budget"
    /// (docs/cli.md, "Order-dependent failures").
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_RERUN_BUDGET_SECS,
          value_parser = clap::value_parser!(u64).range(1..=MAX_RERUN_BUDGET_SECS))]
    pub(crate) rerun_budget: u64,

    /// Run the checks even when the first calls fail on a broken
    /// environment (a missing module, a refused connection, a missing
    /// extension): without it such a run stops before any check, with the
    /// error and its remedy, exit 5 (docs/cli.md, "A broken environment").
    #[arg(long)]
    pub(crate) keep_going: bool,

    /// Write every request the suite sends and every answer it gets to
    /// FILE (replaced), one JSON object a line with its time, the process
    /// id (`null` for an in-process driver, traced by a decorator in the
    /// same shape) and the running check's id (docs/protocol.md,
    /// "Tracing"). Without it, `TINYMEMORY_TRACE=FILE` does the same for
    /// an `exec:` driver (and is ignored for others).
    #[arg(long, value_name = "FILE")]
    pub(crate) trace: Option<PathBuf>,

    /// Write the run's events to PATH as it goes, one JSON object a line
    /// (run started with its plan, corpus progress, each check started and
    /// finished with its report entry, run finished with the counts, the
    /// level and the shared errors): for a program showing the run
    /// (docs/reports.md, "Event stream"). `fd:N` (or `/dev/fd/N`) writes
    /// to the process's descriptor N, such as a pipe its host holds (a
    /// pipe or a file: Linux does not reopen a socket through `/dev/fd`).
    #[arg(long, value_name = "PATH", value_parser = events_path)]
    pub(crate) events: Option<PathBuf>,

    /// Stop, as on SIGTERM (the driver processes ended, the temporary
    /// files removed, exit 143, no report), when stdin reaches its end:
    /// for a host that starts the run with stdin a pipe it holds and never
    /// writes to (the pytest plugin, node:test), so the run ends with the
    /// host however the host ends (docs/cli.md, "Signals").
    #[arg(long)]
    pub(crate) stop_on_stdin_eof: bool,
}

/// `list`'s options.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// List only the checks that apply to this recall profile, `lexical`
    /// or `semantic`: those a run under it executes.
    #[arg(long, value_name = "PROFILE", value_parser = parse_profile)]
    pub(crate) profile: Option<RecallProfile>,
    /// `text`, an aligned line per check for people, or `json`, each
    /// check with its rule, usual mistake and budget, the defaults and
    /// the exit codes, for programs (docs/reports.md, "`list` JSON").
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub(crate) format: ListFormat,
}

/// `hello`'s options.
#[derive(Debug, Args)]
pub(crate) struct HelloArgs {
    /// The driver, `exec:COMMAND ARGS`: the only kind that answers `hello`.
    #[arg(long, value_name = "SPEC", value_parser = driver_parser())]
    pub(crate) driver: DriverSpec,
    /// Seconds the driver may take to answer (1 to a year): an import of a
    /// large engine can take long.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_CALL_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=MAX_LIMIT_SECS))]
    pub(crate) call_timeout: u64,
    /// `text`, one line for people, or `json`, for programs
    /// (docs/reports.md, "`hello` JSON").
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub(crate) format: ListFormat,
}

/// `list --format` and `hello --format`: for people or for programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ListFormat {
    /// Aligned lines for people.
    Text,
    /// One JSON document with a schema of its own (docs/reports.md).
    Json,
}

/// `--driver`'s value, read from the raw argument: a `sqlite:` path need
/// not be UTF-8, and any other error names the argument.
fn driver_parser() -> impl clap::builder::TypedValueParser<Value = DriverSpec> {
    use clap::builder::TypedValueParser as _;
    clap::builder::OsStringValueParser::new().try_map(|raw| DriverSpec::parse_os(&raw))
}

/// `--profile`'s value: the exact text form of a [`RecallProfile`]; an
/// unknown one is a usage error naming it.
fn parse_profile(s: &str) -> Result<RecallProfile, UnknownRecallProfile> {
    s.parse()
}

/// `--all-skipped`: how a run that verified nothing ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AllSkipped {
    /// Exit 4 with an error.
    Fail,
    /// Exit 0 with a warning.
    Warn,
    /// Exit 0.
    Pass,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// One line per check as it finishes, then the closing line.
    Text,
    /// The versioned JSON report (docs/reports.md).
    Json,
    /// JUnit XML for CI test reporters.
    Junit,
    /// Markdown for an issue or pull request.
    Markdown,
}

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The earlier JSON report (the baseline).
    #[arg(value_name = "A")]
    pub(crate) baseline: PathBuf,
    /// The later JSON report.
    #[arg(value_name = "B")]
    pub(crate) current: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The bundle file.
    #[arg(value_name = "FILE")]
    pub(crate) bundle: PathBuf,

    /// The driver to replay against (same values as `run --driver`);
    /// defaults to the driver the bundle was recorded on.
    #[arg(long, value_parser = driver_parser())]
    pub(crate) driver: Option<DriverSpec>,

    /// Corpus directory, for a corpus check; defaults to the bundled
    /// corpus.
    #[arg(long, value_name = "DIR")]
    pub(crate) corpus: Option<PathBuf>,

    /// Seconds the check may run before it fails with a timeout (1 to a
    /// year); defaults to the budget the bundle records its run had (`run
    /// --timeout`), else 60.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=MAX_LIMIT_SECS))]
    pub(crate) timeout: Option<u64>,

    /// Seconds one driver call may go unanswered before the driver is
    /// taken as hung (1 to a year); defaults to the limit the bundle
    /// records its run had (`run --call-timeout`), else 30.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=MAX_LIMIT_SECS))]
    pub(crate) call_timeout: Option<u64>,
}

/// `--events`'s value: `fd:N` is `/dev/fd/N`, any other a path.
///
/// # Errors
///
/// `fd:` followed by anything but a descriptor number.
fn events_path(value: &str) -> Result<PathBuf, String> {
    match value.strip_prefix("fd:") {
        Some(n) => n
            .parse::<u32>()
            .map(|n| PathBuf::from(format!("/dev/fd/{n}")))
            .map_err(|_| format!("fd:{n}: expected fd:N, N a file descriptor number such as 3")),
        None => Ok(PathBuf::from(value)),
    }
}
