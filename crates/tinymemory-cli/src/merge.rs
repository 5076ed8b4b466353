//! `merge A.json B.json ..`: the report of a sharded run from its shards'
//! reports.

use tinymemory_conformance::Report;

use crate::args::{Format, MergeArgs};
use crate::error::{CliError, CliResult, OrExit as _};
use crate::identity::Claims;
use crate::target::Target;
use crate::{exit, files};

pub(crate) fn main(args: &MergeArgs) -> CliResult {
    // The merged report must not replace a shard it reads.
    if let Some(output) = &args.output {
        let mut claims = Claims::default();
        for path in &args.reports {
            claims.read(format!("the shard report {}", path.display()), path);
        }
        claims.write(format!("--output {}", output.display()), output);
        claims.check().map_err(|clash| {
            CliError::usage(format!(
                "{clash}: the merged report would replace a shard it reads; name another file"
            ))
        })?;
    }
    let output = args
        .output
        .as_deref()
        .map(Target::resolve)
        .transpose()
        .or_usage()?;
    let mut shards = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        shards.push((
            path.display().to_string(),
            files::read_report(path).or_usage()?,
        ));
    }
    let merged = Report::merge(&shards).or_usage()?;
    let rendered = match args.format {
        Format::Text => merged.to_text(false),
        Format::Json => merged.to_json(),
        Format::Junit => merged.to_junit(),
        Format::Markdown => merged.to_markdown(),
    };
    match &output {
        Some(target) => target.write(&rendered),
        None => files::stdout(&rendered),
    }
    .or_usage()?;
    Ok(if merged.counts.failed() > 0 {
        exit::FAILURES
    } else {
        exit::SUCCESS
    })
}
