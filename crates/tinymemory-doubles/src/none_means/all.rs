//! The divergent reading of `namespace: None`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

use crate::merge::merge_order;

/// Reads a recall with `opts.namespace == None` as "all namespaces",
/// breaking contract sentence 2 (`recall.none_means_global`) the way a real
/// driver once did. Its contract-following twin is
/// [`NoneMeansGlobal`](crate::NoneMeansGlobal).
///
/// An unpinned `recall(query, limit, opts)`:
///
/// 1. checks `opts` with [`RecallOptions::validate`] (so a non-finite
///    `min_score` is refused even when there is no namespace to search);
/// 2. calls the inner `namespaces()` once;
/// 3. recalls each namespace in the order listed, sequentially, pinned with
///    `Some(namespace)`, the other options unchanged, asking each for the
///    full `limit`;
/// 4. merges every hit: score descending by [`f64::total_cmp`], hits without
///    a score last, ties by `(namespace, key)` ascending; keeps the first
///    `limit`.
///
/// A pinned recall and every other method are forwarded unchanged. Hits
/// keep the namespace the inner driver gave them, so over a conforming
/// driver only sentence 2 is broken.
///
/// # Errors
///
/// The first error of the inner `namespaces()` or of any per-namespace
/// recall, unchanged; [`MemoryError::Invalid`] for a non-finite `min_score`.
#[derive(Debug, Clone, Default)]
pub struct NoneMeansAll<P: ?Sized> {
    inner: P,
}

impl<P> NoneMeansAll<P> {
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

impl<P: ?Sized> NoneMeansAll<P> {
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
    /// Forwards every method; an unpinned `recall` fans out over every
    /// namespace as described on the type.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for NoneMeansAll<P> {
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
            opts.validate()?;
            let mut hits = Vec::new();
            for summary in self.inner.namespaces().await? {
                let pinned = RecallOptions {
                    namespace: Some(summary.namespace),
                    ..opts.clone()
                };
                hits.extend(self.inner.recall(query, limit, &pinned).await?);
            }
            hits.sort_by(merge_order);
            hits.truncate(limit);
            Ok(hits)
        }
    }
}
