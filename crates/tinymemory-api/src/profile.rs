//! Recall profiles: what kind of ranking a driver's `recall` is.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The kind of recall a driver declares, which decides the rules the
/// conformance suite holds its `recall` to.
///
/// Both profiles share every rule of the `MemoryProvider` contract that is
/// not about which entries match: namespace pinning, filters, `limit`,
/// finite higher-is-better scores, `min_score`, plain-text queries,
/// determinism. They differ in which entries a recall may return:
///
/// - [`RecallProfile::Lexical`] (the default): a full-text engine. Every
///   hit shares a word ([`crate::text::words`]) with the query, and every
///   entry of the namespace sharing one is a hit, up to `limit`.
/// - [`RecallProfile::Semantic`]: any ranking engine, such as a vector
///   store ranking by cosine similarity of embeddings. A hit need share no
///   word with the query: the hits are the `limit` best-ranked entries of
///   the namespace that pass the filters, by the engine's own measure.
///
/// Lexical ranking is a valid semantic ranking, so a lexical driver that
/// declares `Semantic` is held to weaker rules and passes them too.
///
/// Text form (CLI, exec protocol `hello`, reports): `lexical`, `semantic`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum RecallProfile {
    /// Hits share a word with the query; all such entries are hits, up to
    /// `limit`.
    #[default]
    Lexical,
    /// Hits are the best-ranked entries by the engine's own similarity,
    /// whatever words they share.
    Semantic,
}

impl RecallProfile {
    /// Both profiles, lexical first.
    pub const ALL: [Self; 2] = [Self::Lexical, Self::Semantic];

    /// The text form: `lexical` or `semantic`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lexical => "lexical",
            Self::Semantic => "semantic",
        }
    }
}

impl fmt::Display for RecallProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that names no recall profile; its `Display` names the text and
/// the profiles that exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown recall profile {0:?}: expected \"lexical\" or \"semantic\"")]
pub struct UnknownRecallProfile(pub String);

/// Parses the exact text form (`lexical`, `semantic`); anything else,
/// other cases included, is refused rather than guessed.
impl FromStr for RecallProfile {
    type Err = UnknownRecallProfile;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| UnknownRecallProfile(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_forms_round_trip_and_unknown_is_refused() {
        for p in RecallProfile::ALL {
            assert_eq!(p.as_str().parse::<RecallProfile>(), Ok(p));
            assert_eq!(
                serde_json::to_string(&p).unwrap(),
                format!("\"{}\"", p.as_str())
            );
        }
        assert_eq!(RecallProfile::default(), RecallProfile::Lexical);
        let err = "Semantic".parse::<RecallProfile>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown recall profile \"Semantic\": expected \"lexical\" or \"semantic\""
        );
        assert!(serde_json::from_str::<RecallProfile>("\"vector\"").is_err());
    }
}
