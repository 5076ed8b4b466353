//! Mutant for `namespace.invalid_refused`.

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace, NewEntry,
    RecallOptions, GLOBAL_NAMESPACE, MAX_NAMESPACE_LEN,
};

/// Breaks contract sentence 9 (`namespace.invalid_refused`): an invalid
/// namespace is silently rewritten to a valid one (see
/// [`sanitize_namespace`]) on every method, so `store` under
/// `"a b"` succeeds and stores under `"a_b"`. Valid namespaces, keys and
/// `min_score` are passed through, and the inner driver still refuses an
/// invalid key or `min_score`, so no other sentence changes.
#[derive(Debug, Clone, Default)]
pub struct SanitizesNamespaces<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(SanitizesNamespaces);

/// The namespace [`SanitizesNamespaces`] uses in place of `namespace`: `namespace`
/// itself when valid; otherwise, in order: every character outside ASCII
/// letters, digits and `- _ . / : @ +` becomes `_`; the result is cut to
/// [`MAX_NAMESPACE_LEN`] bytes; leading and trailing `/` are removed; every
/// `..` segment becomes `__`; an empty result, or one ending in `:` (a
/// sectioned name with an empty scope), gets a `_` appended. In the unlikely
/// case that is still invalid, [`GLOBAL_NAMESPACE`].
///
/// `"a b"` → `"a_b"`, `""` → `"_"`, `"/x/"` → `"x"`, `"a/../b"` →
/// `"a/__/b"`, `"learning:"` → `"learning:_"`, `"é"` → `"_"`.
#[must_use]
pub fn sanitize_namespace(namespace: &str) -> String {
    if Namespace::parse(namespace).is_ok() {
        return namespace.to_owned();
    }
    let mut s: String = namespace
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ':' | '@' | '+') {
                c
            } else {
                '_'
            }
        })
        .collect();
    // Every character is ASCII now, so any byte index is a boundary.
    s.truncate(MAX_NAMESPACE_LEN);
    let s = s.trim_matches('/');
    let mut s = s
        .split('/')
        .map(|seg| if seg == ".." { "__" } else { seg })
        .collect::<Vec<_>>()
        .join("/");
    if s.is_empty() || s.ends_with(':') {
        s.push('_');
    }
    if Namespace::parse(&s).is_ok() {
        s
    } else {
        GLOBAL_NAMESPACE.to_owned()
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method with its namespace passed through [`sanitize_namespace`].
    impl[P: MemoryProvider + ?Sized] MemoryProvider for SanitizesNamespaces<P> {
        // `export_page` is forwarded: an export has no namespace argument to sanitize.
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
            let namespace = sanitize_namespace(namespace);
            self.inner
                .store(&namespace, key, content, category, session_id, taint)
                .await
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            self.inner.get(&sanitize_namespace(namespace), key).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            self.inner.forget(&sanitize_namespace(namespace), key).await
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let namespace = namespace.map(sanitize_namespace);
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
            let Some(namespace) = opts.namespace.as_deref() else {
                return self.inner.recall(query, limit, opts).await;
            };
            let sanitized = RecallOptions {
                namespace: Some(sanitize_namespace(namespace)),
                ..opts.clone()
            };
            self.inner.recall(query, limit, &sanitized).await
        }

        /// Every namespace sanitized before the wrapped driver's bulk store, so
        /// an invalid one is rewritten instead of refused here too.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            let sanitized: Vec<NewEntry> = entries
                .iter()
                .map(|e| NewEntry {
                    namespace: sanitize_namespace(&e.namespace),
                    ..e.clone()
                })
                .collect();
            self.inner.store_many(&sanitized).await
        }

        /// Every record's namespace sanitized, so a record with an invalid
        /// namespace is imported under the rewritten name, not reported.
        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let sanitized: Vec<MemoryRecord> = records
                .iter()
                .map(|r| MemoryRecord {
                    namespace: sanitize_namespace(&r.namespace),
                    ..r.clone()
                })
                .collect();
            self.inner.import(&sanitized).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "sanitizes-invalid-namespaces",
        rule: "contract 9: an invalid namespace is MemoryError::Invalid on every method",
        check: "namespace.invalid_refused",
        also_caught_by: &["store.bulk", "portability.import_failures", "properties.namespace_round_trip", "model.differential"],
        description: "an invalid namespace is silently rewritten to a valid one instead of refused",
        wrap: SanitizesNamespaces::new(),
        profile: Lexical,
        witness: |d| {
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            let got = d
                .store(
                    "a b",
                    "k",
                    "x",
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await;
            Ok(format!("{:?}", got.map_err(|e| e.rule())))
        },
        reference: r#"Err(Some("namespace.charset"))"#,
        mutant: "Ok(())",
    },
];
