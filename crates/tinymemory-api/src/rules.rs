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
