//! Mutant for `forget.idempotent`.

use tinymemory_api::{MemoryError, MemoryProvider};

/// Breaks contract sentence 10 (`forget.idempotent`): `forget` returns
/// `Ok(true)` whenever the inner `forget` succeeds, so a second `forget` of
/// the same key says `true` instead of `false`. The entry itself is removed
/// as usual, and errors (an invalid namespace) are forwarded.
#[derive(Debug, Clone, Default)]
pub struct ForgetAlwaysTrue<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(ForgetAlwaysTrue);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `forget` reports `true` on success.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for ForgetAlwaysTrue<P> {
        forward(inner): driver_id, store, get, list, namespaces, recall, store_many, export_page,
            import;

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            self.inner.forget(namespace, key).await?;
            Ok(true)
        }
    }
}
