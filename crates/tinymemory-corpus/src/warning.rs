//! Problems in the data that [`Corpus::load`](crate::Corpus::load) skipped
//! over.

use std::fmt;

use crate::Origin;

/// Something in a corpus file that was skipped or looks wrong, though the
/// file could be read.
///
/// Renders as `file:line: message`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CorpusWarning {
    /// Where the problem is.
    pub origin: Origin,
    /// What is wrong and what the loader did about it.
    pub message: String,
}

impl CorpusWarning {
    /// A warning about `origin`.
    pub fn new(origin: Origin, message: impl Into<String>) -> Self {
        Self {
            origin,
            message: message.into(),
        }
    }
}

impl fmt::Display for CorpusWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.origin, self.message)
    }
}
