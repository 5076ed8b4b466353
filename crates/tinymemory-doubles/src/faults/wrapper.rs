//! The fault-injecting decorator.

use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

use super::{FaultHandle, FaultKind};
use crate::Method;

/// Injects faults: fails the n-th call, every call addressed to one
/// namespace, every call to one method, or every call after a call to one
/// method, with a chosen [`FaultKind`]; calls no rule matches are
/// forwarded unchanged. Rules are set with the builder methods or, at any
/// time, through the [`FaultHandle`] (see it for how calls are counted and
/// matched).
///
/// ```
/// use tinymemory_api::MemoryProvider;
/// use tinymemory_doubles::{FaultKind, Faults};
/// use tinymemory_reference::ReferenceDriver;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let driver = Faults::new(ReferenceDriver::new()).with_nth(2, FaultKind::unavailable("down"));
/// assert!(driver.namespaces().await.is_ok());
/// assert!(driver.namespaces().await.unwrap_err().is_unavailable());
/// assert!(driver.namespaces().await.is_ok());
/// # });
/// ```
///
/// # Panics
///
/// A call struck by a [`FaultKind::Panic`] rule panics with its message.
#[derive(Debug)]
pub struct Faults<P: ?Sized> {
    handle: FaultHandle,
    inner: P,
}

impl<P> Faults<P> {
    /// Wraps `inner` with no rule: every call is forwarded.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            handle: FaultHandle::new(),
            inner,
        }
    }

    /// Adds a rule failing the `n`-th call (1-based) with `kind`; see
    /// [`FaultHandle::fail_nth`].
    ///
    /// # Panics
    ///
    /// When `n` is 0.
    #[must_use]
    pub fn with_nth(self, n: u64, kind: FaultKind) -> Self {
        self.handle.fail_nth(n, kind);
        self
    }

    /// Adds a rule failing every call addressed to `namespace` with `kind`;
    /// see [`FaultHandle::fail_namespace`].
    #[must_use]
    pub fn with_namespace(self, namespace: impl Into<String>, kind: FaultKind) -> Self {
        self.handle.fail_namespace(namespace, kind);
        self
    }

    /// Adds a rule failing every call to `method` with `kind`; see
    /// [`FaultHandle::fail_method`].
    #[must_use]
    pub fn with_method(self, method: Method, kind: FaultKind) -> Self {
        self.handle.fail_method(method, kind);
        self
    }

    /// Adds a rule failing every call that starts after a call to `method`,
    /// with `kind`; see [`FaultHandle::fail_after`].
    #[must_use]
    pub fn with_after(self, method: Method, kind: FaultKind) -> Self {
        self.handle.fail_after(method, kind);
        self
    }

    /// Unwraps the provider.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> Faults<P> {
    /// A handle on this decorator's rules and counters (shared, not a copy).
    #[must_use]
    pub fn handle(&self) -> FaultHandle {
        self.handle.clone()
    }

    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    /// The wrapped provider, mutably.
    #[must_use]
    pub fn get_mut(&mut self) -> &mut P {
        &mut self.inner
    }

    /// Counts a call addressed to the namespaces `addressed`; `Err` when a
    /// rule strikes it.
    fn check(&self, method: Method, addressed: &[&str]) -> Result<(), MemoryError> {
        match self.handle.on_call(method, addressed) {
            Some(kind) => Err(FaultKind::strike(&kind)),
            None => Ok(()),
        }
    }
}

tinymemory_api::delegate_provider! {
    /// Counts each call, strikes it when a rule matches, else forwards it
    /// unchanged.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for Faults<P> {
        forward(inner): driver_id;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.check(Method::Store, &[namespace])?;
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            self.check(Method::Get, &[namespace])?;
            self.inner.get(namespace, key).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            self.check(Method::Forget, &[namespace])?;
            self.inner.forget(namespace, key).await
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            self.check(Method::List, namespace.as_slice())?;
            self.inner.list(namespace, category, session_id).await
        }

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            self.check(Method::Namespaces, &[])?;
            self.inner.namespaces().await
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            self.check(Method::Recall, &[opts.effective_namespace()])?;
            self.inner.recall(query, limit, opts).await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            let addressed: Vec<&str> = entries.iter().map(|e| e.namespace.as_str()).collect();
            self.check(Method::StoreMany, &addressed)?;
            self.inner.store_many(entries).await
        }

        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            self.check(Method::ExportPage, &[])?;
            self.inner.export_page(cursor, limit).await
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let addressed: Vec<&str> = records.iter().map(|r| r.namespace.as_str()).collect();
            self.check(Method::Import, &addressed)?;
            self.inner.import(records).await
        }
    }
}
