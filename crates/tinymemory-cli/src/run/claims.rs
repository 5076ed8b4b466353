//! The files a `run` reads and writes, refused before anything is opened
//! when an output would replace one of them.

use std::path::Path;

use tinymemory_conformance::{Bundle, Registry};

use crate::args::RunArgs;
use crate::error::CliError;
use crate::identity::Claims;

/// Every file `args` names, as the run uses it: the store of
/// `--driver sqlite:PATH` with its companions, the files named in an
/// `exec:` command line (the script, its database), the corpus tree and
/// the baseline, then the outputs: `--trace` (or `TINYMEMORY_TRACE`),
/// `--output`, `--events` and every bundle `--bundle DIR` could write.
///
/// # Errors
///
/// A usage error naming the output, the file it shares and why it is
/// refused, or the driver's own refusal
/// ([`crate::driver::DriverKind::refuse_for_run`]).
pub(crate) fn check(args: &RunArgs, trace: Option<&Path>) -> Result<(), CliError> {
    args.driver.kind().refuse_for_run()?;
    let mut claims = Claims::default();
    // The program of an `exec:` driver is taken to read the files its
    // words name: whatever it does with them, a report must not replace
    // them.
    let driver = format!("--driver {}", args.driver);
    args.driver.claim_files(
        &mut claims,
        (&format!("the store of {driver}"), &driver),
        true,
        false,
    );
    if !args.no_corpus {
        let root = args.corpus.clone().unwrap_or_else(crate::corpus::bundled);
        claims.read_tree_files(&format!("the corpus {}", root.display()), &root);
    }
    if let Some(baseline) = &args.baseline {
        claims.read(format!("--baseline {}", baseline.display()), baseline);
    }
    if let Some(trace) = trace {
        let role = if args.trace.is_some() {
            "--trace"
        } else {
            "TINYMEMORY_TRACE"
        };
        claims.write(format!("{role} {}", trace.display()), trace);
    }
    if let Some(output) = &args.output {
        claims.write(format!("--output {}", output.display()), output);
    }
    if let Some(events) = &args.events {
        claims.write(format!("--events {}", events.display()), events);
    }
    if let Some(dir) = &args.bundle {
        claims.write_dir(format!("--bundle {}", dir.display()), dir);
        let registry = Registry::standard();
        for (check, name) in registry.checks().iter().zip(bundle_names(args)) {
            let path = dir.join(name);
            claims.write(
                format!("--bundle file {} (of {})", path.display(), check.id),
                &path,
            );
        }
    }
    claims.check().map_err(|clash| CliError::Clash {
        clash,
        why: "an output of a run is never a file the run also reads or writes, so nothing \
              was opened or written; name another file",
    })
}

/// The name of every bundle `--bundle DIR` could get, in the registry's
/// order of checks: one per check of the standard registry, named for
/// the driver as given.
pub(crate) fn bundle_names(args: &RunArgs) -> Vec<String> {
    let driver = args.driver.to_string();
    Registry::standard()
        .checks()
        .iter()
        .map(|check| Bundle::file_name_for(&driver, check.id))
        .collect()
}
