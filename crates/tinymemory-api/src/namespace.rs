//! Namespace names: parsing, construction, validation, rendering.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::section::is_valid_prefix;
use crate::{rules, MemoryError, MemorySection};

/// The namespace a recall with `namespace: None` searches (contract
/// sentence 2), and the usual home of unsectioned memory.
pub const GLOBAL_NAMESPACE: &str = "global";

/// Longest namespace accepted, in bytes.
pub const MAX_NAMESPACE_LEN: usize = 200;

/// A validated namespace name: `<section>:<scope>` or an unsectioned name.
///
/// Rules, checked in this order (the error names the first rule broken):
///
/// 1. 1..=[`MAX_NAMESPACE_LEN`] bytes ([`rules::NAMESPACE_EMPTY`],
///    [`rules::NAMESPACE_TOO_LONG`]);
/// 2. only ASCII letters, digits and `- _ . / : @ +`
///    ([`rules::NAMESPACE_CHARSET`]);
/// 3. no leading or trailing `/`, in the whole name or next to a `:`
///    ([`rules::NAMESPACE_EDGE_SLASH`]);
/// 4. no `..` segment, segments being separated by `/` and `:`
///    ([`rules::NAMESPACE_DOT_DOT`]), so `learning:..` and `a/../b` are
///    both refused.
///
/// The name splits at its first colon. When the part before it is a valid
/// section prefix (`[a-z0-9_-]+`) the name is *sectioned*: its section is
/// [`MemorySection::from_prefix`] of that part and its scope, the rest, must
/// not be empty ([`rules::SCOPE_EMPTY`]). Any other name is *unsectioned*
/// (`global`, `Notes:x`, `:x`) and renders back byte for byte. Rendering is
/// always the exact input string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Namespace {
    raw: String,
    /// Byte index of the separating colon when sectioned.
    colon: Option<usize>,
}

impl Namespace {
    /// Parses and validates a namespace name.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] carrying the id of the first rule broken (see
    /// the type's documentation).
    pub fn parse(name: &str) -> Result<Self, MemoryError> {
        validate_whole(name)?;
        let colon = match name.split_once(':') {
            Some((prefix, scope)) if is_valid_prefix(prefix) => {
                if scope.is_empty() {
                    return Err(MemoryError::invalid(
                        rules::SCOPE_EMPTY,
                        format!("namespace {name:?} has section {prefix:?} but an empty scope"),
                    ));
                }
                Some(prefix.len())
            }
            _ => None,
        };
        Ok(Self {
            raw: name.to_owned(),
            colon,
        })
    }

    /// Builds `<section prefix>:<scope>`, normalising the section through
    /// [`MemorySection::from_prefix`].
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] with [`rules::SECTION_PREFIX`] for an unusable
    /// section, [`rules::SCOPE_EMPTY`] for an empty scope, or the id of the
    /// namespace rule the rendered name breaks.
    pub fn new(section: &MemorySection, scope: &str) -> Result<Self, MemoryError> {
        section.validate()?;
        if scope.is_empty() {
            return Err(MemoryError::invalid(
                rules::SCOPE_EMPTY,
                format!("section {section} needs a non-empty scope"),
            ));
        }
        Self::parse(&format!("{}:{scope}", section.prefix()))
    }

    /// The [`GLOBAL_NAMESPACE`].
    #[must_use]
    pub fn global() -> Self {
        Self {
            raw: GLOBAL_NAMESPACE.to_owned(),
            colon: None,
        }
    }

    /// The rendered name, exactly as parsed or built.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// The section, normalised, or `None` for an unsectioned name.
    #[must_use]
    pub fn section(&self) -> Option<MemorySection> {
        self.colon
            .map(|i| MemorySection::from_prefix(&self.raw[..i]))
    }

    /// The scope after the first colon of a sectioned name, or the whole
    /// name when unsectioned.
    #[must_use]
    pub fn scope(&self) -> &str {
        match self.colon {
            Some(i) => &self.raw[i + 1..],
            None => &self.raw,
        }
    }

    /// `true` when the name belongs to `section` (compared normalised).
    #[must_use]
    pub fn is_in(&self, section: &MemorySection) -> bool {
        self.colon
            .is_some_and(|i| &self.raw[..i] == section.prefix())
    }

    /// Consumes the namespace, returning its rendered name.
    #[must_use]
    pub fn into_string(self) -> String {
        self.raw
    }
}

fn validate_whole(name: &str) -> Result<(), MemoryError> {
    if name.is_empty() {
        return Err(MemoryError::invalid(
            rules::NAMESPACE_EMPTY,
            "namespace must not be empty",
        ));
    }
    if name.len() > MAX_NAMESPACE_LEN {
        return Err(MemoryError::invalid(
            rules::NAMESPACE_TOO_LONG,
            format!(
                "namespace is {} bytes, the limit is {MAX_NAMESPACE_LEN}",
                name.len()
            ),
        ));
    }
    if let Some(c) = name.chars().find(|c| !is_namespace_char(*c)) {
        return Err(MemoryError::invalid(
            rules::NAMESPACE_CHARSET,
            format!(
                "namespace {name:?} holds {c:?}; allowed are ASCII letters, digits and - _ . / : @ +"
            ),
        ));
    }
    // A colon bounds a path as a slash does: `learning:../x` and
    // `learning:/x` escape their scope just as `a/../b` and `/a` would.
    let parts = || name.split(':');
    if parts().any(|p| p.starts_with('/') || p.ends_with('/')) {
        return Err(MemoryError::invalid(
            rules::NAMESPACE_EDGE_SLASH,
            format!("namespace {name:?} must not start or end with '/', before or after a ':'"),
        ));
    }
    if parts().any(|p| p.split('/').any(|seg| seg == "..")) {
        return Err(MemoryError::invalid(
            rules::NAMESPACE_DOT_DOT,
            format!("namespace {name:?} must not contain a '..' path segment"),
        ));
    }
    Ok(())
}

