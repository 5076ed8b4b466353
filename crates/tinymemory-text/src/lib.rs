//! How text is cut into searchable pieces, for the full-text drivers: the
//! one definition shared by indexing ([`index_text`], what the engine
//! indexes) and querying ([`query_terms`], what a recall asks the engine
//! for), so the two can never disagree, and so the SQLite and PostgreSQL
//! drivers find the same entries for the same words.
//!
//! Both sides first normalise to Unicode NFC, so canonically equivalent
//! spellings (`é` as one code point or as `e` + U+0301) meet.
//!
//! A *word character* is the contract's
//! ([`tinymemory_api::text::is_word_char`]: letters, numbers, combining
//! marks, private-use characters); every other character (space,
//! punctuation, symbols, controls, NUL) separates. Runs of word characters
//! are then split by script:
//!
//! - **spaced** runs (Latin, Cyrillic, Greek, Hebrew, Arabic, Devanagari,
//!   Bengali, Tamil, Telugu, Oriya, Hangul, …) are words as they stand (the
//!   engines fold their case);
//! - **unspaced** runs, of scripts written without spaces between words
//!   (Han, Hiragana, Katakana, Bopomofo, Thai, Lao, Khmer, Myanmar; see
//!   [`is_unspaced`]), are indexed as their overlapping character bigrams
//!   plus the run's last character, so that any substring of the run can be
//!   found: two characters or more through its bigrams, one character as a
//!   prefix of a bigram (or the final unigram).
//!
//! The measurements behind this choice are in `docs/sqlite.md`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use tinymemory_api::text::is_word_char;
use unicode_normalization::UnicodeNormalization;

/// `true` for a character of a script written without spaces between words:
/// Thai, Lao, Myanmar, Khmer, Han (all CJK ideograph blocks), Hiragana,
/// Katakana (full and half width) and Bopomofo, plus the CJK letters that
/// live in the symbols block (`々 〆 〇`, kana iteration marks). Only word
/// characters count; the punctuation of these blocks still separates.
pub fn is_unspaced(c: char) -> bool {
    matches!(
        u32::from(c),
        0x0E00..=0x0EFF          // Thai, Lao
        | 0x1000..=0x109F        // Myanmar
        | 0x1780..=0x17FF        // Khmer
        | 0x19E0..=0x19FF        // Khmer symbols
        | 0x3005..=0x3007        // 々 〆 〇
        | 0x3021..=0x3029        // Hangzhou numerals
        | 0x3031..=0x3035        // kana repeat marks
        | 0x3038..=0x303C        // 〸 〹 〺 〻 〼
        | 0x3040..=0x30FF        // Hiragana, Katakana
        | 0x3100..=0x312F        // Bopomofo
        | 0x31A0..=0x31BF        // Bopomofo extended
        | 0x31F0..=0x31FF        // Katakana phonetic extensions
        | 0x3400..=0x4DBF        // CJK extension A
        | 0x4E00..=0x9FFF        // CJK unified ideographs
        | 0xA9E0..=0xA9FF        // Myanmar extended-B
        | 0xAA60..=0xAA7F        // Myanmar extended-A
        | 0xF900..=0xFAFF        // CJK compatibility ideographs
        | 0xFF66..=0xFF9F        // halfwidth Katakana
        | 0x1_B000..=0x1_B16F    // kana supplement and extended-A
        | 0x2_0000..=0x3_FFFF // CJK extensions B.. and compatibility supplement
    ) && is_word_char(c)
}

/// One maximal run of word characters of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A run of a script that separates words with spaces.
    Spaced(&'a str),
    /// A run of a script written without spaces (see [`is_unspaced`]).
    Unspaced(&'a str),
}

/// The pieces of `text` in order: maximal runs of word characters, split
/// where the script changes between spaced and unspaced. Separators are
/// dropped. `text` is taken as is (callers normalise first).
pub fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    // (start byte, unspaced?) of the run being read.
    let mut run: Option<(usize, bool)> = None;
    for (i, c) in text.char_indices() {
        let kind = is_word_char(c).then(|| is_unspaced(c));
        match (run, kind) {
            (Some((_, open)), Some(k)) if open == k => {}
            (open, kind) => {
                if let Some((start, unspaced)) = open {
                    out.push(piece(&text[start..i], unspaced));
                }
                run = kind.map(|k| (i, k));
            }
        }
    }
    if let Some((start, unspaced)) = run {
        out.push(piece(&text[start..], unspaced));
    }
    out
}

fn piece(s: &str, unspaced: bool) -> Piece<'_> {
    if unspaced {
        Piece::Unspaced(s)
    } else {
        Piece::Spaced(s)
    }
}

/// The overlapping two-character windows of an unspaced run, in order,
/// followed by the run's last character: `機器人` gives `機器 器人 人`, and
/// a one-character run gives just that character.
fn grams(run: &str) -> Vec<&str> {
    let starts: Vec<usize> = run.char_indices().map(|(i, _)| i).collect();
    let mut out = Vec::with_capacity(starts.len());
    for w in starts.windows(3) {
        out.push(&run[w[0]..w[2]]);
    }
    match starts.as_slice() {
        [] => {}
        [only] => out.push(&run[*only..]),
        [.., before_last, last] => {
            out.push(&run[*before_last..]);
            out.push(&run[*last..]);
        }
    }
    out
}

