//! Mutant `key-limit-off-by-one`, for `key.limit_accepted`.

use tinymemory_api::{
    rules, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NewEntry,
    MAX_KEY_LEN,
};

/// Breaks "a key of 1..=1024 UTF-8 bytes is valid" (check
/// `key.limit_accepted`): `store`, `store_many`, `get` and `forget` refuse
/// a key of exactly [`MAX_KEY_LEN`] bytes as `key.too_long`, the limit
/// compared with `>=` (or a `VARCHAR` that keeps a byte for its
/// terminator). Every shorter key, every longer one (refused by the inner
/// driver as before) and every other method are the wrapped driver's, so
/// `key.invalid_refused` still passes.
#[derive(Debug, Clone, Default)]
pub struct KeyLimitOffByOne<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(KeyLimitOffByOne);

/// `Err(key.too_long)` for a key of exactly the limit.
fn at_limit(key: &str) -> Result<(), MemoryError> {
    if key.len() == MAX_KEY_LEN {
        return Err(MemoryError::invalid(
            rules::KEY_TOO_LONG,
            format!("key is {} bytes, the limit is {MAX_KEY_LEN}", key.len()),
        ));
    }
    Ok(())
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; a key of exactly 1024 bytes is refused by
    /// `store`, `store_many`, `get` and `forget`.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for KeyLimitOffByOne<P> {
        forward(inner): driver_id, list, namespaces, recall, export_page, import, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            at_limit(key)?;
            self.inner.store(namespace, key, content, category, session_id, taint).await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            for entry in entries {
                at_limit(&entry.key)?;
            }
            self.inner.store_many(entries).await
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            at_limit(key)?;
            self.inner.get(namespace, key).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            at_limit(key)?;
            self.inner.forget(namespace, key).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "key-limit-off-by-one",
        rule: "contract 12: a key of 1..=1024 UTF-8 bytes is valid, the limit itself included",
        check: "key.limit_accepted",
        also_caught_by: &[],
        description: "a key of exactly 1024 bytes is refused as key.too_long (the limit compared with >=)",
        wrap: KeyLimitOffByOne::new(),
        profile: Lexical,
        witness: |d| {
            let key = "k".repeat(tinymemory_api::MAX_KEY_LEN);
            let stored = d
                .store("global", &key, "at the limit", MemoryCategory::Core, None, MemoryTaint::Internal)
                .await
                .map_err(|e| e.rule());
            Ok(format!("{stored:?}"))
        },
        reference: "Ok(())",
        mutant: r#"Err(Some("key.too_long"))"#,
    },
];
