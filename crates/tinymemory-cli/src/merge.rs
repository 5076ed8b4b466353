//! `merge A.json B.json ..`: the report of a sharded run from its shards'
//! reports.

use tinymemory_conformance::Report;

use crate::args::{Format, MergeArgs};
use crate::identity::Claims;
use crate::{exit, files};

pub(crate) fn main(args: &MergeArgs) -> u8 {
    // The merged report must not replace a shard it reads.
    if let Some(output) = &args.output {
        let mut claims = Claims::default();
        for path in &args.reports {
            claims.read(format!("the shard report {}", path.display()), path);
        }
        claims.write(format!("--output {}", output.display()), output);
        if let Err(clash) = claims.check() {
            eprintln!("error: {clash}: the merged report would replace a shard it reads; name another file");
            return exit::USAGE;
        }
    }
    let mut shards = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        match files::read_report(path) {
            Ok(r) => shards.push((path.display().to_string(), r)),
            Err(message) => {
                eprintln!("error: {message}");
                return exit::USAGE;
            }
        }
    }
    let merged = match Report::merge(&shards) {
        Ok(r) => r,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::USAGE;
        }
    };
    let rendered = match args.format {
        Format::Text => merged.to_text(false),
        Format::Json => merged.to_json(),
        Format::Junit => merged.to_junit(),
        Format::Markdown => merged.to_markdown(),
    };
    let written = match &args.output {
        Some(path) => files::write(path, &rendered),
        None => files::stdout(&rendered),
    };
    if let Err(message) = written {
        eprintln!("error: {message}");
        return exit::USAGE;
    }
    if merged.counts.failed() > 0 {
        exit::FAILURES
    } else {
        exit::SUCCESS
    }
}
