//! A digest of what a corpus stores, so a report can say which corpus it
//! measured.

use sha2::{Digest as _, Sha256};

use crate::Corpus;

impl Corpus {
    /// `sha256:` and 64 lowercase hex digits: SHA-256 (FIPS 180-4) over
    /// every entry as it is stored, in [`Corpus::entries`]' order.
    ///
    /// Each entry contributes its rendered namespace, key, category (text
    /// form: `conversation`, `core`) and content, each written as its
    /// length in bytes (u64, little-endian) and then its bytes, so no two
    /// different sequences of entries serialise alike. Where an entry came
    /// from (its file and line, its language) is not stored and not part
    /// of the digest, nor are the warnings: two corpora giving the same
    /// entries have the same digest, and any change to a stored entry
    /// changes it.
    #[must_use]
    pub fn digest(&self) -> String {
        let mut hasher = Sha256::new();
        let mut field = |text: &str| {
            hasher.update((text.len() as u64).to_le_bytes());
            hasher.update(text.as_bytes());
        };
        for e in &self.entries {
            field(&e.namespace_name());
            field(&e.key);
            field(&e.category.as_text());
            field(&e.content);
        }
        let mut out = String::from("sha256:");
        for byte in hasher.finalize() {
            out.push_str(&format!("{byte:02x}"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use tinymemory_api::{MemoryCategory, MemorySection};

    use crate::{Corpus, CorpusEntry, Origin};

    fn entry(scope: &str, key: &str, content: &str) -> CorpusEntry {
        CorpusEntry {
            section: MemorySection::Document,
            scope: scope.to_owned(),
            key: key.to_owned(),
            content: content.to_owned(),
            category: MemoryCategory::Core,
            language: None,
            origin: Origin::new("licenses/x.txt", 1),
        }
    }

    fn corpus(entries: Vec<CorpusEntry>) -> Corpus {
        Corpus {
            root: PathBuf::from("corpora"),
            files: Vec::new(),
            entries,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn an_empty_corpus_has_the_digest_of_nothing() {
        assert_eq!(
            corpus(Vec::new()).digest(),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn every_stored_field_and_nothing_else_changes_the_digest() {
        let base = corpus(vec![entry("mit", "p0000", "Permission is granted")]);
        let d = base.digest();
        assert!(d.starts_with("sha256:") && d.len() == 71, "{d}");
        // Moved within the file, or read from another: the same entries.
        let mut moved = base.clone();
        moved.entries[0].origin = Origin::new("licenses/y.txt", 9);
        moved.root = PathBuf::from("elsewhere");
        assert_eq!(moved.digest(), d);
        for changed in [
            corpus(vec![entry("mit", "p0000", "Permission is granted.")]),
            corpus(vec![entry("mit", "p0001", "Permission is granted")]),
            corpus(vec![entry("mit2", "p0000", "Permission is granted")]),
            corpus(vec![CorpusEntry {
                category: MemoryCategory::Conversation,
                ..entry("mit", "p0000", "Permission is granted")
            }]),
            // The same bytes split otherwise between key and content.
            corpus(vec![entry("mit", "p0000P", "ermission is granted")]),
        ] {
            assert_ne!(changed.digest(), d);
        }
    }
}
