//! Crate-private macros.

/// The tower-style accessors of a decorator whose only field is `inner`:
/// `new`, `into_inner` (for sized `P`), `get_ref` and `get_mut`.
macro_rules! inner_only_accessors {
    ($ty:ident) => {
        impl<P> $ty<P> {
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

        impl<P: ?Sized> $ty<P> {
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
    };
}

/// The `MemoryProvider` impl of a mutant that passes every namespace
/// argument through `$rewrite` (`fn(&str) -> String`) before forwarding it:
/// `store`, `get`, `forget`, `list`, a recall's pinned namespace, each entry
/// of `store_many` and each record of `import`. `namespaces`, `export_page`,
/// `driver_id` and `interface` take no namespace and are forwarded as they
/// are, so what the wrapped driver stored under the rewritten name is what
/// they read back.
macro_rules! rewrites_namespaces {
    ($ty:ident, $rewrite:path) => {
        tinymemory_api::delegate_provider! {
            /// Forwards every method with its namespace passed through the rewrite.
            impl[P: MemoryProvider + ?Sized] MemoryProvider for $ty<P> {
                forward(inner): driver_id, namespaces, export_page, interface;

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
                        .store(&$rewrite(namespace), key, content, category, session_id, taint)
                        .await
                }

                async fn get(
                    &self,
                    namespace: &str,
                    key: &str,
                ) -> Result<Option<MemoryEntry>, MemoryError> {
                    self.inner.get(&$rewrite(namespace), key).await
                }

                async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
                    self.inner.forget(&$rewrite(namespace), key).await
                }

                async fn list(
                    &self,
                    namespace: Option<&str>,
                    category: Option<&MemoryCategory>,
                    session_id: Option<&str>,
                ) -> Result<Vec<MemoryEntry>, MemoryError> {
                    let namespace = namespace.map($rewrite);
                    self.inner
                        .list(namespace.as_deref(), category, session_id)
                        .await
                }

                async fn recall(
                    &self,
                    query: &str,
                    limit: usize,
                    opts: &RecallOptions,
                ) -> Result<Vec<MemoryEntry>, MemoryError> {
                    let rewritten = RecallOptions {
                        namespace: opts.namespace.as_deref().map($rewrite),
                        ..opts.clone()
                    };
                    self.inner.recall(query, limit, &rewritten).await
                }

                async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
                    let rewritten: Vec<NewEntry> = entries
                        .iter()
                        .map(|e| NewEntry {
                            namespace: $rewrite(&e.namespace),
                            ..e.clone()
                        })
                        .collect();
                    self.inner.store_many(&rewritten).await
                }

                async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
                    let rewritten: Vec<MemoryRecord> = records
                        .iter()
                        .map(|r| MemoryRecord {
                            namespace: $rewrite(&r.namespace),
                            ..r.clone()
                        })
                        .collect();
                    self.inner.import(&rewritten).await
                }
            }
        }
    };
}
