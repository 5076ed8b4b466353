//! `replay FILE`: run a regression bundle's check again.

use std::sync::Arc;
use std::time::Duration;

use tinymemory_conformance::{Bundle, Registry};

use crate::args::ReplayArgs;
use crate::console::{Console, Stream};
use crate::driver::DriverSpec;
use crate::{corpus, driver, exit, files, runtime};

pub(crate) fn main(args: &ReplayArgs) -> u8 {
    let bundle = match files::read_bundle(&args.bundle) {
        Ok(b) => b,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::USAGE;
        }
    };
    let spec = match (&args.driver, &bundle.driver_spec) {
        (Some(spec), _) => spec.clone(),
        (None, Some(recorded)) => match DriverSpec::parse(recorded) {
            // A bundle is a file anyone may send: its command is shown,
            // never run, unless the reader names it.
            Ok(DriverSpec::Exec(command)) => {
                eprintln!(
                    "error: {}: the bundle was recorded against an exec driver, and replay never \
                     runs a command read from a file; the recorded command is:\n  {}\n\
                     read it, then pass it with --driver 'exec:COMMAND' (or choose another --driver)",
                    args.bundle.display(),
                    tinymemory_conformance::report::visible(&command.to_string())
                );
                return exit::USAGE;
            }
            Ok(spec) => spec,
            Err(e) => {
                eprintln!(
                    "error: {}: failed to use the recorded driver: {e}; pass --driver",
                    args.bundle.display()
                );
                return exit::USAGE;
            }
        },
        (None, None) => {
            eprintln!(
                "error: {}: the bundle records no driver spec; pass --driver",
                args.bundle.display()
            );
            return exit::USAGE;
        }
    };
    match runtime::build() {
        Ok(rt) => rt.block_on(replay(args, &bundle, &spec)),
        Err(code) => code,
    }
}

async fn replay(args: &ReplayArgs, bundle: &Bundle, spec: &DriverSpec) -> u8 {
    let console = Console::new(Stream::Stdout, true);
    let opened = match driver::open(spec) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: failed to open the driver: {e}");
            return exit::SETUP;
        }
    };
    if let Err(e) = driver::probe(&opened).await {
        eprintln!("error: failed to open the driver: {e}");
        return exit::SETUP;
    }
    console.line(&format!(
        "replaying {} ({}) against {spec}, seed {}, {} cases; recorded against {} by {} {} at {}",
        bundle.check,
        bundle.family,
        bundle.seed,
        bundle.cases,
        bundle.driver_spec.as_deref().unwrap_or(&bundle.driver_id),
        bundle.tool,
        bundle.tool_version,
        bundle.recorded_at
    ));
    // Only a corpus check reads the corpus; loading it for any other would
    // only cost time.
    let corpus = if bundle.family == "corpus" {
        match corpus::load(args.corpus.as_deref(), opened.corpus_store, &console, false).await {
            Ok(loaded) => Some(Arc::new(loaded)),
            Err(message) => {
                eprintln!("error: {message}");
                return exit::SETUP;
            }
        }
    } else {
        None
    };
    let result = bundle
        .replay(
            &Registry::standard(),
            opened.factory,
            corpus,
            Duration::from_secs(args.timeout),
        )
        .await;
    match result {
        Ok(replay) => {
            if let Err(message) = files::stdout(&replay.to_text(bundle)) {
                eprintln!("error: {message}");
                return exit::USAGE;
            }
            if replay.still_fails()
                || replay.verdict == tinymemory_conformance::report::Verdict::NotRun
            {
                exit::FAILURES
            } else {
                exit::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {}: {e}", args.bundle.display());
            exit::USAGE
        }
    }
}
