//! Mutant for `key.invalid_refused`.

use tinymemory_api::{validate_key, MemoryEntry, MemoryError, MemoryProvider, Namespace};

/// Breaks contract sentence 12 (`key.invalid_refused`): `get` and `forget`
/// answer a key the contract refuses (empty, over 1024 UTF-8 bytes) as
/// absent, `Ok(None)` and `Ok(false)`, without asking the inner driver: no
/// store holds such a key, so the answer is true of the data and still
/// hides the caller's bug. An invalid namespace is refused first, as the
/// inner driver refuses it, and `store`, `store_many` and `import` are
/// forwarded, so they still refuse an invalid key and no other sentence
/// changes.
#[derive(Debug, Clone, Default)]
pub struct InvalidKeyAbsent<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(InvalidKeyAbsent);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `get` and `forget` of an invalid key answer
    /// absent.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for InvalidKeyAbsent<P> {
        forward(inner): driver_id, store, list, namespaces, recall, store_many, export_page,
            import, interface;

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            Namespace::parse(namespace)?;
            if validate_key(key).is_err() {
                return Ok(None);
            }
            self.inner.get(namespace, key).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            Namespace::parse(namespace)?;
            if validate_key(key).is_err() {
                return Ok(false);
            }
            self.inner.forget(namespace, key).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "invalid-key-answered-absent",
        rule: "contract 12: an invalid key is MemoryError::Invalid on every method that takes one",
        check: "key.invalid_refused",
        also_caught_by: &[],
        description: "get and forget answer an empty or over-long key as absent (None, false) instead of refusing it",
        wrap: InvalidKeyAbsent::new(),
        profile: Lexical,
        witness: |d| {
            let got = d.get("global", "").await.map_err(|e| e.rule());
            let forgot = d.forget("global", "").await.map_err(|e| e.rule());
            Ok(format!("{got:?} {forgot:?}"))
        },
        reference: r#"Err(Some("key.empty")) Err(Some("key.empty"))"#,
        mutant: "Ok(None) Ok(false)",
    },
];
