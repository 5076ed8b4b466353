//! Mutant `recall-cuts-content`, for `store.big_content_round_trip`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// How many characters of a content a recall hit keeps: the length of a
/// search engine's snippet or of a payload field cut for display.
pub const SNIPPET_CHARS: usize = 1_000;

/// Breaks "a recall hit is the entry as stored" (check
/// `store.big_content_round_trip`): each hit's content is cut to its first
/// [`SNIPPET_CHARS`] characters, as an engine answering a search with a
/// snippet or a highlight instead of the stored text does. `get`, `list`
/// and the export give the whole content, and every hit of a content of
/// at most [`SNIPPET_CHARS`] characters (every content of the checks but
/// the 1 MiB one) is unchanged.
#[derive(Debug, Clone, Default)]
pub struct RecallCutsContent<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(RecallCutsContent);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` cuts each hit's content.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for RecallCutsContent<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many,
            export_page, import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let mut hits = self.inner.recall(query, limit, opts).await?;
            for h in &mut hits {
                if let Some((at, _)) = h.content.char_indices().nth(SNIPPET_CHARS) {
                    h.content.truncate(at);
                }
            }
            Ok(hits)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[entry! {
    name: "recall-cuts-content",
    rule: "contract 1: a recall hit is the entry as stored, its whole content",
    check: "store.big_content_round_trip",
    also_caught_by: &["portability.import_hostile"],
    description: "recall hits carry the first 1,000 characters of their content, as a snippet",
    wrap: RecallCutsContent::new(),
    profile: Lexical,
    witness: |d| {
        use tinymemory_api::RecallOptions;
        let long = format!("zebra {}", "z".repeat(2_000));
        super::witness::put(d, "global", "k", &long).await?;
        let hits = d.recall("zebra", 10, &RecallOptions::default()).await?;
        Ok(format!("{:?}", hits.iter().map(|h| h.content.chars().count()).collect::<Vec<_>>()))
    },
    reference: "[2006]",
    mutant: "[1000]",
}];
