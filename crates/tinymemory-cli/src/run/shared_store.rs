//! What a wrong answer measured on a driver whose stores share one
//! database could also mean.
//!
//! A driver that does not declare `independent_stores` keeps every store
//! in one database (a server, a shared file): what a check reads may have
//! been written through another of its stores while the check ran. A user
//! validating PGVector was told "expected 3, got 1" where another
//! collection's upsert had taken the row (two collections sharing ids),
//! so a wrong answer of such a driver says what else could explain it.

use tinymemory_conformance::report::{FailureNote, NoteKind};
use tinymemory_conformance::{Outcome, RunSummary};

/// The note a wrong answer gets: what was measured, and what else could
/// explain it.
const NOTE: &str = "(measured on a store of a driver whose stores share one database: it \
                    does not declare independent_stores, so writes through another of its \
                    stores while the check ran (by this check, another process, or another run \
                    on that database) could explain this count or hit as well as the broken \
                    rule; two stores whose rows share ids in one table or collection are such a \
                    case, where another namespace's upsert takes a row)";

/// Adds a [`NoteKind::SharedStore`] note saying [`NOTE`] to every failure
/// of `summary` that is a wrong answer (no driver error: a count, a hit,
/// an order) when the driver's stores are not `independent`; the check's
/// message stays as it wrote it (what a bundle keeps). Returns the ids of
/// the checks noted, in report order.
pub(crate) fn note(independent: bool, summary: &mut RunSummary) -> Vec<&'static str> {
    let mut noted = Vec::new();
    if independent {
        return noted;
    }
    for report in &mut summary.reports {
        if let Outcome::Fail(f) = &mut report.outcome {
            if f.driver_error.is_none() {
                f.notes.push(FailureNote::new(NoteKind::SharedStore, NOTE));
                noted.push(report.id);
            }
        }
    }
    noted
}
