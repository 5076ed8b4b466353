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
            import, interface;

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            self.inner.forget(namespace, key).await?;
            Ok(true)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "forget-always-true",
        rule: "contract 10: forget is idempotent: true, then false",
        check: "forget.idempotent",
        also_caught_by: &["model.differential"],
        description: "forget always returns true, even when nothing was there",
        wrap: ForgetAlwaysTrue::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            put(d, "global", "k", "x").await?;
            let first = d.forget("global", "k").await?;
            let second = d.forget("global", "k").await?;
            Ok(format!("{:?}", (first, second)))
        },
        reference: "(true, false)",
        mutant: "(true, true)",
    },
];
