//! What an import reports, and the rules a record must meet.

use crate::{rules, validate_key, MemoryError, Namespace};

use super::MemoryRecord;

/// What [`MemoryProvider::import`](crate::MemoryProvider::import) did with
/// a batch of records.
///
/// Every record is either imported or listed in `failures`:
/// `imported + failures.len()` is the batch's length.
#[derive(Debug, Default, PartialEq)]
pub struct ImportOutcome {
    /// How many records were written (each an upsert on `(namespace, key)`).
    pub imported: usize,
    /// The records refused, in batch order.
    pub failures: Vec<ImportFailure>,
}

/// One record an import refused, and why. Nothing of it was written.
#[derive(Debug, PartialEq)]
pub struct ImportFailure {
    /// The record's 0-based position in the batch.
    pub index: usize,
    /// The record's namespace, as given.
    pub namespace: String,
    /// The record's key, as given.
    pub key: String,
    /// Why: usually [`MemoryError::Invalid`] with the rule broken.
    pub error: MemoryError,
}

/// Checks one record against the rules every import applies: the
/// namespace ([`Namespace::parse`]), the key ([`validate_key`]) and the
/// timestamp, which must be RFC 3339 ([`parse_rfc3339`](crate::parse_rfc3339))
/// since it is kept byte for byte.
///
/// # Errors
///
/// [`MemoryError::Invalid`] with the rule broken; for the timestamp,
/// [`rules::IMPORT_TIMESTAMP`].
pub fn validate_record(record: &MemoryRecord) -> Result<(), MemoryError> {
    Namespace::parse(&record.namespace)?;
    validate_key(&record.key)?;
    if crate::parse_rfc3339(&record.timestamp).is_none() {
        let shown: String = record.timestamp.chars().take(60).collect();
        return Err(MemoryError::invalid(
            rules::IMPORT_TIMESTAMP,
            format!("timestamp {shown:?} is not RFC 3339"),
        ));
    }
    Ok(())
}

impl ImportFailure {
    /// The failure of record `index` for `error`.
    #[must_use]
    pub fn new(index: usize, record: &MemoryRecord, error: MemoryError) -> Self {
        Self {
            index,
            namespace: record.namespace.clone(),
            key: record.key.clone(),
            error,
        }
    }
}
