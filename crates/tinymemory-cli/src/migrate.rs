//! `migrate`: copy a store into another driver through the portability
//! family (`export_page`, `import`), in pages, then verify the target
//! against the source.

mod digest;
pub(crate) mod open;
mod pages;
mod same;
mod spot;
mod verify;

use std::collections::BTreeSet;
use std::time::Instant;

use tinymemory_api::portability::ImportFailure;
use tinymemory_api::shown::{shown, visible};
use tinymemory_api::{MemoryError, MemoryProvider};

use crate::args::MigrateArgs;
use crate::console::{Console, Stream};
use crate::error::{CliError, CliResult};
use crate::{cleanup, exit, runtime};

use self::digest::Digest;
use self::open::End;
use self::pages::Pages;
use self::verify::{Key, SHOWN};

pub(crate) fn main(args: &MigrateArgs) -> CliResult {
    runtime::build()?.block_on(migrate(args))
}

/// [`run`], its error shown with a driver's control characters escaped.
async fn migrate(args: &MigrateArgs) -> CliResult {
    run(args).await.map_err(|e| match e {
        CliError::Usage(m) => CliError::Usage(visible(&m).into_owned()),
        CliError::Setup(m) => CliError::Setup(visible(&m).into_owned()),
        CliError::Failed(m) => CliError::Failed(visible(&m).into_owned()),
        other => other,
    })
}

async fn run(args: &MigrateArgs) -> CliResult {
    if args.from == args.to && args.from.to_string() == args.to.to_string() {
        return Err(CliError::Usage(format!(
            "--from and --to both name {}: a store cannot be migrated into itself",
            args.from
        )));
    }
    let same = match same::same_files(&args.from, &args.to) {
        Some(why) => Some(why),
        None => same::same_server(&args.from, &args.to).await?,
    };
    if let Some(why) = same {
        return Err(CliError::Usage(format!(
            "{why}: a store cannot be migrated into itself"
        )));
    }
    let console = Console::new(Stream::Stderr, args.quiet);
    let source = open::open(&args.from, End::Source).await?;
    let target = open::open(&args.to, End::Target).await?;
    let (from, to) = (args.from.to_string(), args.to.to_string());
    let src = source.provider.as_ref();
    let dst = target.provider.as_ref();
    provides_portability(src, End::Source, &from).await?;
    provides_portability(dst, End::Target, &to).await?;
    let listed = src
        .namespaces()
        .await
        .map_err(|e| CliError::Setup(format!("failed to read --from {from}: {e}")))?;
    let total: u64 = listed.iter().map(|n| n.count).sum();
    if total == 0 && !args.allow_empty_source {
        return Err(CliError::Setup(format!(
            "--from {from} holds no records, so there is nothing to migrate: a mistyped \
                 path or an exec driver started without its file opens an empty store; \
                 --allow-empty-source migrates it anyway"
        )));
    }
    let kept = refuse_or_keep(dst, &to, args).await?;
    if target.in_memory {
        console.line(&format!(
            "note: --to {} is in memory: this is a dry run, its copy is discarded at the end",
            args.to
        ));
    }

    if !target.in_memory {
        cleanup::note_on_signal(format!(
            "the target {to} may hold a partial copy: rerun with --overwrite to copy \
             everything again and verify it"
        ));
    }
    let started = Instant::now();
    let copied = copy(
        (src, &from),
        (dst, &to, target.in_memory),
        args.page_size,
        total,
        &console,
    )
    .await?;
    let secs = started.elapsed().as_secs_f64();
    console.idle();
    #[allow(clippy::cast_precision_loss)] // a rate for a human
    let rate = if secs > 0.0 {
        copied.records as f64 / secs
    } else {
        0.0
    };
    println!(
        "migrated {} in {} from {from} to {to}: {} of at most {}, \
         {secs:.1} s, {rate:.0} records/s",
        counted(copied.records, "record"),
        counted(u64::try_from(listed.len()).unwrap_or(u64::MAX), "namespace"),
        counted(copied.pages, "page"),
        args.page_size
    );
    let mut failed = false;
    if !copied.failures.is_empty() {
        failed = true;
        stderr_line!(
            "error: {} records failed to import into {to}:",
            copied.failures.len()
        );
        for (at, f) in copied.failures.iter().take(SHOWN) {
            stderr_line!(
                "  record {at} ({} {}): {}",
                shown(&f.namespace),
                verify::escaped(&f.key),
                visible(&f.error.to_string())
            );
        }
        if !target.in_memory {
            stderr_line!("{}", partial_note(&to));
        }
    }
    let v = verify::verify(src, dst, args.page_size, &kept)
        .await
        .map_err(|e| CliError::Failed(format!("failed to verify: {e}")))?;
    if v.source_digest != copied.digest {
        failed = true;
        stderr_line!(
            "error: the source changed while it was copied: its records' digest was {} during \
             the copy and is {} now; migrate a store nothing writes to",
            copied.digest,
            v.source_digest
        );
    }
    let (spot_checked, spot_lines) = spot::check(dst, copied.sample).await;
    if !spot_lines.is_empty() {
        failed = true;
        stderr_line!(
            "error: verification failed: {} of {spot_checked} records read back from the target \
             with get differ from the source (the first, the last and every {}th record in \
             export order are read):",
            spot_lines.len(),
            spot::EVERY
        );
        for line in spot_lines.iter().take(SHOWN) {
            stderr_line!("{}", visible(line));
        }
    }
    if v.is_equal() && spot_lines.is_empty() {
        let kept_note = if v.kept > 0 {
            format!("; it kept its {} other records", v.kept)
        } else {
            String::new()
        };
        println!(
            "verified: the target holds the source's {} records in {} namespaces, byte for \
             byte{kept_note}; digest {}",
            v.records, v.namespaces, v.source_digest
        );
    } else {
        failed = true;
        for (i, line) in v.difference_lines().iter().enumerate() {
            if i == 0 {
                stderr_line!("error: verification failed: {}", visible(line));
            } else {
                stderr_line!("{}", visible(line));
            }
        }
    }
    Ok(if failed {
        exit::FAILURES
    } else {
        exit::SUCCESS
    })
}