fn is_namespace_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ':' | '@' | '+')
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

impl AsRef<str> for Namespace {
    fn as_ref(&self) -> &str {
        &self.raw
    }
}

impl FromStr for Namespace {
    type Err = MemoryError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// Serialises as the rendered name.
impl Serialize for Namespace {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.raw)
    }
}

/// Deserialises through [`Namespace::parse`], so an invalid name is a
/// deserialisation error.
impl<'de> Deserialize<'de> for Namespace {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Self::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule_of(name: &str) -> Option<&'static str> {
        Namespace::parse(name).err().and_then(|e| e.rule())
    }

    #[test]
    fn sectioned_names_split_at_the_first_colon() {
        let ns = Namespace::parse("conversation:thread-8f21").unwrap();
        assert_eq!(ns.section(), Some(MemorySection::Conversation));
        assert_eq!(ns.scope(), "thread-8f21");
        assert_eq!(ns.as_str(), "conversation:thread-8f21");

        let ns = Namespace::parse("document:a:b").unwrap();
        assert_eq!(ns.section(), Some(MemorySection::Document));
        assert_eq!(ns.scope(), "a:b");

        let ns = Namespace::parse("my-notes:x").unwrap();
        assert_eq!(ns.section(), Some(MemorySection::Custom("my-notes".into())));
    }

    #[test]
    fn unsectioned_names_render_byte_for_byte() {
        for raw in ["global", "Notes:x", ":x", "a.b/c@d+e", "UPPER:case:x", "x"] {
            let ns = Namespace::parse(raw).unwrap();
            assert_eq!(ns.section(), None, "{raw}");
            assert_eq!(ns.scope(), raw);
            assert_eq!(ns.to_string(), raw);
        }
    }

    #[test]
    fn every_rule_is_named() {
        assert_eq!(rule_of(""), Some(rules::NAMESPACE_EMPTY));
        assert_eq!(rule_of(&"a".repeat(201)), Some(rules::NAMESPACE_TOO_LONG));
        assert_eq!(rule_of(&"a".repeat(200)), None);
        for bad in [
            "a b", "a'b", "a;b", "a%b", "é", "a\0b", "a*b", "a\\b", "a\"b",
        ] {
            assert_eq!(rule_of(bad), Some(rules::NAMESPACE_CHARSET), "{bad:?}");
        }
        assert_eq!(rule_of("/a"), Some(rules::NAMESPACE_EDGE_SLASH));
        assert_eq!(rule_of("a/"), Some(rules::NAMESPACE_EDGE_SLASH));
        assert_eq!(rule_of("a/../b"), Some(rules::NAMESPACE_DOT_DOT));
        assert_eq!(rule_of(".."), Some(rules::NAMESPACE_DOT_DOT));
        assert_eq!(rule_of("a/..x/b"), None);
        assert_eq!(rule_of("learning:"), Some(rules::SCOPE_EMPTY));
        assert_eq!(rule_of("learning:.."), Some(rules::NAMESPACE_DOT_DOT));
        assert_eq!(rule_of("learning:../x"), Some(rules::NAMESPACE_DOT_DOT));
        assert_eq!(rule_of("x/..:y"), Some(rules::NAMESPACE_DOT_DOT));
        assert_eq!(rule_of("learning:/x"), Some(rules::NAMESPACE_EDGE_SLASH));
        assert_eq!(rule_of("a/:b"), Some(rules::NAMESPACE_EDGE_SLASH));
        assert_eq!(rule_of("learning:..x"), None);
        assert_eq!(rule_of("x:y:z"), None);
    }

    #[test]
    fn construction_normalises_the_section() {
        let a = Namespace::new(&MemorySection::Custom("conversation".into()), "t1").unwrap();
        let b = Namespace::new(&MemorySection::Conversation, "t1").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.as_str(), "conversation:t1");
        assert_eq!(a.section(), Some(MemorySection::Conversation));
        assert!(a.is_in(&MemorySection::Conversation));
        assert!(!a.is_in(&MemorySection::Learning));
    }

    #[test]
    fn construction_refuses_bad_sections_and_scopes() {
        for bad in ["Bad Prefix", "", "a:b"] {
            let e = Namespace::new(&MemorySection::Custom(bad.into()), "x").unwrap_err();
            assert_eq!(e.rule(), Some(rules::SECTION_PREFIX), "{bad:?}");
        }
        let e = Namespace::new(&MemorySection::Learning, "").unwrap_err();
        assert_eq!(e.rule(), Some(rules::SCOPE_EMPTY));
        let e = Namespace::new(&MemorySection::Learning, "a b").unwrap_err();
        assert_eq!(e.rule(), Some(rules::NAMESPACE_CHARSET));
    }

    #[test]
    fn parse_render_round_trips_through_serde() {
        let ns = Namespace::parse("learning:rust-async").unwrap();
        let json = serde_json::to_string(&ns).unwrap();
        assert_eq!(json, "\"learning:rust-async\"");
        let back: Namespace = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ns);
        assert!(serde_json::from_str::<Namespace>("\"a b\"").is_err());
    }
}
