//! Mutant `drops-stop-words`, for `recall.common_words`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// Lucene's English stop set (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`),
/// which Elasticsearch's and OpenSearch's `english` analyzers use too.
pub const ENGLISH_STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

/// Breaks "every entry sharing a word with the query is a hit" (check
/// `recall.common_words`) for stop words: the query's words in
/// [`ENGLISH_STOP_WORDS`] (compared lowercased) are dropped before the
/// search, as a full-text engine with a stop filter does, so `recall("be")`
/// over "to be or not to be" finds nothing. A query left with no word
/// gives no hit; any other is searched as its remaining words. Every other
/// method is the wrapped driver's.
#[derive(Debug, Clone, Default)]
pub struct DropsStopWords<P: ?Sized> {
    inner: P,
}

impl<P> DropsStopWords<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self { inner }
    }
}

impl<P: ?Sized> DropsStopWords<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` drops the query's stop words.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for DropsStopWords<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many,
            export_page, import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let words: Vec<&str> = tinymemory_api::text::words(query).collect();
            if words.is_empty() {
                return self.inner.recall(query, limit, opts).await;
            }
            let kept: Vec<&str> = words
                .into_iter()
                .filter(|w| !ENGLISH_STOP_WORDS.contains(&w.to_lowercase().as_str()))
                .collect();
            if kept.is_empty() {
                opts.validate()?;
                tinymemory_api::Namespace::parse(opts.effective_namespace())?;
                return Ok(Vec::new());
            }
            self.inner.recall(&kept.join(" "), limit, opts).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "drops-stop-words",
        rule: "lexical: every entry sharing a word with the query is a hit, stop words and one-letter words included",
        check: "recall.common_words",
        also_caught_by: &[],
        description: "the query's English stop words (Lucene's list: the, is, it, be, not, a, ...) are dropped before the search, so recall(\"be\") finds nothing",
        wrap: DropsStopWords::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "to be or not to be").await?;
            Ok(format!("{:?}", keys(&d.recall("be", 10, &any()).await?)))
        },
        reference: r#"["k"]"#,
        mutant: "[]",
    },
];
