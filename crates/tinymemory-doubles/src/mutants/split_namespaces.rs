//! Mutant `splits-namespaces-by-category`, for
//! `sections.namespaces_listed_once`.

use std::collections::BTreeMap;

use tinymemory_api::{MemoryError, MemoryProvider, NamespaceSummary};

/// Breaks contract sentence 8's "once" (check
/// `sections.namespaces_listed_once`): `namespaces()` lists one summary per
/// `(namespace, category)` instead of per namespace, like a driver whose
/// query says `GROUP BY namespace, category`. A namespace whose entries
/// share one category is listed once with its exact count, so the fault
/// shows only on mixed namespaces; a section recall then sees the namespace
/// twice, which it must report as a driver fault.
///
/// The summaries are built from the wrapped driver's `list(None, ..)`:
/// ordered by namespace, then category text
/// ([`MemoryCategory::as_text`](tinymemory_api::MemoryCategory::as_text));
/// each counts its group's entries, and its `last_updated` is the newest
/// timestamp among them. The counts of one namespace add up to its true
/// count. Every other method is forwarded unchanged.
#[derive(Debug, Clone, Default)]
pub struct SplitsNamespacesByCategory<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(SplitsNamespacesByCategory);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `namespaces()` groups by namespace and category.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for SplitsNamespacesByCategory<P> {
        forward(inner): driver_id, store, get, forget, list, recall, store_many, export_page,
            import, interface;

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let mut groups: BTreeMap<(String, String), NamespaceSummary> = BTreeMap::new();
            for entry in self.inner.list(None, None, None).await? {
                let Some(namespace) = entry.namespace else {
                    continue;
                };
                let summary = groups
                    .entry((namespace.clone(), entry.category.as_text()))
                    .or_insert_with(|| NamespaceSummary {
                        namespace,
                        count: 0,
                        last_updated: None,
                    });
                summary.count += 1;
                if tinymemory_api::is_newer_timestamp(
                    &entry.timestamp,
                    summary.last_updated.as_deref(),
                ) {
                    summary.last_updated = Some(entry.timestamp);
                }
            }
            Ok(groups.into_values().collect())
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "splits-namespaces-by-category",
        rule: "section API: a namespace listed twice by namespaces() is a driver fault (contract 8: once each)",
        check: "sections.namespaces_listed_once",
        also_caught_by: &["store.bulk", "model.differential"],
        description: "namespaces() groups by (namespace, category), listing a mixed namespace once per category",
        wrap: SplitsNamespacesByCategory::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{counts, put_as};
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            put_as(
                d,
                "learning:m",
                "k1",
                MemoryCategory::Core,
                MemoryTaint::Internal,
            )
            .await?;
            put_as(
                d,
                "learning:m",
                "k2",
                MemoryCategory::Daily,
                MemoryTaint::Internal,
            )
            .await?;
            Ok(format!("{:?}", counts(&d.namespaces().await?)))
        },
        reference: r#"[("learning:m", 2)]"#,
        mutant: r#"[("learning:m", 1), ("learning:m", 1)]"#,
    },
];
