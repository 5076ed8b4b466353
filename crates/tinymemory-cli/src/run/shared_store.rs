//! What a wrong answer measured on a driver whose stores share one
//! database could also mean.
//!
//! A driver that does not declare `independent_stores` keeps every store
//! in one database (a server, a shared file): what a check reads may have
//! been written through another of its stores while the check ran. A user
//! validating PGVector was told "expected 3, got 1" where another
//! collection's upsert had taken the row (two collections sharing ids),
//! so a wrong answer of such a driver says what else could explain it.

use tinymemory_conformance::{Outcome, RunSummary};

use super::alone::Originals;

/// Appended to a wrong answer's message: what was measured, and what else
/// could explain it.
const NOTE: &str = "\n  (measured on a store of a driver whose stores share one database: it \
                    does not declare independent_stores, so writes through another of its \
                    stores while the check ran (by this check, another process, or another run \
                    on that database) could explain this count or hit as well as the broken \
                    rule; two stores whose rows share ids in one table or collection are such a \
                    case, where another namespace's upsert takes a row)";

/// Appends [`NOTE`] to every failure of `summary` that is a wrong answer
/// (no driver error: a count, a hit, an order) when the driver's stores
/// are not `independent`, recording in `originals` the check's own
/// message when it is not there yet (what a bundle keeps: a replay's
/// message has no note to compare with).
pub(crate) fn note(independent: bool, summary: &mut RunSummary, originals: &mut Originals) {
    if independent {
        return;
    }
    for report in &mut summary.reports {
        if let Outcome::Fail(f) = &mut report.outcome {
            if f.driver_error.is_none() {
                originals
                    .entry(report.id)
                    .or_insert_with(|| f.message.clone());
                f.message.push_str(NOTE);
            }
        }
    }
}
