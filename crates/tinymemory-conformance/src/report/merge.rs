//! One report from the shards of one run (`merge A.json B.json ..`).

use tinymemory_api::shown::shown;

use std::collections::HashMap;

use super::{CheckEntry, Conformance, Counts, Report, RunCorpus, RunFilter};

impl Report {
    /// The report of the whole run whose shards are `shards` (each with
    /// the name of the file it came from, for messages): the checks of
    /// every shard in the order of the run's selection, the counts and the
    /// conformance level of them all (a level only a complete set of
    /// shards can state), the run's metadata with no shard, the earliest
    /// start, and the shards' wall times and corpus loads added up (the
    /// work done, not the time a matrix took).
    ///
    /// # Errors
    ///
    /// Why the reports are not the shards of one run, naming the files:
    /// no report, a report of an unsharded run, shards of different runs
    /// (another seed, case count, driver, recall profile, selection,
    /// filter, suite version or shard count), shards that measured
    /// different corpora ([`RunCorpus::same_as`]: `--no-corpus` against a
    /// corpus, or two corpora of other entries; a shard that selected no
    /// corpus check measured none and merges with any), a shard given twice or
    /// missing, a check id reported twice, or checks other than the
    /// selection's.
    pub fn merge(shards: &[(String, Report)]) -> Result<Report, String> {
        let Some((first_name, first)) = shards.first() else {
            return Err("merge needs the JSON reports of a sharded run's shards".to_owned());
        };
        let meta = |name: &str, r: &Report| {
            let shard = r.run.shard.clone().ok_or_else(|| {
                format!(
                    "{name} is the report of an unsharded run (no run.shard): merge joins the \
                     reports of run --shard K/N"
                )
            })?;
            if shard.index == 0 || shard.index > shard.total {
                return Err(format!(
                    "{name} names shard {}/{}, which no run has: K/N needs 1 <= K <= N",
                    shard.index, shard.total
                ));
            }
            Ok(shard)
        };
        let head = meta(first_name, first)?;
        if head.total as usize > head.selection.len().max(1) {
            return Err(format!(
                "{first_name} names {} shards for a selection of {} checks: a run has at most \
                 one shard per check",
                head.total,
                head.selection.len()
            ));
        }
        let mut seen: Vec<Option<&str>> = vec![None; head.total as usize];
        // The first shard that says which corpus it measured: every other
        // that says must say the same.
        let corpus: Option<(&str, &RunCorpus)> = shards
            .iter()
            .find_map(|(name, r)| r.run.corpus.as_ref().map(|c| (name.as_str(), c)));
        for (name, r) in shards {
            let shard = meta(name, r)?;
            let differs = |what: &str, a: &str, b: &str| {
                format!(
                    "{name} and {first_name} are not shards of one run: their {what} differ \
                     ({} against {})",
                    shown(b),
                    shown(a)
                )
            };
            let (a, b) = (&first.run, &r.run);
            // Compared as values, shown as plain text: a spec or filter
            // that is absent reads `none`, never Rust's `None`.
            let same = [
                (
                    "seeds",
                    a.seed == b.seed,
                    a.seed.to_string(),
                    b.seed.to_string(),
                ),
                (
                    "case counts",
                    a.cases == b.cases,
                    a.cases.to_string(),
                    b.cases.to_string(),
                ),
                (
                    "driver ids",
                    a.driver_id == b.driver_id,
                    a.driver_id.clone(),
                    b.driver_id.clone(),
                ),
                (
                    "drivers",
                    a.driver_spec == b.driver_spec,
                    a.driver_spec.clone().unwrap_or_else(|| "none".to_owned()),
                    b.driver_spec.clone().unwrap_or_else(|| "none".to_owned()),
                ),
                (
                    "recall profiles",
                    a.recall_profile == b.recall_profile,
                    a.recall_profile.to_string(),
                    b.recall_profile.to_string(),
                ),
                (
                    "suite versions",
                    a.tool_version == b.tool_version,
                    a.tool_version.clone(),
                    b.tool_version.clone(),
                ),
                (
                    "filters",
                    a.filter == b.filter,
                    filter_text(a.filter.as_ref()),
                    filter_text(b.filter.as_ref()),
                ),
                (
                    "shard counts",
                    head.total == shard.total,
                    head.total.to_string(),
                    shard.total.to_string(),
                ),
                (
                    "selections",
                    head.selection == shard.selection,
                    head.selection.join(","),
                    shard.selection.join(","),
                ),
            ];
            if let Some((what, _, x, y)) = same.into_iter().find(|(_, equal, _, _)| !equal) {
                return Err(differs(what, &x, &y));
            }
            if let Some((measured, corpus)) = &corpus {
                if let Some(other) = r.run.corpus.as_ref().filter(|c| !c.same_as(corpus)) {
                    return Err(format!(
                        "{name} and {measured} are not shards of one run: their corpora differ \
                         ({} against {}); the corpus checks' verdicts hold for the corpus they \
                         measured",
                        shown(&other.describe()),
                        shown(&corpus.describe())
                    ));
                }
            }
            let slot = &mut seen[(shard.index - 1) as usize];
            if let Some(other) = slot {
                return Err(format!(
                    "shard {}/{} is given twice: {other} and {name}",
                    shard.index, shard.total
                ));
            }
            *slot = Some(name);
        }
        let missing: Vec<String> = seen
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_none())
            .map(|(i, _)| format!("{}/{}", i + 1, head.total))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "shard{} {} of the run {} missing: the level of a run is stated only over every shard",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" }
            ));
        }
        // One pass over every shard's checks, one over the selection: a
        // shard listing 60,000 ids once took 25 s comparing each with each.
        let mut reported: HashMap<&str, (&str, &CheckEntry)> = HashMap::new();
        for (name, r) in shards {
            for c in &r.checks {
                if let Some((other, _)) = reported.insert(c.id.as_str(), (name.as_str(), c)) {
                    return Err(format!(
                        "check {} is reported twice: in {other} and in {name}",
                        c.id
                    ));
                }
            }
        }
        let mut checks = Vec::with_capacity(head.selection.len());
        for id in &head.selection {
            match reported.remove(id.as_str()) {
                Some((_, c)) => checks.push(c.clone()),
                None => {
                    return Err(format!(
                        "check {id} of the selection is in no shard's report"
                    ))
                }
            }
        }
        if let Some((id, (name, _))) = reported.iter().min_by_key(|(id, _)| **id) {
            return Err(format!(
                "the shards report checks outside the run's selection: {id} in {name}"
            ));
        }
        let mut run = first.run.clone();
        run.shard = None;
        run.corpus = corpus.map(|(_, c)| c.clone());
        run.started_at = shards
            .iter()
            .map(|(_, r)| r.run.started_at.clone())
            .min()
            .unwrap_or_default();
        run.duration_ms =
            total_ms(shards, "duration_ms", |r| Some(r.run.duration_ms))?.unwrap_or_default();
        run.load_ms = total_ms(shards, "load_ms", |r| r.run.load_ms)?;
        let mut conformance = Conformance::of(&checks, run.recall_profile);
        if run.filter.is_some() {
            conformance = conformance.filtered();
        }
        Ok(Report {
            schema_version: super::SCHEMA_VERSION,
            counts: Counts::of(&checks),
            conformance,
            run,
            shared_errors: super::SharedError::of(&checks),
            checks,
        })
    }
}

