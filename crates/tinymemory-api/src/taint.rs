//! Entry taint: where content came from.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Whether an entry's content is the agent's own or arrived from outside.
///
/// Text forms: `internal`, `external_sync`. Decoding fails closed: any
/// unknown persisted value decodes as [`MemoryTaint::ExternalSync`], so a
/// corrupted or future value is never trusted as internal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum MemoryTaint {
    /// Written by the agent itself (the default).
    #[default]
    Internal,
    /// Synchronised from an external source; treat as untrusted.
    ExternalSync,
}

impl MemoryTaint {
    /// The text form: `internal` or `external_sync`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Internal => "internal",
            Self::ExternalSync => "external_sync",
        }
    }

    /// Decodes a text form; anything but `internal` is
    /// [`MemoryTaint::ExternalSync`] (fail closed).
    #[must_use]
    pub fn from_text(text: &str) -> Self {
        if text == "internal" {
            Self::Internal
        } else {
            Self::ExternalSync
        }
    }
}

impl fmt::Display for MemoryTaint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialises as the text form.
impl Serialize for MemoryTaint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Deserialises through [`MemoryTaint::from_text`] (fail closed).
impl<'de> Deserialize<'de> for MemoryTaint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self::from_text(&String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_values_fail_closed() {
        assert_eq!(MemoryTaint::from_text("internal"), MemoryTaint::Internal);
        assert_eq!(
            MemoryTaint::from_text("external_sync"),
            MemoryTaint::ExternalSync
        );
        assert_eq!(
            MemoryTaint::from_text("Internal"),
            MemoryTaint::ExternalSync
        );
        assert_eq!(MemoryTaint::from_text(""), MemoryTaint::ExternalSync);
        assert_eq!(MemoryTaint::default(), MemoryTaint::Internal);
    }
}
