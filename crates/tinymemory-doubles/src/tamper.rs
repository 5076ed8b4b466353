//! [`TamperHits`]: strips or rewrites the namespace of recall hits.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// What [`TamperHits`] does to the namespace of each recall hit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Tamper {
    /// Set it to `None`, like a driver that forgets to fill it.
    Strip,
    /// Set it to `Some` of this namespace, like a driver that mixes up
    /// namespaces. The string is used as given, valid or not.
    Rewrite(String),
}

/// Tampers with the namespace of every hit `recall` returns, breaking
/// contract sentence 3 (`recall.hit_namespace`). Everything else (including
/// `get` and `list` entries, and the hits' order, scores and count) is
/// forwarded unchanged.
///
/// A host must stamp a hit that has no namespace with the namespace it
/// asked, and treat a hit naming another namespace as a driver fault.
#[derive(Debug, Clone)]
pub struct TamperHits<P: ?Sized> {
    tamper: Tamper,
    inner: P,
}

impl<P> TamperHits<P> {
    /// Wraps `inner`, applying `tamper` to every recall hit.
    #[must_use]
    pub fn new(inner: P, tamper: Tamper) -> Self {
        Self { tamper, inner }
    }

    /// Wraps `inner`, stripping the namespace of every recall hit.
    #[must_use]
    pub fn strip(inner: P) -> Self {
        Self::new(inner, Tamper::Strip)
    }

    /// Wraps `inner`, rewriting the namespace of every recall hit to
    /// `namespace`.
    #[must_use]
    pub fn rewrite(inner: P, namespace: impl Into<String>) -> Self {
        Self::new(inner, Tamper::Rewrite(namespace.into()))
    }

    /// Unwraps the provider.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }
}

impl<P: ?Sized> TamperHits<P> {
    /// What is done to each hit.
    #[must_use]
    pub fn tamper(&self) -> &Tamper {
        &self.tamper
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
    /// Forwards every method; `recall` hits are tampered with.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for TamperHits<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let mut hits = self.inner.recall(query, limit, opts).await?;
            for hit in &mut hits {
                hit.namespace = match &self.tamper {
                    Tamper::Strip => None,
                    Tamper::Rewrite(ns) => Some(ns.clone()),
                };
            }
            Ok(hits)
        }
    }
}