/// Refuses a driver without the portability family before anything is
/// read or written: `export_page` with a limit of 0 on the source, an
/// empty `import` on the target.
async fn provides_portability(
    provider: &dyn MemoryProvider,
    end: End,
    spec: &str,
) -> Result<(), CliError> {
    let (flag, op) = match end {
        End::Source => ("--from", "export_page"),
        End::Target => ("--to", "import"),
    };
    let result = match end {
        End::Source => provider.export_page(None, 0).await.map(drop),
        End::Target => provider.import(&[]).await.map(drop),
    };
    match result {
        Ok(()) => Ok(()),
        Err(e @ MemoryError::Unsupported { .. }) => Err(CliError::Setup(format!(
            "{flag} {spec} (driver {}) does not provide the portability family ({op}), \
                 which migrate needs: {e}",
            provider.driver_id()
        ))),
        Err(e) => Err(CliError::Setup(format!(
            "failed to {op} on {flag} {spec}: {e}"
        ))),
    }
}

/// Refuses a target holding entries unless `--overwrite`; with it, the
/// keys the target holds, which the verification lets stay.
async fn refuse_or_keep(
    target: &dyn MemoryProvider,
    spec: &str,
    args: &MigrateArgs,
) -> Result<BTreeSet<Key>, CliError> {
    let read = |e: MemoryError| CliError::Setup(format!("failed to read --to {spec}: {e}"));
    let listed = target.namespaces().await.map_err(read)?;
    if listed.is_empty() {
        return Ok(BTreeSet::new());
    }
    if !args.overwrite {
        let entries: u64 = listed.iter().map(|n| n.count).sum();
        return Err(CliError::Usage(format!(
            "the target {spec} already holds {entries} entries in {} namespaces, and \
                 migrating would replace those with the same namespace and key; name a new \
                 store, or pass --overwrite to migrate into it anyway (if an interrupted \
                 migrate left it partial, --overwrite copies everything again and verifies it)",
            listed.len()
        )));
    }
    let mut keys = BTreeSet::new();
    let mut pages = Pages::new(target, args.page_size);
    while let Some(r) = pages.next().await.map_err(read)? {
        keys.insert((r.namespace, r.key));
    }
    Ok(keys)
}

/// What the copy did.
struct Copied {
    records: u64,
    pages: u64,
    /// Each failure with the record's 0-based position in the export.
    failures: Vec<(u64, ImportFailure)>,
    /// The digest of the records read from the source.
    digest: String,
    /// Source records to read back from the target with `get`.
    sample: spot::Sample,
}

/// Exports `source` page by page and imports each page into `target`.
///
/// # Errors
///
/// [`exit::FAILURES`] with the page and the error when an export or an
/// import call fails; per-record import failures are collected instead.
async fn copy(
    (source, from): (&dyn MemoryProvider, &str),
    (target, to, in_memory): (&dyn MemoryProvider, &str, bool),
    page_size: usize,
    total: u64,
    console: &Console,
) -> Result<Copied, CliError> {
    let mut progress = console.counted_progress("migrating", "records");
    let total = usize::try_from(total).unwrap_or(usize::MAX);
    let mut pages = Pages::new(source, page_size);
    let mut digest = Digest::default();
    let mut records: u64 = 0;
    let mut failures = Vec::new();
    let mut sample = spot::Sample::default();
    loop {
        // Once a page was imported, a failure leaves a partial copy.
        let partial = |message: String| {
            if records == 0 || in_memory {
                message
            } else {
                format!("{message}\n{}", partial_note(to))
            }
        };
        let page = pages.next_page().await.map_err(|e| {
            CliError::Failed(partial(format!(
                "failed to export page {} of --from {from}: {e}",
                pages.pages
            )))
        })?;
        let Some(page) = page else { break };
        if !page.is_empty() {
            let outcome = target.import(&page).await.map_err(|e| {
                let message = format!(
                    "failed to import page {} ({} records from {} {:?}) into --to {to}: {e}",
                    pages.pages,
                    page.len(),
                    page[0].namespace,
                    page[0].key
                );
                // An import call may have written part of its page.
                let message = if in_memory {
                    message
                } else {
                    format!("{message}\n{}", partial_note(to))
                };
                CliError::Failed(message)
            })?;
            failures.extend(
                outcome
                    .failures
                    .into_iter()
                    .map(|f| (records + f.index as u64, f)),
            );
        }
        for r in &page {
            digest.add(r);
        }
        sample.offer(records, &page);
        records += page.len() as u64;
        progress.update(usize::try_from(records).unwrap_or(usize::MAX), total);
    }
    Ok(Copied {
        records,
        pages: pages.pages,
        failures,
        digest: digest.finish(),
        sample,
    })
}

/// What a migration that stopped part-way left in the target `to`, and how
/// to resume: the same words a signal prints ([`cleanup::note_on_signal`]).
fn partial_note(to: &str) -> String {
    format!(
        "note: the target {to} now holds a partial copy: rerun with --overwrite to copy \
         everything again and verify it"
    )
}

/// `1 page`, `2 pages`.
fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n: u64 = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::counted(1_u64, "page"), "1 page");
        assert_eq!(super::counted(0_u64, "page"), "0 pages");
        assert_eq!(super::counted(23_u64, "record"), "23 records");
    }
}
