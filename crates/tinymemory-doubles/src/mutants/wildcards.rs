//! Mutant `like-wildcards`, for `namespace.no_wildcards`.

use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, Namespace};

/// `true` when `value` matches the SQL `LIKE` `pattern`, case-sensitively
/// and with no escape character: `_` matches any one character, `%` any
/// run of characters (none included), every other character itself.
///
/// `like("learning:a_b", "learning:axb")` is `true`;
/// `like("learning:a%", "learning:abc")` is `true`;
/// `like("learning:a_b", "learning:ab")` is `false`.
#[must_use]
pub fn like(pattern: &str, value: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let v: Vec<char> = value.chars().collect();
    // matched[j]: the pattern so far matches v[..j]. One row per pattern
    // character keeps it O(|p| * |v|), with no backtracking blow-up.
    let mut matched = vec![false; v.len() + 1];
    matched[0] = true;
    for &pc in &p {
        let mut next = vec![false; v.len() + 1];
        for j in 0..=v.len() {
            next[j] = match pc {
                '%' => matched[j] || (j > 0 && next[j - 1]),
                '_' => j > 0 && matched[j - 1],
                c => j > 0 && matched[j - 1] && v[j - 1] == c,
            };
        }
        matched = next;
    }
    matched[v.len()]
}

/// Breaks "a namespace filter matches that namespace only" (check
/// `namespace.no_wildcards`): `list(Some(ns), ..)` returns the entries of
/// every namespace that `ns` matches as a SQL `LIKE` pattern (see [`like`]),
/// like a driver filtering with `WHERE namespace LIKE ?` instead of `=`.
/// `_` is valid in namespaces, so `list(Some("learning:a_b"))` also returns
/// the entries of `learning:axb`.
///
/// The filter is validated first (an invalid namespace is still
/// [`MemoryError::Invalid`]), and entries come in the wrapped driver's
/// `list(None, ..)` order. Every other method, `recall`'s pin included, is
/// forwarded unchanged, so only names holding `_` behave differently.
#[derive(Debug, Clone, Default)]
pub struct LikeWildcards<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(LikeWildcards);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `list` matches its namespace filter as a `LIKE`
    /// pattern.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for LikeWildcards<P> {
        forward(inner): driver_id, store, get, forget, namespaces, recall, store_many, export_page,
            import, interface;

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let Some(pattern) = namespace else {
                return self.inner.list(None, category, session_id).await;
            };
            Namespace::parse(pattern)?;
            let mut entries = self.inner.list(None, category, session_id).await?;
            entries.retain(|e| e.namespace.as_deref().is_some_and(|ns| like(pattern, ns)));
            Ok(entries)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "like-wildcards",
        rule: "namespaces: a namespace filter matches that one name; _ and . are plain characters",
        check: "namespace.no_wildcards",
        also_caught_by: &[],
        description: "list filters with namespace LIKE ?, so learning:a_b also lists learning:axb",
        wrap: LikeWildcards::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put};
            put(d, "learning:a_b", "k1", "x").await?;
            put(d, "learning:axb", "k2", "x").await?;
            Ok(format!(
                "{:?}",
                keys(&d.list(Some("learning:a_b"), None, None).await?)
            ))
        },
        reference: r#"["k1"]"#,
        mutant: r#"["k1", "k2"]"#,
    },
];
