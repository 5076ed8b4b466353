//! `replay FILE`: run a regression bundle's check again.

use std::sync::Arc;
use std::time::Duration;

use tinymemory_api::shown::{shown, visible};
use tinymemory_conformance::report::RunCorpus;
use tinymemory_conformance::{Bundle, Family, Registry};
use tinymemory_corpus::Corpus;

use crate::args::ReplayArgs;
use crate::console::{Console, Stream};
use crate::driver::DriverSpec;
use crate::error::{CliError, CliResult};
use crate::identity::Claims;
use crate::progress::ConsoleProgress;
use crate::{corpus, driver, exit, files, runtime};

pub(crate) fn main(args: &ReplayArgs) -> CliResult {
    let bundle = files::read_bundle(&args.bundle)?;
    let registry = Registry::standard();
    let reads_corpus = registry_family(&registry, &bundle, &args.bundle)? == Family::Corpus;
    if bundle.cases == 0 {
        // `run --cases 0` is refused; a replay of no case would report
        // "not run" as if the driver had been judged.
        return Err(CliError::Usage(format!(
            "{}: the bundle's cases is 0, and a run has at least 1 case per property check \
             (`run --cases` takes 1 or more); the bundle was edited or written by another tool, \
             so it is not replayed",
            args.bundle.display()
        )));
    }
    let spec = match (&args.driver, &bundle.driver_spec) {
        (Some(spec), _) => spec.clone(),
        (None, Some(recorded)) => match DriverSpec::parse(recorded) {
            // A bundle is a file anyone may send: its command is shown,
            // never run, unless the reader names it.
            Ok(spec) if spec.command().is_some() => {
                let command = spec.command().map(ToString::to_string).unwrap_or_default();
                return Err(CliError::Usage(format!(
                    "{}: the bundle was recorded against an exec driver, and replay never \
                     runs a command read from a file; the recorded command is:\n  {}\n\
                     read it, then pass it with --driver 'exec:COMMAND' (or choose another --driver)",
                    args.bundle.display(),
                    visible(&command)
                )));
            }
            Ok(spec) => spec,
            Err(e) => {
                return Err(CliError::Usage(format!(
                    "{}: failed to use the recorded driver: {}; pass --driver",
                    args.bundle.display(),
                    visible(&e.to_string())
                )));
            }
        },
        (None, None) => {
            return Err(CliError::Usage(format!(
                "{}: the bundle records no driver spec; pass --driver",
                args.bundle.display()
            )));
        }
    };
    check_claims(args, &spec, reads_corpus)?;
    runtime::build()?.block_on(replay(args, &registry, &bundle, &spec, reads_corpus))
}

async fn replay(
    args: &ReplayArgs,
    registry: &Registry,
    bundle: &Bundle,
    spec: &DriverSpec,
    reads_corpus: bool,
) -> CliResult {
    let console = Console::new(Stream::Stdout, true);
    let not_opened = driver::not_opened;
    let limits = Limits::of(args, bundle)?;
    let exec = tinymemory_exec::ExecConfig::default().with_request_timeout(limits.call);
    let opened = driver::open_with(spec, exec).map_err(|e| not_opened(&e))?;
    driver::probe(&opened).await.map_err(|e| not_opened(&e))?;
    console.line(&header(bundle, spec));
    if let Some(note) = version_note(bundle) {
        console.line(&note);
    }
    // Only a corpus check reads the corpus; loading it for any other would
    // only cost time. The registry says which checks those are, not the
    // bundle's family field (checked against it, but a file's word).
    let corpus = if reads_corpus {
        let (loaded, facts) = corpus::load(
            args.corpus.as_deref(),
            opened
                .corpus_store
                .open()
                .await
                .map_err(|e| not_opened(&e))?,
            &console,
            false,
            &mut ConsoleProgress::new(&console, true),
        )
        .await?;
        same_corpus(args, bundle, RunCorpus::Loaded(facts))?;
        Some(Arc::new(loaded))
    } else {
        None
    };
    let result = bundle
        .replay_within(
            registry,
            opened.factory,
            corpus,
            limits.timeout,
            limits.call,
        )
        .await;
    let replay = result.map_err(|e| CliError::Usage(format!("{}: {e}", args.bundle.display())))?;
    files::stdout(&replay.to_text(bundle))?;
    Ok(
        if replay.still_fails() || replay.verdict == tinymemory_conformance::report::Verdict::NotRun
        {
            exit::FAILURES
        } else {
            exit::SUCCESS
        },
    )
}

/// The note a replay prints when another tool or version recorded the
/// bundle: a check's meaning and the cases a seed draws may change between
/// versions, so a pass is not proof that the recorded fault is gone.
fn version_note(bundle: &Bundle) -> Option<String> {
    let this = env!("CARGO_PKG_VERSION");
    (bundle.tool != "tinymemory-conformance" || bundle.tool_version != this).then(|| {
        format!(
            "note: the bundle was recorded by {} {} and this is {this}: a check's meaning and its \
             cases may change between versions, so a pass here may not mean the recorded fault \
             is fixed",
            shown(&bundle.tool),
            shown(&bundle.tool_version)
        )
    })
}

/// Refuses a replay of a corpus check over another corpus than its bundle
/// records: the check's verdict holds for its own corpus only, so a pass
/// over another would read as a fix. A bundle recording none (written
/// before it was recorded) is replayed over any.
fn same_corpus(args: &ReplayArgs, bundle: &Bundle, now: RunCorpus) -> Result<(), CliError> {
    match &bundle.corpus {
        Some(recorded) if !recorded.same_as(&now) => Err(CliError::Usage(format!(
            "{}: the bundle's check {} failed over the corpus {}, and this replay loaded {}; a \
             corpus check's verdict holds for its own corpus only: pass --corpus with the \
             recorded corpus",
            args.bundle.display(),
            shown(&bundle.check),
            shown(&recorded.describe()),
            shown(&now.describe())
        ))),
        _ => Ok(()),
    }
}

