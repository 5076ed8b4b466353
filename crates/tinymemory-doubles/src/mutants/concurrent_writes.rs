//! Mutant `loses-concurrent-writes`, for `store.concurrent_writes`.

use std::sync::atomic::{AtomicUsize, Ordering};

use tinymemory_api::portability::{validate_record, ImportFailure, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    validate_key, MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, Namespace, NewEntry,
};

/// Breaks "every acknowledged store is kept, however many run at once"
/// (contract sentence 1 under concurrency, check `store.concurrent_writes`):
/// a `store` that *starts* while another `store` is in flight is
/// acknowledged with `Ok(())` but never reaches the wrapped driver, like a
/// driver whose write buffer holds one pending write and silently replaces
/// it.
///
/// Deterministic: each `store` validates its namespace and key (invalid
/// input is still [`MemoryError::Invalid`]), registers itself as in flight,
/// yields to the executor once ([`tokio::task::yield_now`], standing in for
/// the I/O a real write waits on), then writes, unless another store was
/// already in flight when it started. Stores awaited one after another
/// never overlap, so every check that writes sequentially passes; stores
/// polled together (`join!`, `join_all`, spawned tasks) lose all but the
/// first of each overlapping run.
#[derive(Debug, Default)]
pub struct LosesConcurrentWrites<P: ?Sized> {
    in_flight: AtomicUsize,
    inner: P,
}

impl<P> LosesConcurrentWrites<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            in_flight: AtomicUsize::new(0),
            inner,
        }
    }

    /// Unwraps the provider.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> LosesConcurrentWrites<P> {
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

/// Marks one store in flight until dropped, so a cancelled store (its
/// future dropped mid-yield) does not leave the counter raised forever.
struct InFlight<'a>(&'a AtomicUsize);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `store` drops writes that overlap another, as
    /// described on the type.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for LosesConcurrentWrites<P> {
        // `export_page` is forwarded: reading is not what this mutant breaks.
        forward(inner): driver_id, get, forget, list, namespaces, recall, export_page, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            Namespace::parse(namespace)?;
            validate_key(key)?;
            let overlapped = self.in_flight.fetch_add(1, Ordering::SeqCst) > 0;
            let _in_flight = InFlight(&self.in_flight);
            tokio::task::yield_now().await;
            if overlapped {
                return Ok(());
            }
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }

        /// Every entry through the mutated `store`, one after another: a
        /// batch alone loses nothing, two batches at once lose the
        /// overlapping stores.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            tinymemory_api::batch::store_each(self, entries).await
        }

        /// An import is a write, so it is lost the same way: one that starts
        /// while a store or another import is in flight reports its valid
        /// records as imported (invalid ones as failures) and writes nothing.
        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let overlapped = self.in_flight.fetch_add(1, Ordering::SeqCst) > 0;
            let _in_flight = InFlight(&self.in_flight);
            tokio::task::yield_now().await;
            if !overlapped {
                return self.inner.import(records).await;
            }
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
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "loses-concurrent-writes",
        rule: "contract 1: every store that returned Ok is kept, however many run at once",
        check: "store.concurrent_writes",
        also_caught_by: &[],
        description: "a store that starts while another store is in flight returns Ok but is never written",
        wrap: LosesConcurrentWrites::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put};
            let (a, b) = tokio::join!(put(d, "global", "a", "x"), put(d, "global", "b", "y"));
            a?;
            b?;
            Ok(format!("{:?}", keys(&d.list(None, None, None).await?)))
        },
        reference: r#"["a", "b"]"#,
        mutant: r#"["a"]"#,
    },
];
