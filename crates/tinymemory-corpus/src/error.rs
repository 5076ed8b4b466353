//! Why a corpus could not be loaded.

use std::io;
use std::path::PathBuf;

use tinymemory_api::MemoryError;

/// A failure of [`Corpus::load`](crate::Corpus::load): the corpus as a whole
/// is unusable, as opposed to a [`CorpusWarning`](crate::CorpusWarning) about
/// one skipped item.
///
/// Every variant about a file names it relative to the corpus root, and its
/// message names the line (and column, when the parser gives one) in the
/// form `file:line:column`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CorpusError {
    /// The corpus root is missing or is not a readable directory.
    #[error("corpus directory {} cannot be read: {source}", root.display())]
    Root {
        /// The root as given to [`Corpus::load`](crate::Corpus::load).
        root: PathBuf,
        /// Why it could not be listed.
        #[source]
        source: io::Error,
    },
    /// The root holds no corpus file at all: an empty corpus is a mistake
    /// (a wrong path), never a corpus.
    #[error(
        "corpus directory {} holds no corpus files \
         (expected chatterbot/<language>/<topic>.yml or licenses/<name>.txt)",
        root.display()
    )]
    Empty {
        /// The root as given to [`Corpus::load`](crate::Corpus::load).
        root: PathBuf,
    },
    /// A file or directory inside the corpus could not be read.
    #[error("failed to read {}: {source}", file.display())]
    Io {
        /// The file or directory, relative to the corpus root.
        file: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// A file longer than [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES):
    /// refused once that much is read, so a sparse file of gigabytes is
    /// neither held in memory nor parsed.
    #[error(
        "failed to read {}: it holds more than {} bytes ({} MiB), more than a corpus file may",
        file.display(),
        crate::MAX_FILE_BYTES,
        crate::MAX_FILE_BYTES >> 20
    )]
    TooLarge {
        /// The file, relative to the corpus root.
        file: PathBuf,
    },
    /// A file is not valid UTF-8.
    #[error(
        "failed to read {}:{line}:{column}: not valid UTF-8 (byte offset {offset})",
        file.display()
    )]
    NotUtf8 {
        /// The file, relative to the corpus root.
        file: PathBuf,
        /// The 1-based line of the first invalid byte.
        line: usize,
        /// The 1-based column, in bytes, of the first invalid byte.
        column: usize,
        /// The 0-based byte offset of the first invalid byte.
        offset: usize,
    },
    /// A dialog file is not valid YAML.
    #[error("failed to read {}:{line}:{column}: {message}", file.display())]
    Syntax {
        /// The file, relative to the corpus root.
        file: PathBuf,
        /// The 1-based line where the parser stopped.
        line: usize,
        /// The 1-based column, in characters, where the parser stopped.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A dialog file is valid YAML but not a dialog: not one mapping with a
    /// `conversations` list.
    #[error("failed to read {}:{line}: {message}", file.display())]
    Layout {
        /// The file, relative to the corpus root.
        file: PathBuf,
        /// The 1-based line of the offending node.
        line: usize,
        /// What was expected and what was found.
        message: String,
    },
    /// A file's name gives a namespace that [`tinymemory_api::Namespace`]
    /// refuses (too long, for example).
    #[error("cannot name a namespace for {}: {source}", file.display())]
    Namespace {
        /// The file, relative to the corpus root.
        file: PathBuf,
        /// The namespace rule it broke.
        #[source]
        source: MemoryError,
    },
    /// Two files map to the same namespace (for example `Food.yml` and
    /// `food.yml`), so their entries would overwrite each other.
    #[error(
        "{} and {} both map to namespace {namespace}",
        first.display(),
        second.display()
    )]
    Collision {
        /// The file read first, relative to the corpus root.
        first: PathBuf,
        /// The file read second, relative to the corpus root.
        second: PathBuf,
        /// The namespace both map to.
        namespace: String,
    },
}

impl CorpusError {
    /// The file (relative to the corpus root) the error is about, when it is
    /// about one; for [`CorpusError::Collision`], the second file.
    #[must_use]
    pub fn file(&self) -> Option<&std::path::Path> {
        match self {
            Self::Root { .. } | Self::Empty { .. } => None,
            Self::Io { file, .. }
            | Self::TooLarge { file }
            | Self::NotUtf8 { file, .. }
            | Self::Syntax { file, .. }
            | Self::Layout { file, .. }
            | Self::Namespace { file, .. } => Some(file),
            Self::Collision { second, .. } => Some(second),
        }
    }

    /// The 1-based line the error is about, when known.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::NotUtf8 { line, .. } | Self::Syntax { line, .. } | Self::Layout { line, .. } => {
                Some(*line)
            }
            _ => None,
        }
    }
}
