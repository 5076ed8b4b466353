//! Mutant for `recall.min_score`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, Namespace, RecallOptions};

/// Breaks contract sentence 7 (`recall.min_score`): recall forwards the
/// options without `min_score`, so hits below it (and unscored hits) are
/// kept. A `min_score` that is not finite is still refused, and an invalid
/// namespace still wins over it, as in the reference driver.
#[derive(Debug, Clone, Default)]
pub struct IgnoresMinScore<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(IgnoresMinScore);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` drops `min_score`.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for IgnoresMinScore<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            Namespace::parse(opts.effective_namespace())?;
            opts.validate()?;
            let unfiltered = RecallOptions {
                min_score: None,
                ..opts.clone()
            };
            self.inner.recall(query, limit, &unfiltered).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "ignores-min-score",
        rule: "contract 7: min_score drops hits below it, and unscored hits when set",
        check: "recall.min_score",
        also_caught_by: &[],
        description: "recall ignores min_score",
        wrap: IgnoresMinScore::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{put, scored};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "full", "rust async").await?;
            put(d, "global", "half", "rust tokio").await?;
            let opts = RecallOptions {
                min_score: Some(0.9),
                ..any()
            };
            Ok(format!(
                "{:?}",
                scored(&d.recall("rust async", 10, &opts).await?)
            ))
        },
        reference: r#"[("full", Some(1.0))]"#,
        mutant: r#"[("full", Some(1.0)), ("half", Some(0.5))]"#,
    },
];
