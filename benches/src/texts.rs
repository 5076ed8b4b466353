//! Real text for bench data, from the workspace corpus.

use tinymemory_corpus::Corpus;
use tinymemory_reference::words;

/// The query every recall bench asks: three common English words, so the
/// reference driver's scores take several values (1/3, 2/3, 1) and SQLite's
/// bm25 weighs a rare word against two frequent ones.
pub const QUERY: &str = "what is the";

/// The word of [`QUERY`] that every text of [`texts_with_word`]`(QUERY_WORD)`
/// holds, so each such entry is a hit.
pub const QUERY_WORD: &str = "the";

/// The content of every entry of the workspace corpus
/// (`fixtures/corpora`: dialog turns in 28 languages, learnings, licence
/// paragraphs), in the corpus's order.
///
/// # Panics
///
/// When the corpus cannot be loaded or is empty: the benches have no data.
#[must_use]
pub fn corpus_texts() -> Vec<String> {
    let root = Corpus::default_root();
    let corpus = Corpus::load(&root)
        .unwrap_or_else(|e| panic!("failed to load the corpus at {}: {e}", root.display()));
    let texts: Vec<String> = corpus.entries.into_iter().map(|e| e.content).collect();
    assert!(
        !texts.is_empty(),
        "failed to find any entry in the corpus at {}",
        root.display()
    );
    texts
}

/// The English dialog turns of the corpus that contain `word` as a whole
/// word (as the reference driver splits words:
/// [`tinymemory_reference::words`]), in the corpus's order, each once.
///
/// # Panics
///
/// As [`corpus_texts`], and when no English turn holds `word`.
#[must_use]
pub fn texts_with_word(word: &str) -> Vec<String> {
    let root = Corpus::default_root();
    let corpus = Corpus::load(&root)
        .unwrap_or_else(|e| panic!("failed to load the corpus at {}: {e}", root.display()));
    let word = word.to_lowercase();
    let mut texts: Vec<String> = corpus
        .entries
        .into_iter()
        .filter(|e| e.language.as_deref() == Some("english"))
        .filter(|e| e.section == tinymemory_api::MemorySection::Conversation)
        .map(|e| e.content)
        .filter(|c| words(c).contains(&word))
        .collect();
    texts.dedup();
    assert!(
        !texts.is_empty(),
        "failed to find an English turn holding {word:?}"
    );
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_holds_the_word() {
        let texts = texts_with_word(QUERY_WORD);
        assert!(texts.len() >= HITS, "only {} texts", texts.len());
        for t in &texts {
            assert!(words(t).contains(QUERY_WORD), "{t:?}");
        }
        assert!(tinymemory_reference::score(QUERY, &texts[0]).is_some());
    }

    const HITS: usize = crate::HITS_PER_NAMESPACE;
}
