//! What the inverted index holds for one entry: its terms, each with the
//! positions where it occurs, and its length in tokens.
//!
//! The tokens of an entry are the space-separated pieces of
//! [`index_text`] (NFC; spaced words as they are, unspaced runs as their
//! character bigrams and last character), each *folded*: every character
//! replaced by its lowercase mapping ([`char::to_lowercase`], one character
//! at a time, so the result never depends on a neighbour), which is how
//! FTS5's `unicode61` tokenizer matched letters regardless of case in
//! schema version 1. Diacritics are kept: `cafe` and `café` are distinct
//! terms. Query words are folded by the same function, so the two sides
//! cannot disagree.
//!
//! Positions are token offsets from 0; phrase matching (an unspaced query
//! run of three or more characters) needs them. They are stored as a blob
//! of LEB128 varints, the first the offset itself, each later one the gap
//! from the previous, so a term that occurs once costs one or two bytes.

use tinymemory_text::index_text;

/// One entry's contribution to the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Document {
    /// Distinct folded terms in order of first occurrence, each with its
    /// positions, ascending.
    pub(crate) terms: Vec<(String, Vec<u32>)>,
    /// Tokens in the entry (BM25's document length).
    pub(crate) length: u32,
}

impl Document {
    /// The index of `content`.
    pub(crate) fn of(content: &str) -> Self {
        let text = index_text(content);
        let mut terms: Vec<(String, Vec<u32>)> = Vec::new();
        let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut length: u32 = 0;
        for token in text.split(' ').filter(|t| !t.is_empty()) {
            let term = fold(token);
            let slot = *at.entry(term.clone()).or_insert_with(|| {
                terms.push((term, Vec::new()));
                terms.len() - 1
            });
            terms[slot].1.push(length);
            length = length.saturating_add(1);
        }
        Self { terms, length }
    }

    /// The distinct terms joined by single spaces, as stored in
    /// `memory_entries.terms` (so `forget` can find the postings without
    /// re-tokenising the content).
    pub(crate) fn term_list(&self) -> String {
        let mut out = String::new();
        for (t, _) in &self.terms {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(t);
        }
        out
    }
}

/// A token or query word folded for matching: each character's lowercase
/// mapping, in order.
pub(crate) fn fold(token: &str) -> String {
    token.chars().flat_map(char::to_lowercase).collect()
}

/// `positions` (ascending) as the stored blob.
pub(crate) fn encode_positions(positions: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(positions.len() + 1);
    let mut previous = 0;
    for &p in positions {
        let mut v = p - previous;
        previous = p;
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
    }
    out
}

/// The positions in a stored blob; `None` for a blob this driver did not
/// write (truncated, or a value past `u32`).
pub(crate) fn decode_positions(blob: &[u8]) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    let (mut value, mut shift, mut previous) = (0_u64, 0_u32, 0_u64);
    for &b in blob {
        value |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            previous += value;
            out.push(u32::try_from(previous).ok()?);
            value = 0;
            shift = 0;
        } else {
            shift += 7;
            if shift > 35 {
                return None;
            }
        }
    }
    (shift == 0).then_some(out)
}

/// How many positions a stored blob holds (the term frequency), without
/// decoding them: one per byte whose continuation bit is clear.
pub(crate) fn count_positions(blob: &[u8]) -> usize {
    blob.iter().filter(|b| *b & 0x80 == 0).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_hold_folded_terms_positions_and_length() {
        let d = Document::of("Rust rust, 机器人! Café");
        assert_eq!(
            d.terms,
            [
                ("rust".to_owned(), vec![0, 1]),
                ("机器".to_owned(), vec![2]),
                ("器人".to_owned(), vec![3]),
                ("人".to_owned(), vec![4]),
                ("café".to_owned(), vec![5]),
            ]
        );
        assert_eq!(d.length, 6);
        assert_eq!(d.term_list(), "rust 机器 器人 人 café");
        let empty = Document::of(" \"*\0 ");
        assert_eq!((empty.terms.len(), empty.length), (0, 0));
        assert_eq!(empty.term_list(), "");
    }

    #[test]
    fn folding_is_per_character_lowercase() {
        assert_eq!(fold("ÉCOLE"), "école");
        assert_eq!(fold("ΟΔΟΣ"), "οδοσ");
        assert_eq!(fold("İ"), "i\u{307}");
        assert_eq!(fold("नमस्ते"), "नमस्ते");
    }

    #[test]
    fn positions_round_trip_through_varints() {
        for ps in [
            vec![],
            vec![0],
            vec![0, 1, 2],
            vec![5, 200, 70_000, u32::MAX],
        ] {
            let blob = encode_positions(&ps);
            assert_eq!(decode_positions(&blob).as_deref(), Some(ps.as_slice()));
            assert_eq!(count_positions(&blob), ps.len());
        }
        assert_eq!(encode_positions(&[0, 1, 130]), [0, 1, 0x81, 0x01]);
        assert_eq!(decode_positions(&[0x80]), None);
        assert_eq!(
            decode_positions(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
            None
        );
    }
}
