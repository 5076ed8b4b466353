//! Memory sections: the `<section>` half of `<section>:<scope>`.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{rules, MemoryError};

/// A section of memory: what kind of thing a namespace holds.
///
/// The wire prefix of a known section is its lowercase variant name
/// (`conversation`, `document`, `learning`, `entity`, `profile`, `tool`,
/// `source`). [`MemorySection::Custom`] carries any other prefix.
///
/// Equality, ordering and hashing compare the wire prefix, so
/// `Custom("learning")` *is* [`MemorySection::Learning`]: a known section has
/// exactly one spelling. [`MemorySection::normalized`] rewrites the value to
/// its canonical variant, and every constructor in this workspace normalises.
#[derive(Debug, Clone)]
pub enum MemorySection {
    /// Conversation turns: `conversation:<thread>`.
    Conversation,
    /// Documents split into chunks: `document:<doc>`.
    Document,
    /// Things the agent learned: `learning:<topic>`.
    Learning,
    /// Facts about an entity: `entity:<id>`.
    Entity,
    /// A user or agent profile: `profile:<id>`.
    Profile,
    /// Tool descriptions and results: `tool:<name>`.
    Tool,
    /// Where knowledge came from: `source:<id>`.
    Source,
    /// Any other prefix. Valid only when it matches `[a-z0-9_-]+`
    /// (see [`MemorySection::validate`]).
    Custom(String),
}

impl MemorySection {
    /// The seven known sections, in declaration order.
    pub const KNOWN: [MemorySection; 7] = [
        MemorySection::Conversation,
        MemorySection::Document,
        MemorySection::Learning,
        MemorySection::Entity,
        MemorySection::Profile,
        MemorySection::Tool,
        MemorySection::Source,
    ];

    /// Maps a wire prefix onto its section: a known prefix gives the known
    /// variant, anything else `Custom(prefix)`. Matching is exact (byte for
    /// byte, case-sensitive): `"Learning"` is a custom prefix, and an invalid
    /// one.
    #[must_use]
    pub fn from_prefix(prefix: &str) -> Self {
        match prefix {
            "conversation" => Self::Conversation,
            "document" => Self::Document,
            "learning" => Self::Learning,
            "entity" => Self::Entity,
            "profile" => Self::Profile,
            "tool" => Self::Tool,
            "source" => Self::Source,
            other => Self::Custom(other.to_owned()),
        }
    }

    /// The wire prefix: the lowercase variant name, or the custom text.
    #[must_use]
    pub fn prefix(&self) -> &str {
        match self {
            Self::Conversation => "conversation",
            Self::Document => "document",
            Self::Learning => "learning",
            Self::Entity => "entity",
            Self::Profile => "profile",
            Self::Tool => "tool",
            Self::Source => "source",
            Self::Custom(p) => p,
        }
    }

    /// The canonical spelling: `Custom` of a known prefix becomes the known
    /// variant; every other value is returned unchanged.
    #[must_use]
    pub fn normalized(self) -> Self {
        match self {
            Self::Custom(p) => Self::from_prefix(&p),
            known => known,
        }
    }

    /// Checks that the prefix is usable: `[a-z0-9_-]+`.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] with rule [`rules::SECTION_PREFIX`] when the
    /// prefix is empty or holds any other character.
    pub fn validate(&self) -> Result<(), MemoryError> {
        let p = self.prefix();
        if is_valid_prefix(p) {
            Ok(())
        } else {
            Err(MemoryError::invalid(
                rules::SECTION_PREFIX,
                format!("section prefix {p:?} must match [a-z0-9_-]+"),
            ))
        }
    }
}

/// `[a-z0-9_-]+`, the one definition both sections and namespaces use.
pub(crate) fn is_valid_prefix(p: &str) -> bool {
    !p.is_empty()
        && p.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl PartialEq for MemorySection {
    fn eq(&self, other: &Self) -> bool {
        self.prefix() == other.prefix()
    }
}

impl Eq for MemorySection {}

impl Hash for MemorySection {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.prefix().hash(state);
    }
}

impl PartialOrd for MemorySection {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Orders by wire prefix, bytewise.
impl Ord for MemorySection {
    fn cmp(&self, other: &Self) -> Ordering {
        self.prefix().cmp(other.prefix())
    }
}

/// Renders the wire prefix.
impl fmt::Display for MemorySection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.prefix())
    }
}

/// Serialises as the wire prefix string.
impl Serialize for MemorySection {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.prefix())
    }
}

/// Deserialises a prefix string through [`MemorySection::from_prefix`].
impl<'de> Deserialize<'de> for MemorySection {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(Self::from_prefix(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_prefixes_round_trip() {
        for s in MemorySection::KNOWN {
            assert_eq!(MemorySection::from_prefix(s.prefix()), s);
            assert!(!matches!(
                MemorySection::from_prefix(s.prefix()),
                MemorySection::Custom(_)
            ));
            assert_eq!(s.validate(), Ok(()));
        }
    }

    #[test]
    fn custom_spelling_of_a_known_section_is_that_section() {
        let c = MemorySection::Custom("learning".into());
        assert_eq!(c, MemorySection::Learning);
        assert!(matches!(c.normalized(), MemorySection::Learning));
        assert!(matches!(
            MemorySection::Custom("projects".into()).normalized(),
            MemorySection::Custom(p) if p == "projects"
        ));
    }

    #[test]
    fn prefix_rule() {
        for ok in ["a", "my-notes", "v2_x", "0"] {
            assert_eq!(MemorySection::Custom(ok.into()).validate(), Ok(()), "{ok}");
        }
        for bad in ["", "Bad Prefix", "a:b", "Learning", "é", "a.b"] {
            assert_eq!(
                MemorySection::Custom(bad.into())
                    .validate()
                    .unwrap_err()
                    .rule(),
                Some(rules::SECTION_PREFIX),
                "{bad:?}"
            );
        }
    }
}
