//! One loaded entry and where it came from.

use std::fmt;
use std::path::PathBuf;

use tinymemory_api::{MemoryCategory, MemorySection, Namespace};

/// A place in the corpus: a file and a line in it.
///
/// Ordered by file, then line, which is the order in which
/// [`Corpus::load`](crate::Corpus::load) reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    /// The file, relative to the corpus root (for example
    /// `chatterbot/english/greetings.yml` or `licenses/GPL-3.txt`).
    pub file: PathBuf,
    /// The 1-based line on which the entry's text starts.
    pub line: usize,
}

impl Origin {
    /// An origin at `line` (1-based) of `file` (relative to the corpus root).
    pub fn new(file: impl Into<PathBuf>, line: usize) -> Self {
        Self {
            file: file.into(),
            line,
        }
    }
}

/// Renders `file:line`, the form editors and terminals link to.
impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.line)
    }
}

/// One memory entry made from the corpus, ready to be stored with
/// [`MemoryProvider::store`](tinymemory_api::MemoryProvider::store) under
/// [`CorpusEntry::namespace`] and [`CorpusEntry::key`].
///
/// The mapping from files to entries is described on
/// [`Corpus::load`](crate::Corpus::load).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusEntry {
    /// The section: [`MemorySection::Conversation`], [`MemorySection::Learning`]
    /// or [`MemorySection::Document`].
    pub section: MemorySection,
    /// The scope within the section, for example `english-greetings`; it
    /// only holds `[a-z0-9_.-]`.
    pub scope: String,
    /// The key, unique within the namespace, for example `c0000-t00`.
    pub key: String,
    /// The text: a turn, an answer or a paragraph. Never empty.
    pub content: String,
    /// [`MemoryCategory::Conversation`] for dialog turns,
    /// [`MemoryCategory::Core`] for learnings and documents.
    pub category: MemoryCategory,
    /// The dialog's language (its directory name, for example `english`);
    /// `None` for licence texts.
    pub language: Option<String>,
    /// Where the text starts in the corpus.
    pub origin: Origin,
}

impl CorpusEntry {
    /// The namespace `<section>:<scope>` the entry belongs in.
    ///
    /// # Panics
    ///
    /// Panics when `section` and `scope` cannot form a valid [`Namespace`].
    /// That never happens for an entry made by
    /// [`Corpus::load`](crate::Corpus::load), which checks every namespace it
    /// makes and fails with [`CorpusError::Namespace`](crate::CorpusError::Namespace)
    /// instead; it can only happen to an entry whose fields were edited since.
    #[must_use]
    pub fn namespace(&self) -> Namespace {
        match Namespace::new(&self.section, &self.scope) {
            Ok(ns) => ns,
            Err(e) => panic!(
                "corpus entry {} from {} has no valid namespace: {e}",
                self.key, self.origin
            ),
        }
    }

    /// The rendered namespace, `<section prefix>:<scope>`, without
    /// validating it (cheap; used for sorting and counting).
    #[must_use]
    pub fn namespace_name(&self) -> String {
        format!("{}:{}", self.section.prefix(), self.scope)
    }
}
