//! [`BoxedProvider`]: a `Box<dyn MemoryProvider>` as a sized provider.

use std::fmt;

use async_trait::async_trait;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions,
};

/// A `Box<dyn MemoryProvider>` that is itself a [`MemoryProvider`],
/// forwarding every call unchanged.
///
/// `tinymemory-api` implements [`MemoryProvider`] for no smart pointer, and
/// the orphan rule keeps any other crate from doing it, so a decorator of
/// this crate cannot hold a `Box<dyn MemoryProvider>` directly. This newtype
/// closes the gap: `Recording::new(BoxedProvider::new(boxed))` records a
/// provider known only as a trait object, and every
/// [`Mutant::wrap`](crate::mutants::Mutant::wrap) is built this way.
pub struct BoxedProvider {
    inner: Box<dyn MemoryProvider>,
}

impl BoxedProvider {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: Box<dyn MemoryProvider>) -> Self {
        Self { inner }
    }

    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &dyn MemoryProvider {
        &*self.inner
    }

    /// The wrapped provider, mutably.
    #[must_use]
    pub fn get_mut(&mut self) -> &mut dyn MemoryProvider {
        &mut *self.inner
    }

    /// Unwraps the box.
    #[must_use]
    pub fn into_inner(self) -> Box<dyn MemoryProvider> {
        self.inner
    }
}

impl From<Box<dyn MemoryProvider>> for BoxedProvider {
    fn from(inner: Box<dyn MemoryProvider>) -> Self {
        Self::new(inner)
    }
}

/// Shows the wrapped provider's `driver_id`.
impl fmt::Debug for BoxedProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoxedProvider")
            .field("driver_id", &self.inner.driver_id())
            .finish()
    }
}

/// Forwards every method to the boxed provider unchanged.
#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl MemoryProvider for BoxedProvider {
    fn driver_id(&self) -> &str {
        self.inner.driver_id()
    }

    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        category: MemoryCategory,
        session_id: Option<&str>,
        taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        self.inner
            .store(namespace, key, content, category, session_id, taint)
            .await
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        self.inner.get(namespace, key).await
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.inner.forget(namespace, key).await
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.inner.list(namespace, category, session_id).await
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        self.inner.namespaces().await
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.inner.recall(query, limit, opts).await
    }
}
