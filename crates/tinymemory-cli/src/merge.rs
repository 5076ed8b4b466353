//! `merge A.json B.json ..`: the report of a sharded run from its shards'
//! reports.

use std::collections::HashSet;

use tinymemory_api::shown::shown;
use tinymemory_conformance::report::OutcomeKind;
use tinymemory_conformance::{Registry, Report, Shard};

use crate::args::{Format, MergeArgs};
use crate::error::{CliError, CliResult};
use crate::identity::Claims;
use crate::select::{self, CheckPattern};
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
        claims.check().map_err(|clash| CliError::Clash {
            clash,
            why: "the merged report would replace a shard it reads; name another file",
        })?;
    }
    let output = args.output.as_deref().map(Target::resolve).transpose()?;
    let mut shards = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        shards.push((path.display().to_string(), files::read_report(path)?));
    }
    let merged = Report::merge(&shards).map_err(CliError::Usage)?;
    let selection = this_builds_selection(&merged)?;
    each_shard_ran_its_own(&selection, &shards)?;
    let rendered = match args.format {
        Format::Text => merged.to_text(false),
        Format::Json => merged.to_json(),
        Format::Junit => merged.to_junit(),
        Format::Markdown => merged.to_markdown(),
    };
    match &output {
        Some(target) => target.write(&rendered),
        None => files::report_stdout(&rendered),
    }?;
    if merged.counts.failed() > 0 {
        return Ok(exit::FAILURES);
    }
    crate::run::finish::all_skipped(args.all_skipped, merged.counts.total, merged.counts.skip)
}

/// Refuses shards whose selection is not the one this build's registry
/// makes for the run's recall profile and filter: a shard edited to
/// claim a selection of only its own checks once merged to `FULL`, exit
/// 0, over a third of the suite.
///
/// Returns that selection, every shard's checks.
///
/// # Errors
///
/// The checks missing from the shards' selection, or outside this
/// build's, named; shards of another version of the suite.
fn this_builds_selection(merged: &Report) -> Result<Registry, CliError> {
    let run = &merged.run;
    let version = env!("CARGO_PKG_VERSION");
    if run.tool_version != version {
        return Err(CliError::Usage(format!(
            "the shards were run by tinymemory-conformance {}, and this is {version}, whose \
             registry may hold other checks: merge them with the version that ran them",
            shown(&run.tool_version)
        )));
    }
    let (patterns, families) = match &run.filter {
        None => (Vec::new(), Vec::new()),
        Some(f) => (
            f.checks
                .iter()
                .map(|c| {
                    CheckPattern::parse(c).map_err(|e| {
                        CliError::Usage(format!("the shards' filter --check {}: {e}", shown(c)))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
            f.families
                .iter()
                .map(|n| {
                    select::parse_family(n).map_err(|e| {
                        CliError::Usage(format!("the shards' filter --family {}: {e}", shown(n)))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let profile = run.recall_profile;
    let (registry, _) = select::select(
        &Registry::standard().for_profile(profile),
        profile,
        &patterns,
        &families,
    )
    .map_err(|e| CliError::Usage(format!("the shards' filter: {e}")))?;
    if run.cases == 0 {
        return Err(CliError::Usage(
            "the shards say they ran 0 cases per property, which run refuses: they are not the \
             reports of a run"
                .to_owned(),
        ));
    }
    // What `run` writes of each check, held to the registry: a forged
    // family would move a failure out of the family whose level it
    // lowers, and `run` never writes the outcomes of a Rust test's
    // expected failures.
    for c in &merged.checks {
        if let Some(check) = registry.get(&c.id) {
            if c.family != check.family.as_str() {
                return Err(CliError::Usage(format!(
                    "the shards put check {} in family {}, and this build's registry in {}",
                    c.id,
                    shown(&c.family),
                    check.family.as_str()
                )));
            }
        }
        if matches!(
            c.outcome,
            OutcomeKind::ExpectedFailure | OutcomeKind::UnexpectedlyPassing
        ) {
            return Err(CliError::Usage(format!(
                "the shards give check {} the outcome {}, which run never writes (only a Rust \
                 test's expected failures have it)",
                c.id,
                c.outcome.as_str()
            )));
        }
        if !(c.duration_ms.is_finite() && c.duration_ms >= 0.0) {
            return Err(CliError::Usage(format!(
                "the shards give check {} the duration {} ms: a duration is 0 or more",
                c.id, c.duration_ms
            )));
        }
    }
    let expected: Vec<&str> = registry.checks().iter().map(|c| c.id).collect();
    let claimed: HashSet<&str> = merged.checks.iter().map(|c| c.id.as_str()).collect();
    let wanted: HashSet<&str> = expected.iter().copied().collect();
    let missing: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|id| !claimed.contains(id))
        .collect();
    let mut extra: Vec<&str> = claimed
        .iter()
        .copied()
        .filter(|id| !wanted.contains(id))
        .collect();
    extra.sort_unstable();
    if missing.is_empty() && extra.is_empty() {
        return Ok(registry);
    }
    let selection = match &run.filter {
        None => format!("the {profile} recall profile"),
        Some(_) => format!("the {profile} recall profile and the shards' filter"),
    };
    let mut why = format!(
        "the shards cover {} checks, and this build selects {} for {selection}",
        claimed.len(),
        expected.len()
    );
    if !missing.is_empty() {
        why.push_str(&format!("; missing: {}", listed(&missing)));
    }
    if !extra.is_empty() {
        why.push_str(&format!(
            "; not in this build's selection: {}",
            listed(&extra)
        ));
    }
    Err(CliError::Usage(format!(
        "{why}: a merged report stands for one whole run, so its level is stated only over \
         every check that run selects"
    )))
}

/// Refuses a shard's report holding a check that this build's partition
/// of `selection` gives to another shard: the reports' union can be the
/// whole selection while a check was moved from the report of the shard
/// that ran it into another's, which no `run --shard K/N` writes. (A
/// shard's own check missing from its report is then either in another
/// shard's, refused here, or in none, which [`Report::merge`] refuses.)
///
/// # Errors
///
/// The first such check, in the order of the shards given and of their
/// reports, with the shard that holds it and the one it belongs to.
fn each_shard_ran_its_own(
    selection: &Registry,
    shards: &[(String, Report)],
) -> Result<(), CliError> {
    let Some(total) = shards
        .first()
        .and_then(|(_, r)| r.run.shard.as_ref())
        .map(|s| s.total)
    else {
        return Ok(());
    };
    // Each check's shard, computed once: `Registry::shard` partitions the
    // whole selection for each K.
    let mut owner = std::collections::HashMap::new();
    for index in 1..=total.min(u32::try_from(selection.len()).unwrap_or(u32::MAX)) {
        for c in selection.shard(Shard { index, total }).checks() {
            owner.insert(c.id, index);
        }
    }
    for (name, r) in shards {
        let Some(shard) = &r.run.shard else { continue };
        for c in &r.checks {
            match owner.get(c.id.as_str()) {
                Some(&index) if index != shard.index => {
                    return Err(CliError::Usage(format!(
                        "{name} (shard {}/{total}) reports check {}, which this build's partition \
                         gives to shard {index}/{total}: each shard reports exactly the checks \
                         run --shard K/N runs",
                        shard.index, c.id
                    )));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// At most 10 ids, then how many more.
fn listed(ids: &[&str]) -> String {
    let shown: Vec<&str> = ids.iter().copied().take(10).collect();
    match ids.len() - shown.len() {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}
