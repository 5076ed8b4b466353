//! [`NullDriver`]: retains nothing.

use async_trait::async_trait;
use tinymemory_api::{
    validate_key, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace,
    NamespaceSummary, RecallOptions,
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
///
/// Its [`driver_id`](MemoryProvider::driver_id) is `null`.
///
/// # Input is still validated
///
/// "Every call succeeds" holds for *valid* input only. The null driver
/// refuses exactly what the reference driver refuses, with the same
/// [`MemoryError::Invalid`] rule ids: an invalid namespace on every method
/// (contract sentence 9, check `namespace.invalid_refused`), an invalid key
/// on `store`, and a non-finite `min_score` on `recall`. A host tested
/// against the null driver thus still learns that it passed bad input,
/// instead of having the bug hidden by a driver that accepts anything.
///
/// Because it keeps nothing it cannot satisfy the sentences that read a
/// write back (`store.upsert`, `forget.idempotent`); it passes every other
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

    async fn get(&self, namespace: &str, _key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        Namespace::parse(namespace)?;
        Ok(None)
    }

    async fn forget(&self, namespace: &str, _key: &str) -> Result<bool, MemoryError> {
        Namespace::parse(namespace)?;
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
}
