//! Rule ids carried by [`MemoryError::Invalid`](crate::MemoryError::Invalid).
//!
//! Tests and hosts match on these ids, never on message text. Each id names
//! exactly one rule of the contract; the message says what was wrong with the
//! particular input.

/// A namespace must be 1 byte or longer.
pub const NAMESPACE_EMPTY: &str = "namespace.empty";
/// A namespace must be at most [`MAX_NAMESPACE_LEN`](crate::MAX_NAMESPACE_LEN) bytes.
pub const NAMESPACE_TOO_LONG: &str = "namespace.too_long";
/// A namespace may hold only ASCII letters, digits and `- _ . / : @ +`.
pub const NAMESPACE_CHARSET: &str = "namespace.charset";
/// A namespace may not contain a `..` segment (segments are separated by
/// `/` and `:`).
pub const NAMESPACE_DOT_DOT: &str = "namespace.dot_dot_segment";
/// A namespace may not start or end with `/`, nor have `/` next to a `:`.
pub const NAMESPACE_EDGE_SLASH: &str = "namespace.edge_slash";
/// A section prefix must match `[a-z0-9_-]+`.
pub const SECTION_PREFIX: &str = "section.prefix";
/// A sectioned namespace needs a non-empty scope after the colon.
pub const SCOPE_EMPTY: &str = "namespace.scope_empty";
/// A key must not be empty.
pub const KEY_EMPTY: &str = "key.empty";
/// A key must be at most [`MAX_KEY_LEN`](crate::key::MAX_KEY_LEN) bytes.
pub const KEY_TOO_LONG: &str = "key.too_long";
/// A `min_score` filter must be a finite number.
pub const MIN_SCORE_NOT_FINITE: &str = "recall.min_score_not_finite";
/// An export cursor must be one the driver issued.
pub const EXPORT_CURSOR: &str = "export.cursor_unknown";
/// An imported record's timestamp must be RFC 3339.
pub const IMPORT_TIMESTAMP: &str = "import.timestamp";

/// One rule of the contract as the exec protocol's specification states it
/// (docs/protocol.md, whose table of rule ids is made from [`RULES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rule {
    /// Its id, one of this module's constants.
    pub id: &'static str,
    /// When it is broken, one Markdown sentence fragment.
    pub broken_when: &'static str,
    /// Namespaces (for a namespace rule) or keys (for a key rule) that
    /// break it and no rule listed before it, each refused with this id;
    /// empty for rules another part of the contract checks.
    pub examples: &'static [&'static str],
}

/// Every rule id, in the order a namespace's rules are checked (the error
/// names the first one broken), then the key's, then the others.
pub const RULES: &[Rule] = &[
    Rule {
        id: NAMESPACE_EMPTY,
        broken_when: "the namespace is empty",
        examples: &[""],
    },
    Rule {
        id: NAMESPACE_TOO_LONG,
        broken_when: "the namespace is over 200 bytes",
        examples: &[],
    },
    Rule {
        id: NAMESPACE_CHARSET,
        broken_when: "it holds anything but ASCII letters, digits and `- _ . / : @ +`",
        examples: &["has space", "learning:naïve", "a\0b", "*"],
    },
    Rule {
        id: NAMESPACE_EDGE_SLASH,
        broken_when: "a part of it between colons (the whole name when it has none) starts or \
                      ends with `/`: `/a`, `a/`, `learning:/x`, `learning:x/`, `a/:b`",
        examples: &["/a", "a/", "learning:/x", "learning:x/", "a/:b"],
    },
    Rule {
        id: NAMESPACE_DOT_DOT,
        broken_when: "a segment is `..`, segments being separated by `/` and by `:`: `a/../b`, \
                      `..`, `learning:..`, `learning:../x`",
        examples: &["a/../b", "..", "learning:..", "learning:../x", "..:x"],
    },
    Rule {
        id: SCOPE_EMPTY,
        broken_when: "it has a section prefix (`[a-z0-9_-]+` before the first `:`) and nothing \
                      after the colon",
        examples: &["learning:", "conversation:"],
    },
    Rule {
        id: KEY_EMPTY,
        broken_when: "the key is empty",
        examples: &[""],
    },
    Rule {
        id: KEY_TOO_LONG,
        broken_when: "the key is over 1024 bytes (UTF-8)",
        examples: &[],
    },
    Rule {
        id: MIN_SCORE_NOT_FINITE,
        broken_when: "`min_score` is not finite (only reachable by a driver's own callers)",
        examples: &[],
    },
    Rule {
        id: SECTION_PREFIX,
        broken_when: "a section prefix is not `[a-z0-9_-]+` (raised by the section API, not by \
                      drivers)",
        examples: &[],
    },
    Rule {
        id: EXPORT_CURSOR,
        broken_when: "`export_page` got a cursor that is not well-formed in the driver's cursor \
                      format (so the driver cannot have issued it)",
        examples: &[],
    },
    Rule {
        id: IMPORT_TIMESTAMP,
        broken_when: "an imported record's timestamp is not RFC 3339 `date-time` (section 5.6, \
                      as the `time` crate's `well_known::Rfc3339` reads it: `T` or `t`, any \
                      fraction, `Z`, `z` or any `±HH:MM` offset, nothing before or after; a \
                      leap second only at 23:59:60 UTC on a month's last day; years 0000 to \
                      9999; `tinymemory_api::parse_rfc3339`)",
        examples: &[],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_listed_once_and_its_examples_break_it_first() {
        let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
        for id in [
            NAMESPACE_EMPTY,
            NAMESPACE_TOO_LONG,
            NAMESPACE_CHARSET,
            NAMESPACE_DOT_DOT,
            NAMESPACE_EDGE_SLASH,
            SECTION_PREFIX,
            SCOPE_EMPTY,
            KEY_EMPTY,
            KEY_TOO_LONG,
            MIN_SCORE_NOT_FINITE,
            EXPORT_CURSOR,
            IMPORT_TIMESTAMP,
        ] {
            assert!(ids.contains(&id), "{id} is not in RULES");
        }
        for rule in RULES {
            for example in rule.examples {
                let refused = if rule.id.starts_with("key.") {
                    crate::validate_key(example).err()
                } else {
                    crate::Namespace::parse(example).err()
                };
                assert_eq!(
                    refused.as_ref().and_then(crate::MemoryError::rule),
                    Some(rule.id),
                    "{example:?}"
                );
            }
        }
        let long = "n".repeat(crate::MAX_NAMESPACE_LEN + 1);
        assert_eq!(
            crate::Namespace::parse(&long).unwrap_err().rule(),
            Some(NAMESPACE_TOO_LONG)
        );
        let key = "k".repeat(crate::MAX_KEY_LEN + 1);
        assert_eq!(
            crate::validate_key(&key).unwrap_err().rule(),
            Some(KEY_TOO_LONG)
        );
    }
}
