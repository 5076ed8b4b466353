//! Set-up writes of a check that is not about `store`: one `store_many`
//! of the entries, and one `store` each when the driver refuses it.
//!
//! Through an adapter each request is a round trip and an engine call
//! (docs/benchmarks.md, "Requests a check needs"), and a check about
//! recall that stores its data one entry at a time pays for a path its
//! meaning does not need. The batch is the contract's upsert in order, so
//! it holds what the `store`s would; a batch fault is
//! `properties.store_many_matches_store`'s to name, never the check's: a
//! refused batch is written again one `store` each, and a check that fails
//! after an accepted batch says so ([`noted`]), as a property case does.

use tinymemory_api::{MemoryProvider, NewEntry};

use crate::failure::{Step, Stop};

/// What [`noted`] appends to the failure of a check whose set-up data went
/// in by accepted `store_many`s.
pub(crate) const WRITTEN_BY_BATCH: &str = " (the check's set-up data was written by store_many; \
     if properties.store_many_matches_store fails too, look at the batch path first)";

/// Writes `entries` into `d`: one `store_many` in the order given, or,
/// when the driver answers it with an error, one `store` per entry in the
/// same order (each an upsert of the same content, so whatever part of
/// the batch was stored ends as the `store`s leave it). `Ok(true)` when
/// the batch was accepted; an empty slice writes nothing and is
/// `Ok(false)`.
///
/// # Errors
///
/// The first `store` of the single-entry path that failed, naming its
/// namespace and key.
pub(crate) async fn store_batch(
    d: &dyn MemoryProvider,
    entries: &[NewEntry],
) -> Result<bool, Stop> {
    if entries.is_empty() {
        return Ok(false);
    }
    if d.store_many(entries).await.is_ok() {
        return Ok(true);
    }
    crate::properties::batch::store_one_each(d, entries)
        .await
        .map_err(|(message, err)| Stop::caused_by(message, &err))?;
    Ok(false)
}

/// `step`, its failure message followed by [`WRITTEN_BY_BATCH`] when
/// `batched` (some set-up data went in by an accepted `store_many`) and the
/// check judged an answer: a call that failed with a driver error is that
/// call's fault, and the suffix would send the author to the batch path.
pub(crate) fn noted(step: Step, batched: bool) -> Step {
    match step {
        Err(Stop::Fail(mut failure)) if batched && failure.driver_error.is_none() => {
            failure.message.push_str(WRITTEN_BY_BATCH);
            Err(Stop::Fail(failure))
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use tinymemory_api::MemoryError;

    use super::*;
    use crate::Failure;

    fn message(step: Step) -> String {
        match step {
            Err(Stop::Fail(failure)) => failure.message,
            _ => panic!("not a failure"),
        }
    }

    #[test]
    fn a_judgment_after_an_accepted_batch_names_the_batch_path() {
        let step: Step = Err(Stop::fail(Failure::new("hits differ")));
        assert_eq!(
            message(noted(step, true)),
            format!("hits differ{WRITTEN_BY_BATCH}")
        );
    }

    #[test]
    fn a_driver_error_is_its_call_s_not_the_batch_s() {
        // A call that failed with an error is that call's fault: the
        // suffix pointing at the batch would send the author the wrong way.
        let e = MemoryError::unavailable("Connection refused");
        let step: Step = Err(Stop::caused_by("store(\"a\", \"k\") failed", &e));
        assert_eq!(message(noted(step, true)), "store(\"a\", \"k\") failed");
    }
}
