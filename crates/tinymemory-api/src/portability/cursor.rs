//! Export cursors: opaque to callers, a keyset position for in-tree drivers.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{rules, validate_key, MemoryError, Namespace};

/// Where an export resumes: an opaque token issued by a driver in
/// [`ExportPage::next_cursor`](crate::portability::ExportPage::next_cursor).
///
/// Callers never build or edit one; they pass back what they were given.
/// A driver refuses a token it cannot have issued (one that is not
/// well-formed in its cursor format: garbled, truncated, edited, made up)
/// with [`MemoryError::Invalid`] (rule [`rules::EXPORT_CURSOR`]), never by
/// silently starting over. A well-formed token of the format is a
/// position, and is accepted whichever store issued it: the in-tree
/// drivers do not bind cursors to a store ([`KeysetCursor`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ExportCursor(String);

impl ExportCursor {
    /// Wraps a token as issued by a driver (for drivers and wire codecs).
    #[must_use]
    pub fn new(token: impl Into<String>) -> Self {
        Self(token.into())
    }

    /// The token's text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The token's text, owned.
    #[must_use]
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for ExportCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The cursor of the in-tree drivers: "after `(namespace, key)`" (keyset
/// pagination), or the start of the store.
///
/// A keyset cursor is stable under concurrent writes: a page holds the
/// records strictly after the position, so an entry present for the whole
/// export is exported exactly once whatever is stored or forgotten
/// meanwhile, and a cursor stays valid after the entry it names is
/// forgotten.
///
/// Its token is `tm-export-1.` then the namespace and the key in lowercase
/// hex, separated by `.`, then `.` and a 64-bit FNV-1a checksum of what
/// precedes it in hex (`tm-export-1..<checksum>` for the start); the
/// checksum makes an edited or truncated token `Invalid` rather than a
/// position somewhere else. The checksum is no secret: a token made with
/// this format, by another store of the same driver or by hand, is a
/// valid position, and an export given it resumes after that position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeysetCursor {
    /// The last `(namespace, key)` exported, or `None` for the start.
    pub after: Option<(String, String)>,
}

const PREFIX: &str = "tm-export-1.";

impl KeysetCursor {
    /// The start of the store.
    #[must_use]
    pub fn start() -> Self {
        Self { after: None }
    }

    /// After `(namespace, key)`.
    #[must_use]
    pub fn after(namespace: &str, key: &str) -> Self {
        Self {
            after: Some((namespace.to_owned(), key.to_owned())),
        }
    }

    /// The token for this position.
    #[must_use]
    pub fn encode(&self) -> ExportCursor {
        let body = match &self.after {
            None => format!("{PREFIX}."),
            Some((ns, key)) => format!("{PREFIX}{}.{}", hex(ns), hex(key)),
        };
        let sum = fnv1a(body.as_bytes());
        ExportCursor(format!("{body}.{sum:016x}"))
    }

