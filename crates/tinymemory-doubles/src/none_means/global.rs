//! The contract's reading of `namespace: None`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions, GLOBAL_NAMESPACE};

/// The contract-following twin of [`NoneMeansAll`](crate::NoneMeansAll):
/// a recall with `opts.namespace == None` is forwarded as
/// `Some(GLOBAL_NAMESPACE)`, so the wrapped provider never sees `None`.
/// Every other call, and every pinned recall, is forwarded unchanged.
///
/// Over a conforming driver it changes nothing observable; over a driver
/// that reads `None` as "all namespaces" it restores contract sentence 2,
/// which makes it the fix to compare the divergence with.
#[derive(Debug, Clone, Default)]
pub struct NoneMeansGlobal<P: ?Sized> {
    inner: P,
}

impl<P> NoneMeansGlobal<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self { inner }
    }

    /// Unwraps the provider.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> NoneMeansGlobal<P> {
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
    /// Forwards every method; `recall` pins `None` to `global` first.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for NoneMeansGlobal<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            if opts.namespace.is_some() {
                return self.inner.recall(query, limit, opts).await;
            }
            let pinned = RecallOptions {
                namespace: Some(GLOBAL_NAMESPACE.to_owned()),
                ..opts.clone()
            };
            self.inner.recall(query, limit, &pinned).await
        }
    }
}
