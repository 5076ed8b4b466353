//! Mutant `prefix-pinned-recall`, for `sections.pinned_hits_only`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, Namespace, RecallOptions};

use crate::merge::merge_order;

/// Breaks "a recall pinned to a namespace searches that namespace only"
/// (check `sections.pinned_hits_only`): a recall searches every namespace
/// whose name *starts with* its effective namespace, like a driver
/// filtering with `WHERE namespace LIKE ? || '%'`. A recall pinned to
/// `learning:rust` also finds the entries of `learning:rust-async` and
/// `learning:rust/tokio`; a section recall must report such a hit as a
/// driver fault, not merge it.
///
/// A recall validates its namespace and options, calls the inner
/// `namespaces()` once, recalls each matching namespace in the order listed
/// (pinned, with the full `limit` and the other options unchanged), merges
/// the hits (score descending by [`f64::total_cmp`], unscored last, ties by
/// `(namespace, key)`) and keeps the first `limit`. Hits keep the namespace
/// they live in. Where no namespace name extends another, which holds in
/// every check but the one named, the hits are the wrapped driver's own.
#[derive(Debug, Clone, Default)]
pub struct PrefixPinnedRecall<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(PrefixPinnedRecall);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` matches its namespace as a prefix.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for PrefixPinnedRecall<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let prefix = opts.effective_namespace();
            Namespace::parse(prefix)?;
            opts.validate()?;
            let mut hits = Vec::new();
            for summary in self.inner.namespaces().await? {
                if !summary.namespace.starts_with(prefix) {
                    continue;
                }
                let pinned = RecallOptions {
                    namespace: Some(summary.namespace),
                    ..opts.clone()
                };
                hits.extend(self.inner.recall(query, limit, &pinned).await?);
            }
            hits.sort_by(merge_order);
            hits.truncate(limit);
            Ok(hits)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "prefix-pinned-recall",
        rule: "section API: a hit from another namespace than the one a recall was pinned to is a driver fault",
        check: "sections.pinned_hits_only",
        also_caught_by: &["recall.limit", "recall.namespace_isolation", "namespace.reserved_words", "properties.across_ordering", "properties.cap_determinism", "properties.pinning_cost", "properties.truncation", "properties.concurrent_equals_sequential", "model.differential"],
        description: "a recall pinned to learning:rust also searches learning:rust-async (namespace LIKE ? || '%')",
        wrap: PrefixPinnedRecall::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{key_ns, put};
            use tinymemory_api::RecallOptions;
            put(d, "learning:rust", "k1", "borrow").await?;
            put(d, "learning:rust-async", "k2", "borrow").await?;
            let opts = RecallOptions::in_namespace("learning:rust");
            Ok(format!(
                "{:?}",
                key_ns(&d.recall("borrow", 10, &opts).await?)
            ))
        },
        reference: r#"[("k1", Some("learning:rust"))]"#,
        mutant: r#"[("k1", Some("learning:rust")), ("k2", Some("learning:rust-async"))]"#,
    },
];
