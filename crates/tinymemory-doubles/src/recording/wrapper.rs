//! The recording decorator.

use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    NewEntry, RecallOptions,
};

use super::{Call, CallLog};

/// Records every storage call (all methods but `driver_id`) into a
/// [`CallLog`], then forwards it unchanged. Results are not recorded.
///
/// A `store_many` or `import` is recorded as one call holding the whole
/// batch ([`Call::StoreMany`], [`Call::Import`]), not as one call per
/// entry: what reaches the wrapped provider is one call.
///
/// Use it to prove what a host asked of its driver: the `1 + N` cost of a
/// section-wide recall, or that every recall was pinned with
/// `Some(namespace)`.
///
/// ```
/// use tinymemory_api::{MemoryProvider, RecallOptions};
/// use tinymemory_doubles::{Call, Recording};
/// use tinymemory_reference::ReferenceDriver;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let driver = Recording::new(ReferenceDriver::new());
/// let log = driver.log();
/// driver.namespaces().await?;
/// driver.recall("rust", 5, &RecallOptions::in_namespace("learning:a")).await?;
/// let calls = log.take();
/// assert_eq!(calls[0], Call::Namespaces);
/// assert_eq!((calls[1].namespace(), calls[1].limit()), (Some("learning:a"), Some(5)));
/// assert!(log.is_empty());
/// # Ok::<(), tinymemory_api::MemoryError>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct Recording<P: ?Sized> {
    log: CallLog,
    inner: P,
}

impl<P> Recording<P> {
    /// Wraps `inner` with a new, empty log.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self::with_log(inner, CallLog::new())
    }

    /// Wraps `inner`, appending to `log`, which may be shared with other
    /// recordings so that one log holds the calls to several providers in
    /// order.
    #[must_use]
    pub fn with_log(inner: P, log: CallLog) -> Self {
        Self { log, inner }
    }

    /// Unwraps the provider; the log lives on in any handle taken by
    /// [`Recording::log`].
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> Recording<P> {
    /// A handle on this recording's log (shared, not a copy).
    #[must_use]
    pub fn log(&self) -> CallLog {
        self.log.clone()
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
}

tinymemory_api::delegate_provider! {
    /// Records, then forwards every method unchanged.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for Recording<P> {
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
            self.log.push(Call::Store {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
                content: content.to_owned(),
                category: category.clone(),
                session_id: session_id.map(str::to_owned),
                taint,
            });
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            self.log.push(Call::Get {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            });
            self.inner.get(namespace, key).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            self.log.push(Call::Forget {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            });
            self.inner.forget(namespace, key).await
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            self.log.push(Call::List {
                namespace: namespace.map(str::to_owned),
                category: category.cloned(),
                session_id: session_id.map(str::to_owned),
            });
            self.inner.list(namespace, category, session_id).await
        }

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            self.log.push(Call::Namespaces);
            self.inner.namespaces().await
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            self.log.push(Call::Recall {
                query: query.to_owned(),
                limit,
                opts: opts.clone(),
            });
            self.inner.recall(query, limit, opts).await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            self.log.push(Call::StoreMany {
                entries: entries.to_vec(),
            });
            self.inner.store_many(entries).await
        }

        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            self.log.push(Call::ExportPage {
                cursor: cursor.cloned(),
                limit,
            });
            self.inner.export_page(cursor, limit).await
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            self.log.push(Call::Import {
                records: records.to_vec(),
            });
            self.inner.import(records).await
        }
    }
}