/// Refuses, before anything is opened, a store that is a file the replay
/// reads, as `run` does (`run/claims.rs`): a `sqlite:PATH` store, or one of
/// its companions, that is the bundle or lies in the corpus. The bundle is
/// claimed with its SQLite companions too, so `sqlite:BUNDLE-wal` (a file
/// SQLite would take for the bundle's journal) is refused. The corpus
/// counts when it is read (a corpus check) or named (`--corpus`).
fn check_claims(args: &ReplayArgs, spec: &DriverSpec, reads_corpus: bool) -> Result<(), CliError> {
    let mut claims = Claims::default();
    claims.sqlite_store(
        &format!("the bundle {}", args.bundle.display()),
        &args.bundle,
        false,
    );
    if reads_corpus || args.corpus.is_some() {
        let root = args.corpus.clone().unwrap_or_else(Corpus::default_root);
        claims.read_tree_files(&format!("the corpus {}", root.display()), &root);
    }
    // Every claim but the store's reads: the files a command's words name
    // are read too, so only the store can clash.
    let driver = format!("--driver {}", shown(&spec.to_string()));
    spec.claim_files(
        &mut claims,
        (&format!("the store of {driver}"), &driver),
        true,
        false,
    );
    claims.check().map_err(|clash| CliError::Clash {
        clash,
        why: "replay never writes a file it reads, so nothing was opened; name another store",
    })
}

/// The family, in `registry`, of the bundle's check: the registry decides
/// how the check runs (whether it reads the corpus), so a bundle whose id
/// the registry lacks, or whose `family` field says otherwise (edited, or
/// from another build), is refused before any driver opens.
///
/// # Errors
///
/// A usage error naming the bundle's `path` and what of it this build
/// does not know.
fn registry_family(
    registry: &Registry,
    bundle: &Bundle,
    path: &std::path::Path,
) -> Result<Family, CliError> {
    let Some(check) = registry.get(&bundle.check) else {
        return Err(CliError::Usage(format!(
            "{}: the bundle's check \"{}\" is not a check of this build (`list` shows them), \
             so it is not replayed",
            path.display(),
            shown(&bundle.check)
        )));
    };
    if check.family.as_str() != bundle.family {
        return Err(CliError::Usage(format!(
            "{}: the bundle's family \"{}\" is not the family of its check {} in this build \
             (\"{}\"); the bundle was edited or written by another build, so it is not replayed",
            path.display(),
            shown(&bundle.family),
            check.id,
            check.family.as_str()
        )));
    }
    Ok(check.family)
}

/// The limits a replay holds its check to: `--timeout` and
/// `--call-timeout` when given, else those the bundle records its run
/// had, else the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Limits {
    /// The per-check budget.
    timeout: Duration,
    /// The limit on one driver call, the driver's start included.
    call: Duration,
}

/// The longest limit a bundle may record, in seconds: a year, as
/// `--rerun-budget`'s bound (a larger one overflowed the runtime's
/// timers).
const MAX_RECORDED_SECS: u64 = crate::args::MAX_LIMIT_SECS;

impl Limits {
    /// The limits of `args`' replay of `bundle`.
    ///
    /// # Errors
    ///
    /// A usage error naming the bundle's field when it records a limit
    /// under 1 s or over a year (a bundle is a file anyone may send).
    fn of(args: &ReplayArgs, bundle: &Bundle) -> Result<Self, CliError> {
        let pick =
            |given: Option<u64>, recorded: Option<u64>, field: &str, default: Duration| match (
                given, recorded,
            ) {
                (Some(secs), _) => Ok(Duration::from_secs(secs)),
                (None, Some(secs)) if (1..=MAX_RECORDED_SECS).contains(&secs) => {
                    Ok(Duration::from_secs(secs))
                }
                (None, Some(secs)) => Err(CliError::Usage(format!(
                    "{}: the bundle's {field} {secs} is not a limit this build runs under \
                     (1 to {MAX_RECORDED_SECS} seconds); pass the option it records to override \
                     it",
                    args.bundle.display()
                ))),
                (None, None) => Ok(default),
            };
        Ok(Self {
            timeout: pick(
                args.timeout,
                bundle.timeout_secs,
                "timeout_secs",
                tinymemory_conformance::DEFAULT_CHECK_TIMEOUT,
            )?,
            call: pick(
                args.call_timeout,
                bundle.call_timeout_secs,
                "call_timeout_secs",
                tinymemory_conformance::DEFAULT_CALL_TIMEOUT,
            )?,
        })
    }
}

/// The line announcing the replay: every text of the bundle (a file anyone
/// may send) and the driver spec escaped and cut ([`shown`]), as `diff`
/// and `--baseline` show theirs.
fn header(bundle: &Bundle, spec: &DriverSpec) -> String {
    format!(
        "replaying {} ({}) against {}, seed {}, {} cases; recorded against {} by {} {} at {}",
        shown(&bundle.check),
        shown(&bundle.family),
        shown(&spec.to_string()),
        bundle.seed,
        bundle.cases,
        shown(bundle.driver_spec.as_deref().unwrap_or(&bundle.driver_id)),
        shown(&bundle.tool),
        shown(&bundle.tool_version),
        shown(&bundle.recorded_at)
    )
}
