//! Mutant `zero-query-nan`, for `recall.plain_text_query`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// Breaks contract sentences 4 and 6 for queries without a word (check
/// `recall.plain_text_query`): a query that is not blank but holds no
/// word (`"`, `?!`) scores every hit `NaN`, as a cosine similarity against
/// the zero vector that a bag-of-words or hashed embedding gives such a
/// query does (`0 / 0`). Hits and their order are the wrapped driver's, and
/// every query with a word is forwarded untouched. [`ZeroQueryNan::refusing`]
/// makes such a recall a backend error instead, as engines that refuse a
/// zero query vector do.
#[derive(Debug, Clone, Default)]
pub struct ZeroQueryNan<P: ?Sized> {
    refuse: bool,
    inner: P,
}

impl<P> ZeroQueryNan<P> {
    /// Wraps `inner`: a wordless query scores `NaN`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self {
            refuse: false,
            inner,
        }
    }

    /// Wraps `inner`: a wordless query is a backend error.
    #[must_use]
    pub fn refusing(inner: P) -> Self {
        Self {
            refuse: true,
            inner,
        }
    }
}

impl<P: ?Sized> ZeroQueryNan<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` of a wordless query scores `NaN`.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for ZeroQueryNan<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let wordless = tinymemory_api::text::words(query).next().is_none();
            if wordless && self.refuse && !query.trim().is_empty() {
                return Err(MemoryError::fault(
                    "cannot search with a zero vector: the query's norm is 0",
                ));
            }
            let mut hits = self.inner.recall(query, limit, opts).await?;
            if wordless {
                for h in &mut hits {
                    h.score = Some(f64::NAN);
                }
            }
            Ok(hits)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "zero-query-nan",
        rule: "contract 6: a query without a word is plain text, never an error or a NaN score",
        check: "recall.plain_text_query",
        also_caught_by: &["recall.hostile_queries", "model.differential"],
        description: "a non-blank query without a word scores every hit NaN, as cosine against the zero vector its embedding is",
        wrap: ZeroQueryNan::new(),
        profile: Semantic,
        witness: |d| {
            use super::witness::{put, ranked};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "comet").await?;
            Ok(ranked(&d.recall("?!", 10, &any()).await?))
        },
        reference: r#"[("k", "0.000")]"#,
        mutant: r#"[("k", "NaN")]"#,
    },
];
