//! Folding one-record imports into one outcome, for wrappers that act
//! around each record an import writes.

use tinymemory_api::portability::{ImportFailure, ImportOutcome};

/// Adds the outcome of importing record `index` alone (a batch of one, so
/// its failures say index 0) to `total`, renumbering its failures to
/// `index`.
pub(crate) fn absorb(total: &mut ImportOutcome, one: ImportOutcome, index: usize) {
    total.imported += one.imported;
    total.failures.extend(
        one.failures
            .into_iter()
            .map(|f| ImportFailure { index, ..f }),
    );
}
