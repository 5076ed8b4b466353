//! Entry categories.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What an entry is for. Its text form round-trips:
/// `core`, `daily`, `conversation`, and `custom:<text>` for
/// [`MemoryCategory::Custom`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemoryCategory {
    /// Long-lived core facts.
    Core,
    /// Day-to-day notes.
    Daily,
    /// Conversation turns.
    Conversation,
    /// Any other category; rendered `custom:<text>`.
    Custom(String),
}

impl MemoryCategory {
    /// The text form: `core`, `daily`, `conversation` or `custom:<text>`.
    #[must_use]
    pub fn as_text(&self) -> String {
        match self {
            Self::Core => "core".to_owned(),
            Self::Daily => "daily".to_owned(),
            Self::Conversation => "conversation".to_owned(),
            Self::Custom(c) => format!("custom:{c}"),
        }
    }

    /// Decodes a text form. Never fails: `custom:<text>` gives
    /// `Custom(text)`, and any other unknown text gives `Custom(text)` too,
    /// so a value written by a newer version is kept rather than refused.
    #[must_use]
    pub fn from_text(text: &str) -> Self {
        match text {
            "core" => Self::Core,
            "daily" => Self::Daily,
            "conversation" => Self::Conversation,
            other => Self::Custom(other.strip_prefix("custom:").unwrap_or(other).to_owned()),
        }
    }
}

impl Default for MemoryCategory {
    /// [`MemoryCategory::Core`].
    fn default() -> Self {
        Self::Core
    }
}

impl fmt::Display for MemoryCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_text())
    }
}

impl FromStr for MemoryCategory {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self::from_text(s))
    }
}

/// Serialises as the text form.
impl Serialize for MemoryCategory {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.as_text())
    }
}

/// Deserialises a text form through [`MemoryCategory::from_text`].
impl<'de> Deserialize<'de> for MemoryCategory {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self::from_text(&String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips() {
        for c in [
            MemoryCategory::Core,
            MemoryCategory::Daily,
            MemoryCategory::Conversation,
            MemoryCategory::Custom("projects".into()),
            MemoryCategory::Custom("core".into()),
            MemoryCategory::Custom("custom:x".into()),
            MemoryCategory::Custom(String::new()),
        ] {
            assert_eq!(MemoryCategory::from_text(&c.as_text()), c, "{c:?}");
        }
        assert_eq!(
            MemoryCategory::Custom("core".into()).as_text(),
            "custom:core"
        );
        assert_eq!(
            MemoryCategory::from_text("weird"),
            MemoryCategory::Custom("weird".into())
        );
    }
}
