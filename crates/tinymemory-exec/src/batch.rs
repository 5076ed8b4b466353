//! Cutting a batch of entries or records into requests of bounded size.

use std::ops::Range;

use serde::Serialize;
use tinymemory_api::MemoryError;

use crate::protocol::ascii_len;

/// The bytes one item adds to a request line: its JSON as the suite writes
/// it (non-ASCII escaped) and the comma before the next.
fn line_bytes<T: Serialize>(item: &T) -> usize {
    // Serialising entries and records cannot fail (string keys only, no
    // floats); a failure would count as nothing and still be sent alone.
    serde_json::to_string(item).map_or(0, |json| ascii_len(&json) + 1)
}

/// Consecutive ranges covering `items` in order, each holding at least one
/// item and, unless a single item is larger, at most `max_bytes` of
/// them as written on a request line. An empty batch has no range.
pub(crate) fn chunks<T: Serialize>(items: &[T], max_bytes: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0_usize);
    for (i, item) in items.iter().enumerate() {
        let len = line_bytes(item);
        if i > start && bytes.saturating_add(len) > max_bytes {
            out.push(start..i);
            start = i;
            bytes = 0;
        }
        bytes = bytes.saturating_add(len);
    }
    if start < items.len() {
        out.push(start..items.len());
    }
    out
}

/// `error` with `prefix` before its message, same variant, rule and
/// source. Errors of other variants are returned unchanged.
pub(crate) fn prefixed(error: MemoryError, prefix: &str) -> MemoryError {
    match error {
        MemoryError::Invalid { rule, message } => MemoryError::Invalid {
            rule,
            message: format!("{prefix}{message}"),
        },
        MemoryError::Unavailable { message, source } => MemoryError::Unavailable {
            message: format!("{prefix}{message}"),
            source,
        },
        MemoryError::Backend { message, source } => MemoryError::Backend {
            message: format!("{prefix}{message}"),
            source,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use tinymemory_api::batch::NewEntry;
    use tinymemory_api::rules;

    use super::*;

    #[test]
    fn chunks_cover_the_batch_in_order_within_the_limit() {
        let entries: Vec<NewEntry> = (0..10)
            .map(|i| NewEntry::new("global", format!("k{i}"), "x"))
            .collect();
        let one = line_bytes(&entries[0]);
        assert_eq!(
            one,
            r#"{"namespace":"global","key":"k0","content":"x","category":"core","session_id":null,"taint":"internal"},"#.len()
        );
        let whole = chunks(&entries, usize::MAX);
        assert_eq!((whole.len(), whole.first()), (1, Some(&(0..10))));
        assert_eq!(chunks(&entries, 3 * one), [0..3, 3..6, 6..9, 9..10]);
        assert_eq!(
            chunks(&entries, 3 * one - 1),
            [0..2, 2..4, 4..6, 6..8, 8..10]
        );
        // Too small for one entry: each goes alone.
        assert_eq!(chunks(&entries[..3], 1), [0..1, 1..2, 2..3]);
        assert!(chunks::<NewEntry>(&[], 10).is_empty());
    }

    #[test]
    fn non_ascii_counts_as_its_escapes() {
        let plain = line_bytes(&NewEntry::new("global", "k", "e"));
        // é is one \u00e9 (6 bytes), 🦀 a surrogate pair (12).
        assert_eq!(line_bytes(&NewEntry::new("global", "k", "é")), plain + 5);
        assert_eq!(line_bytes(&NewEntry::new("global", "k", "🦀")), plain + 11);
    }

    #[test]
    fn prefixes_keep_the_variant_and_rule() {
        let e = prefixed(MemoryError::invalid(rules::KEY_EMPTY, "m"), "p: ");
        assert_eq!(e, MemoryError::invalid(rules::KEY_EMPTY, "p: m"));
        let e = prefixed(MemoryError::fault("disk"), "p: ");
        assert_eq!(e, MemoryError::fault("p: disk"));
        let e = prefixed(MemoryError::unsupported("portability", "m"), "p: ");
        assert_eq!(e, MemoryError::unsupported("portability", "m"));
    }
}
