//! Real text for tinymemory's tests, benches and conformance runs.
//!
//! [`Corpus::load`] reads a corpus directory (the crate carries one, the
//! workspace's `fixtures/corpora`, at [`Corpus::default_root`]) and turns it into
//! [`CorpusEntry`] values, each with a section, scope, key, content,
//! category and the [`Origin`] (file and line) it came from:
//!
//! - the ChatterBot dialogs (`chatterbot/<language>/<topic>.yml`, 28
//!   languages in many scripts) become conversations, one entry per turn,
//!   and the English ones learnings too, one entry per answer;
//! - the licence texts (`licenses/<name>.txt`) become documents, one entry
//!   per paragraph.
//!
//! Real data is uneven: what cannot be read as intended is skipped with a
//! [`CorpusWarning`] naming its file and line (a name that leads to a
//! device, a FIFO or a socket too), and a file that cannot be read at all,
//! or holds more than [`MAX_FILE_BYTES`], is a [`CorpusError`] naming its
//! file, line and column.
//!
//! ```no_run
//! use tinymemory_corpus::Corpus;
//!
//! let corpus = Corpus::load(&Corpus::default_root())?;
//! for warning in &corpus.warnings {
//!     eprintln!("warning: {warning}");
//! }
//! for entry in &corpus.entries {
//!     let _namespace = entry.namespace(); // e.g. conversation:english-greetings
//! }
//! println!("{}", corpus.summary());
//! # Ok::<(), tinymemory_corpus::CorpusError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod corpus;
mod dialog;
mod digest;
mod entry;
mod error;
mod layout;
mod licence;
mod names;
mod summary;
mod warning;

pub use corpus::{Corpus, MAX_FILE_BYTES};
pub use dialog::MAX_NESTING;
pub use entry::{CorpusEntry, Origin};
pub use error::CorpusError;
pub use summary::CorpusSummary;
pub use warning::CorpusWarning;
