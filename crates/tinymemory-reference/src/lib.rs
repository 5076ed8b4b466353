//! The in-memory reference drivers: [`ReferenceDriver`] for the lexical
//! recall profile, [`SemanticReferenceDriver`] for the semantic one.
//!
//! [`ReferenceDriver`] keeps every entry in one ordered map behind a mutex.
//! It is the model other drivers are compared with, so it favours being
//! obviously right over being fast: every recall scans the namespace.
//!
//! # Scoring
//!
//! See [`score`]: the fraction of the query's distinct words that occur as
//! whole words in the content, in `(0, 1]`. Entries scoring 0 are not hits.
//! Hits are ordered by score descending, then key ascending.
//!
//! # Semantic scoring
//!
//! [`SemanticReferenceDriver`] stores like [`ReferenceDriver`] and ranks
//! every entry of the namespace by the cosine similarity of hashed
//! embeddings ([`embedding`]), as a vector store would: no word need be
//! shared, and no model is downloaded.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod driver;
pub mod embedding;
mod scoring;
mod semantic;

pub use driver::ReferenceDriver;
pub use scoring::{score, words};
pub use semantic::SemanticReferenceDriver;
