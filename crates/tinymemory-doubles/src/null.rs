//! [`NullDriver`]: retains nothing.

use async_trait::async_trait;
use tinymemory_api::batch::validate_batch;
use tinymemory_api::portability::{
    validate_record, ExportCursor, ExportPage, ImportFailure, ImportOutcome, KeysetCursor,
    MemoryRecord,
};
use tinymemory_api::{
    validate_key, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace,
    NamespaceSummary, NewEntry, RecallOptions,
};

/// A driver that retains nothing: every call succeeds and returns empty.
///
/// | method | result |
/// | --- | --- |
/// | `store` | `Ok(())`, nothing kept |
/// | `get` | `Ok(None)` |
/// | `forget` | `Ok(false)` |
/// | `list` | `Ok(vec![])` |
/// | `namespaces` | `Ok(vec![])` |
/// | `recall` | `Ok(vec![])` |
/// | `store_many` | `Ok(())`, nothing kept |
/// | `export_page` | `Ok` of an empty page with `next_cursor: None` (the export of an empty store) |
/// | `import` | `Ok`, every valid record counted as imported, nothing kept |
///
/// Its [`driver_id`](MemoryProvider::driver_id) is `null`.
///
/// # Input is still validated
///
/// "Every call succeeds" holds for *valid* input only. The null driver
/// refuses exactly what the reference driver refuses, with the same
/// [`MemoryError::Invalid`] rule ids: an invalid namespace on every method
/// (contract sentence 9, check `namespace.invalid_refused`), an invalid key
/// on every method that takes one (sentence 12, `key.invalid_refused`), and a non-finite `min_score` on `recall`; `store_many`
/// refuses a batch holding an invalid entry, naming its index
/// ([`validate_batch`]); `export_page` refuses a cursor that is not a
/// keyset token ([`KeysetCursor::decode`], rule `export.cursor_unknown`:
/// a token of the in-tree drivers' shape is read as a position, after which
/// an empty store has nothing); `import` reports each invalid record in
/// [`ImportOutcome::failures`] ([`validate_record`]). A host tested
/// against the null driver thus still learns that it passed bad input,
/// instead of having the bug hidden by a driver that accepts anything.
///
/// Because it keeps nothing it cannot satisfy the sentences that read a
/// write back (`store.upsert`, `forget.idempotent`, and the portability
/// checks that export what was stored or imported); it passes every other
/// sentence.
///
/// # Errors
///
/// Only [`MemoryError::Invalid`], as described above.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NullDriver;

impl NullDriver {
    /// The null driver.
    #[must_use]
    pub fn new() -> Self {
        Self
    }
}

#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl MemoryProvider for NullDriver {
    fn driver_id(&self) -> &str {
        "null"
    }

    async fn store(
        &self,
        namespace: &str,
        key: &str,
        _content: &str,
        _category: MemoryCategory,
        _session_id: Option<&str>,
        _taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        Ok(())
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        Ok(None)
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        Namespace::parse(namespace)?;
        validate_key(key)?;
        Ok(false)
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        _category: Option<&MemoryCategory>,
        _session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        if let Some(ns) = namespace {
            Namespace::parse(ns)?;
        }
        Ok(Vec::new())
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        Ok(Vec::new())
    }

    async fn recall(
        &self,
        _query: &str,
        _limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        Namespace::parse(opts.effective_namespace())?;
        opts.validate()?;
        Ok(Vec::new())
    }

    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        validate_batch(entries)
    }

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        _limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        if let Some(cursor) = cursor {
            KeysetCursor::decode(cursor)?;
        }
        Ok(ExportPage {
            records: Vec::new(),
            next_cursor: None,
        })
    }

    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        let mut outcome = ImportOutcome::default();
        for (index, record) in records.iter().enumerate() {
            match validate_record(record) {
                Ok(()) => outcome.imported += 1,
                Err(error) => outcome
                    .failures
                    .push(ImportFailure::new(index, record, error)),
            }
        }
        Ok(outcome)
    }

    /// No framework interface: the interface family is skipped
    /// ([`tinymemory_api::interface::unsupported`]).
    async fn interface(
        &self,
        scenario: &tinymemory_api::interface::Scenario<'_>,
    ) -> Result<String, MemoryError> {
        Err(tinymemory_api::interface::unsupported(
            self.driver_id(),
            scenario,
        ))
    }
}
