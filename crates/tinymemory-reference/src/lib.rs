//! The in-memory reference driver.
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
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod driver;
mod scoring;

pub use driver::ReferenceDriver;
pub use scoring::{score, words};