/// The sum of the shards' `field` (milliseconds), `None` when no shard
/// has one.
///
/// # Errors
///
/// A shard's value that is negative or not finite, or a sum past what a
/// report can hold (JSON has no infinity: it was once written `null`,
/// which `diff` then refused).
fn total_ms(
    shards: &[(String, Report)],
    field: &str,
    value: impl Fn(&Report) -> Option<f64>,
) -> Result<Option<f64>, String> {
    let mut total: Option<f64> = None;
    for (name, r) in shards {
        let Some(ms) = value(r) else { continue };
        if !(ms.is_finite() && ms >= 0.0) {
            return Err(format!(
                "{name} says run.{field} is {ms}: a duration is a number of milliseconds, 0 or more"
            ));
        }
        let sum = total.unwrap_or(0.0) + ms;
        if !sum.is_finite() {
            return Err(format!(
                "the shards' run.{field} add up past what a report can hold ({name} says {ms}): \
                 they are not the durations of a run"
            ));
        }
        total = Some(sum);
    }
    Ok(total)
}

/// A run's filter as its options: `--check P .. --family F ..`, `none`
/// without one (and `no patterns` for a filter of none, which no run
/// writes).
fn filter_text(filter: Option<&RunFilter>) -> String {
    let Some(filter) = filter else {
        return "none".to_owned();
    };
    let words: Vec<String> = filter
        .checks
        .iter()
        .map(|c| format!("--check {c}"))
        .chain(filter.families.iter().map(|f| format!("--family {f}")))
        .collect();
    if words.is_empty() {
        "no patterns".to_owned()
    } else {
        words.join(" ")
    }
}
