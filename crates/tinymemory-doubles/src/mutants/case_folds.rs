//! Mutant `case-folds-namespaces`, for `namespace.case_sensitive`.

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, Namespace, NewEntry,
    RecallOptions,
};

/// Breaks "namespaces are compared byte for byte" (check
/// `namespace.case_sensitive`): every namespace argument is validated as
/// given, then ASCII-lowercased before it is forwarded, like a driver
/// keying namespaces through a case-insensitive collation. `learning:A`
/// and `learning:a` become one namespace: a store in either replaces the
/// other's entry of the same key, and entries come back under the
/// lowercase name.
///
/// Namespaces that are already lowercase, which every other check uses,
/// behave exactly as in the wrapped driver. Invalid namespaces are still
/// [`MemoryError::Invalid`].
#[derive(Debug, Clone, Default)]
pub struct CaseFoldsNamespaces<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(CaseFoldsNamespaces);

/// `namespace` validated, then lowercased.
fn fold(namespace: &str) -> Result<String, MemoryError> {
    Namespace::parse(namespace)?;
    Ok(namespace.to_ascii_lowercase())
}

tinymemory_api::delegate_provider! {
    /// Forwards every method with its namespace lowercased.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for CaseFoldsNamespaces<P> {
        // `export_page` is forwarded: the export reads back the lowercased namespaces already
        // stored.
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
            let namespace = fold(namespace)?;
            self.inner
                .store(&namespace, key, content, category, session_id, taint)
                .await
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            self.inner.get(&fold(namespace)?, key).await
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            self.inner.forget(&fold(namespace)?, key).await
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let namespace = namespace.map(fold).transpose()?;
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
            let folded = RecallOptions {
                namespace: opts.namespace.as_deref().map(fold).transpose()?,
                ..opts.clone()
            };
            self.inner.recall(query, limit, &folded).await
        }

        /// Every entry through the mutated `store`, so namespaces are lowercased.
        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            tinymemory_api::batch::store_each(self, entries).await
        }

        /// Every valid namespace is lowercased, as on every other method;
        /// records with an invalid namespace go through as given, for the
        /// wrapped driver to report.
        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let folded: Vec<MemoryRecord> = records
                .iter()
                .map(|r| MemoryRecord {
                    namespace: fold(&r.namespace).unwrap_or_else(|_| r.namespace.clone()),
                    ..r.clone()
                })
                .collect();
            self.inner.import(&folded).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "case-folds-namespaces",
        rule: "namespaces: names compare byte for byte, so learning:A and learning:a are two namespaces",
        check: "namespace.case_sensitive",
        also_caught_by: &["model.differential"],
        description: "every namespace is lowercased before use, like a case-insensitive collation",
        wrap: CaseFoldsNamespaces::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            put(d, "learning:A", "k", "upper").await?;
            put(d, "learning:a", "k", "lower").await?;
            let got = d.get("learning:A", "k").await?;
            Ok(format!("{:?}", got.map(|e| (e.namespace, e.content))))
        },
        reference: r#"Some((Some("learning:A"), "upper"))"#,
        mutant: r#"Some((Some("learning:a"), "lower"))"#,
    },
];