    /// The position of a token made by [`KeysetCursor::encode`], by this
    /// store or by any other: a keyset cursor is a position ("after this
    /// `(namespace, key)`"), not a session, so a well-formed token resumes
    /// after its position in whatever store it is given to.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Invalid`] with rule [`rules::EXPORT_CURSOR`] for any
    /// text `encode` cannot make, saying why: a checksum missing or not
    /// matching (a token edited, truncated or made up), a wrong prefix,
    /// bad hex, or a namespace or key that no store could hold.
    pub fn decode(cursor: &ExportCursor) -> Result<Self, MemoryError> {
        let text = cursor.as_str();
        let unknown = |why: String| {
            let shown: String = text.chars().take(60).collect();
            let more = if text.chars().count() > 60 { "…" } else { "" };
            MemoryError::invalid(
                rules::EXPORT_CURSOR,
                format!("export cursor {shown:?}{more} is not a cursor this driver issues: {why}"),
            )
        };
        let checksum = || {
            unknown("its checksum does not match (a token edited, truncated or made up)".to_owned())
        };
        let (body, sum) = text.rsplit_once('.').ok_or_else(checksum)?;
        if sum.len() != 16 || u64::from_str_radix(sum, 16).ok() != Some(fnv1a(body.as_bytes())) {
            return Err(checksum());
        }
        let rest = body
            .strip_prefix(PREFIX)
            .ok_or_else(|| unknown(format!("it does not start with {PREFIX:?}")))?;
        if rest == "." {
            return Ok(Self::start());
        }
        let malformed =
            || unknown("its position is not NAMESPACE.KEY in lowercase hex of UTF-8".to_owned());
        let (ns, key) = rest.split_once('.').ok_or_else(malformed)?;
        let ns = unhex(ns).ok_or_else(malformed)?;
        let key = unhex(key).ok_or_else(malformed)?;
        if let Err(e) = Namespace::parse(&ns) {
            return Err(unknown(format!("its namespace {ns:?} is not valid: {e}")));
        }
        if let Err(e) = validate_key(&key) {
            return Err(unknown(format!("its key {key:?} is not valid: {e}")));
        }
        Ok(Self {
            after: Some((ns, key)),
        })
    }
}

fn hex(text: &str) -> String {
    use fmt::Write;
    text.bytes()
        .fold(String::with_capacity(text.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

fn unhex(text: &str) -> Option<String> {
    if !text.len().is_multiple_of(2) || text.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let bytes = (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(bytes).ok()
}

/// 64-bit FNV-1a (Fowler, Noll, Vo; IETF draft-eastlake-fnv).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip() {
        for c in [
            KeysetCursor::start(),
            KeysetCursor::after("global", "k"),
            KeysetCursor::after("conversation:t.1", "键 with . dots"),
        ] {
            assert_eq!(KeysetCursor::decode(&c.encode()).unwrap(), c);
        }
        assert_eq!(
            KeysetCursor::after("global", "k").encode().as_str(),
            format!(
                "tm-export-1.676c6f62616c.6b.{:016x}",
                fnv1a(b"tm-export-1.676c6f62616c.6b")
            )
        );
    }

    #[test]
    fn tokens_not_issued_are_invalid() {
        let good = KeysetCursor::after("global", "k").encode().into_string();
        let mut edited = good.clone();
        edited.replace_range(13..14, "8");
        for bad in [
            String::new(),
            "bogus".to_owned(),
            good[..good.len() - 1].to_owned(),
            format!("{good}0"),
            edited,
            "tm-export-1..0000000000000000".to_owned(),
        ] {
            let err = KeysetCursor::decode(&ExportCursor::new(bad.clone())).unwrap_err();
            assert_eq!(err.rule(), Some(rules::EXPORT_CURSOR), "{bad:?}");
        }
    }

    #[test]
    fn each_refusal_says_what_is_wrong() {
        let why = |token: &str| {
            KeysetCursor::decode(&ExportCursor::new(token))
                .unwrap_err()
                .to_string()
                .split_once(" issues: ")
                .map(|(_, why)| why.to_owned())
        };
        let signed = |body: &str| format!("{body}.{:016x}", fnv1a(body.as_bytes()));
        assert_eq!(
            why("bogus").as_deref(),
            Some("its checksum does not match (a token edited, truncated or made up)")
        );
        assert_eq!(
            why(&signed("tm-export-2.")).as_deref(),
            Some("it does not start with \"tm-export-1.\"")
        );
        assert_eq!(
            why(&signed("tm-export-1.zz.6b")).as_deref(),
            Some("its position is not NAMESPACE.KEY in lowercase hex of UTF-8")
        );
        // Well-formed and signed, naming a namespace no store holds.
        let bad_ns = format!("tm-export-1.{}.6b", hex("a b"));
        assert!(why(&signed(&bad_ns))
            .unwrap()
            .starts_with("its namespace \"a b\" is not valid: "));
    }

    #[test]
    fn another_stores_token_is_a_position_here() {
        // Made by hand, as another store would make it: a position.
        let token = ExportCursor::new(format!(
            "tm-export-1.676c6f62616c.6b.{:016x}",
            fnv1a(b"tm-export-1.676c6f62616c.6b")
        ));
        assert_eq!(
            KeysetCursor::decode(&token).unwrap(),
            KeysetCursor::after("global", "k")
        );
    }

    #[test]
    fn a_long_token_is_shortened_in_the_message() {
        let err = KeysetCursor::decode(&ExportCursor::new("x".repeat(1000))).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "invalid input (export.cursor_unknown): export cursor \"{}\"… is not a cursor this \
                 driver issues: its checksum does not match (a token edited, truncated or made up)",
                "x".repeat(60)
            )
        );
    }
}
