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

rewrites_namespaces!(SanitizesNamespaces, sanitize_namespace);

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
