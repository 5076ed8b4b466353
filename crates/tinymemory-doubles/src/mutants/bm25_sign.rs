//! Mutant `bm25-sign-as-match`, for `recall.none_means_global`.

use std::collections::BTreeSet;

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// The lowercased distinct words of `text`.
fn word_set(text: &str) -> BTreeSet<String> {
    tinymemory_api::text::words(text)
        .map(str::to_lowercase)
        .collect()
}

/// Breaks "every entry sharing a word with the query is a hit" (lexical
/// profile; check `recall.none_means_global`, the first to recall from a
/// namespace of one entry): a hit is kept only when its Okapi BM25 weight
/// is above 0, as a driver does that uses the score's sign as the test
/// for "shares a word". The weight is the sum, over the query words the
/// hit holds, of Okapi's IDF `ln((N - n + 0.5) / (n + 0.5))` (`N` entries
/// passing the recall's filters in the namespace, `n` of them holding the
/// word), the IDF of a popular Python BM25 library: 0 or below for a word
/// that half the namespace or more holds, so the only entry of a
/// namespace is never found. Kept hits, their scores and order are the
/// wrapped driver's.
#[derive(Debug, Clone, Default)]
pub struct Bm25SignAsMatch<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(Bm25SignAsMatch);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` drops the hits of weight 0 or below.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for Bm25SignAsMatch<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let hits = self.inner.recall(query, limit, opts).await?;
            if hits.is_empty() {
                return Ok(hits);
            }
            let pool: Vec<BTreeSet<String>> = self
                .inner
                .list(
                    Some(opts.effective_namespace()),
                    opts.category.as_ref(),
                    opts.session_id.as_deref(),
                )
                .await?
                .iter()
                .map(|e| word_set(&e.content))
                .collect();
            #[expect(
                clippy::cast_precision_loss,
                reason = "entry counts of a test double are far below 2^52"
            )]
            let idf = |word: &str| {
                let n = pool.iter().filter(|w| w.contains(word)).count() as f64;
                ((pool.len() as f64 - n + 0.5) / (n + 0.5)).ln()
            };
            let asked = word_set(query);
            Ok(hits
                .into_iter()
                .filter(|h| {
                    let held = word_set(&h.content);
                    asked.intersection(&held).map(|w| idf(w)).sum::<f64>() > 0.0
                })
                .collect())
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "bm25-sign-as-match",
        rule: "lexical: every entry sharing a word with the query is a hit, whatever its BM25 weight",
        check: "recall.none_means_global",
        also_caught_by: &["recall.hit_namespace", "recall.limit", "forget.idempotent", "recall.common_words", "recall.self_retrieval", "recall.filters", "recall.huge_limit", "store.big_content_round_trip", "namespace.case_sensitive", "namespace.no_wildcards", "namespace.reserved_words", "sections.across_merge_order", "sections.cap_and_truncation", "sections.namespaces_listed_once", "sections.pinned_hits_only", "sections.view_recall_pinned", "portability.import_hostile", "model.differential"],
        description: "a hit is kept only when its Okapi BM25 weight is above 0, so the only entry of a namespace is never found",
        wrap: Bm25SignAsMatch::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "g", "zebra crossing").await?;
            Ok(format!("{:?}", keys(&d.recall("zebra", 10, &any()).await?)))
        },
        reference: r#"["g"]"#,
        mutant: "[]",
    },
];