/// The text FTS5 indexes for `content`: its NFC form cut into
/// [`pieces`], spaced pieces as they are and unspaced ones as their bigrams
/// and last character, joined by single spaces. It holds only word
/// characters and spaces (no NUL, no punctuation).
pub fn index_text(content: &str) -> String {
    let nfc: String = content.nfc().collect();
    let mut out = String::with_capacity(nfc.len() + nfc.len() / 2);
    for p in pieces(&nfc) {
        let tokens = match p {
            Piece::Spaced(w) => vec![w],
            Piece::Unspaced(r) => grams(r),
        };
        for t in tokens {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(t);
        }
    }
    out
}

/// One thing a query asks FTS5 for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// A token that must occur as it is (after FTS5 case folding).
    Exact(String),
    /// A single unspaced character: any indexed bigram starting with it, or
    /// the final unigram of a run.
    Prefix(String),
    /// Space-separated bigrams that must occur consecutively: an unspaced
    /// run of three or more characters occurring as a whole.
    Phrase(String),
}

/// The distinct terms of a query, in the order they first occur, at most
/// `max` of them: spaced pieces as [`Term::Exact`]; unspaced pieces of two
/// or more characters as their bigrams ([`Term::Exact`]), preceded, from
/// three characters on, by the whole piece as a [`Term::Phrase`] of its
/// bigrams (so entries holding the whole piece rank above entries sharing
/// only some bigrams); one-character pieces as [`Term::Prefix`]. Empty when
/// the query holds no word character.
pub fn query_terms(query: &str, max: usize) -> Vec<Term> {
    let nfc: String = query.nfc().collect();
    let mut out: Vec<Term> = Vec::new();
    let mut push = |t: Term| {
        if out.len() < max && !out.contains(&t) {
            out.push(t);
        }
    };
    for p in pieces(&nfc) {
        match p {
            Piece::Spaced(w) => push(Term::Exact(w.to_owned())),
            Piece::Unspaced(r) if r.chars().nth(1).is_none() => push(Term::Prefix(r.to_owned())),
            Piece::Unspaced(r) => {
                let g = grams(r);
                // Drop the trailing unigram: every bigram already pins it.
                let bigrams = &g[..g.len() - 1];
                if bigrams.len() > 1 {
                    push(Term::Phrase(bigrams.join(" ")));
                }
                for bigram in bigrams {
                    push(Term::Exact((*bigram).to_owned()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_split_on_separators_and_script() {
        assert_eq!(
            pieces("don't multi-agent, 我用Python编程。ok"),
            [
                Piece::Spaced("don"),
                Piece::Spaced("t"),
                Piece::Spaced("multi"),
                Piece::Spaced("agent"),
                Piece::Unspaced("我用"),
                Piece::Spaced("Python"),
                Piece::Unspaced("编程"),
                Piece::Spaced("ok"),
            ]
        );
        assert_eq!(pieces(""), []);
        assert_eq!(pieces("\"*^:() \0\u{1}"), []);
    }

    #[test]
    fn combining_marks_stay_inside_words() {
        // Devanagari virama and vowel signs are marks (Mn/Mc), not letters.
        assert_eq!(
            pieces("नमस्ते दुनिया"),
            [Piece::Spaced("नमस्ते"), Piece::Spaced("दुनिया")]
        );
        assert_eq!(pieces("กินข้าว"), [Piece::Unspaced("กินข้าว")]);
    }

    #[test]
    fn unspaced_runs_index_as_bigrams_and_last_char() {
        assert_eq!(index_text("机器人"), "机器 器人 人");
        assert_eq!(index_text("我"), "我");
        assert_eq!(
            index_text("Hello, 世界! read-write"),
            "Hello 世界 界 read write"
        );
        assert_eq!(index_text("a\0b \"c\" -- %_;"), "a b c");
        assert_eq!(index_text(""), "");
    }

    #[test]
    fn nfc_makes_equivalent_spellings_meet() {
        assert_eq!(index_text("cafe\u{301}"), "caf\u{e9}");
        assert_eq!(
            query_terms("cafe\u{301}", 10),
            [Term::Exact("caf\u{e9}".to_owned())]
        );
    }

    #[test]
    fn query_terms_are_distinct_and_capped() {
        assert_eq!(
            query_terms("机器人 我 rust rust", 10),
            [
                Term::Phrase("机器 器人".to_owned()),
                Term::Exact("机器".to_owned()),
                Term::Exact("器人".to_owned()),
                Term::Prefix("我".to_owned()),
                Term::Exact("rust".to_owned()),
            ]
        );
        assert_eq!(query_terms("a b c d", 2).len(), 2);
        assert_eq!(query_terms(" \t\"'()*", 10), []);
    }
}
