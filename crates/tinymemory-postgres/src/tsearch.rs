//! Building the `tsvector` of a content and the `tsquery` of a query.
//!
//! Both are built here, in Rust, from the words of [`tinymemory_text`], and
//! handed to PostgreSQL as bound `text` parameters cast with `::tsvector`
//! and `::tsquery`. PostgreSQL's own parser (`to_tsvector`,
//! `plainto_tsquery`) is not used: what it calls a word, and how it folds
//! case, depend on the server's `lc_ctype` (with the `C` locale it folds
//! only ASCII, and with others it splits Indic words at their vowel signs),
//! while the driver must find the same words on every server. The casts do
//! no parsing of words and no dictionary lookup: a lexeme is stored and
//! compared byte for byte.
//!
//! Each word is lowercased ([`str::to_lowercase`]) and written as a quoted
//! lexeme, `'…'`, inside which `'` is doubled and `\` escaped, so that the
//! text of a word can never be read as `tsquery` syntax (`&`, `|`, `!`,
//! `<->`, `:*`, parentheses). Words hold only letters, numbers and marks
//! anyway ([`tinymemory_api::text::is_word_char`]); the quoting is the guarantee, not
//! the filter. Query words are joined with `|` (OR), as the SQLite driver
//! joins them, so an entry matching any word is found and one matching more
//! ranks higher. Source: PostgreSQL documentation, section 8.11 "Text
//! Search Types" (<https://www.postgresql.org/docs/current/datatype-textsearch.html>).
//!
//! PostgreSQL's limits, and what the driver does at each (section 12.11
//! "Limitations" of the same documentation):
//!
//! - a lexeme is at most [`MAX_LEXEME_BYTES`] bytes: longer words are cut
//!   to that many bytes (at a character boundary) on both sides, so a word
//!   that long is still found by itself, and by any word it shares those
//!   first bytes with;
//! - a lexeme keeps at most [`MAX_POSITIONS`] positions, each at most
//!   [`MAX_POSITION`]: later occurrences are not recorded (they would be
//!   dropped or clamped anyway); they only affect ranking;
//! - a `tsvector` holds at most 1 MiB of lexemes and positions: a content
//!   whose distinct words need more than [`VECTOR_BUDGET`] bytes is indexed
//!   up to that budget, and its later *new* words are not found by recall
//!   (it is still stored and returned whole). Natural text reaches that
//!   only past several MiB.

use std::collections::BTreeMap;

use tinymemory_text::{index_text, query_terms, Term};

/// Longest lexeme PostgreSQL accepts, in bytes.
pub(crate) const MAX_LEXEME_BYTES: usize = 2046;

/// Positions PostgreSQL keeps per lexeme.
pub(crate) const MAX_POSITIONS: usize = 256;

/// Highest position PostgreSQL records; later words are clamped to it.
pub(crate) const MAX_POSITION: u16 = 16_383;

/// Bytes of lexemes and positions one `tsvector` is built up to; below
/// PostgreSQL's limit of 1,048,575 with room for its alignment padding.
pub(crate) const VECTOR_BUDGET: usize = 1_000_000;

/// Most distinct terms one recall searches for, as in the SQLite driver;
/// further terms of a longer query are ignored. It bounds the work of a
/// pathological query (a 10,000-character paste) without affecting any
/// query a person types.
pub const MAX_QUERY_TERMS: usize = 256;

/// The lexeme for a word: lowercased, cut to [`MAX_LEXEME_BYTES`].
fn lexeme(word: &str) -> String {
    let mut lower = word.to_lowercase();
    if lower.len() > MAX_LEXEME_BYTES {
        let mut end = MAX_LEXEME_BYTES;
        while !lower.is_char_boundary(end) {
            end -= 1;
        }
        lower.truncate(end);
    }
    lower
}

/// `lexeme` quoted for `tsvector` / `tsquery` input.
fn quoted(lexeme: &str) -> String {
    let mut out = String::with_capacity(lexeme.len() + 2);
    out.push('\'');
    for c in lexeme.chars() {
        match c {
            '\'' => out.push_str("''"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The `tsvector` input text for `content`: every word's lexeme with its
/// positions, within the limits of the module docs. Empty (a valid, empty
/// `tsvector`) when the content has no word.
pub(crate) fn tsvector_text(content: &str) -> String {
    let indexed = index_text(content);
    let mut lexemes: BTreeMap<String, Vec<u16>> = BTreeMap::new();
    let mut used = 0usize;
    for (i, word) in indexed.split(' ').filter(|w| !w.is_empty()).enumerate() {
        let position = u16::try_from(i + 1).map_or(MAX_POSITION, |p| p.min(MAX_POSITION));
        let lex = lexeme(word);
        if let Some(positions) = lexemes.get_mut(&lex) {
            if positions.len() < MAX_POSITIONS && positions.last() != Some(&position) {
                if used + 2 > VECTOR_BUDGET {
                    continue;
                }
                used += 2;
                positions.push(position);
            }
            continue;
        }
        // The lexeme, alignment, the position count and one position.
        let cost = lex.len() + 1 + 2 + 2;
        if used + cost > VECTOR_BUDGET {
            // Full: later new words go unindexed (see the module docs).
            continue;
        }
        used += cost;
        lexemes.insert(lex, vec![position]);
    }
    let mut out = String::with_capacity(used + lexemes.len() * 4);
    for (lex, positions) in &lexemes {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&quoted(lex));
        out.push(':');
        let list: Vec<String> = positions.iter().map(u16::to_string).collect();
        out.push_str(&list.join(","));
    }
    out
}

/// The `tsquery` input text for a plain-text query: its distinct terms'
/// lexemes joined with `|`, single unspaced characters as prefixes
/// (`'我':*`), an unspaced run of three or more characters also as the
/// phrase of its bigrams (`('机器' <-> '器人')`, so an entry holding the
/// whole run matches it as such), at most [`MAX_QUERY_TERMS`] terms. `None` when the query
/// holds no word (empty, blank, only punctuation or operators), in which
/// case recall returns no hits without asking the server.
pub(crate) fn tsquery_text(query: &str) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for term in query_terms(query, MAX_QUERY_TERMS) {
        let part = match term {
            Term::Exact(w) => quoted(&lexeme(&w)),
            Term::Prefix(p) => format!("{}:*", quoted(&lexeme(&p))),
            // Bigrams that must be adjacent: `<->` is "followed by".
            Term::Phrase(bigrams) => {
                let chain: Vec<String> = bigrams.split(' ').map(|b| quoted(&lexeme(b))).collect();
                format!("({})", chain.join(" <-> "))
            }
        };
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_hold_lowercased_words_with_positions() {
        assert_eq!(
            tsvector_text("Read AND write, read-only: don't!"),
            "'and':2 'don':6 'only':5 'read':1,4 't':7 'write':3"
        );
        assert_eq!(tsvector_text("机器人"), "'人':3 '器人':2 '机器':1");
        assert_eq!(tsvector_text(""), "");
        assert_eq!(tsvector_text("\0 \"*\" -- %_;"), "");
        assert_eq!(tsvector_text("ÉCOLE école"), "'école':1,2");
    }

    #[test]
    fn queries_are_quoted_words_joined_by_or() {
        assert_eq!(
            tsquery_text("read AND write").as_deref(),
            Some("'read' | 'and' | 'write'")
        );
        assert_eq!(
            tsquery_text("NEAR(a b) NOT c & !d <-> e:*").as_deref(),
            Some("'near' | 'a' | 'b' | 'not' | 'c' | 'd' | 'e'")
        );
        assert_eq!(tsquery_text("Rust rust RUST").as_deref(), Some("'rust'"));
        assert_eq!(
            tsquery_text("机器人 我").as_deref(),
            Some("('机器' <-> '器人') | '机器' | '器人' | '我':*")
        );
        for q in ["", "   ", "\"", "* ^ : ( ) - + & | !", "\0\u{1}", "「」。"] {
            assert_eq!(tsquery_text(q), None, "{q:?}");
        }
    }

    #[test]
    fn quoting_doubles_quotes_and_escapes_backslashes() {
        assert_eq!(quoted("it's"), "'it''s'");
        assert_eq!(quoted("a\\b"), "'a\\\\b'");
        assert_eq!(quoted("plain"), "'plain'");
    }

    #[test]
    fn long_words_are_cut_at_a_char_boundary() {
        let word = "é".repeat(MAX_LEXEME_BYTES); // 2 bytes each
        let lex = lexeme(&word);
        assert_eq!(lex.len(), MAX_LEXEME_BYTES);
        let odd = format!("a{}", "é".repeat(MAX_LEXEME_BYTES));
        assert_eq!(lexeme(&odd).len(), MAX_LEXEME_BYTES - 1);
        assert_eq!(
            tsquery_text(&word),
            Some(quoted(&lex)),
            "query side cuts the same way"
        );
    }

    #[test]
    fn positions_stop_at_the_limits() {
        let many = "w ".repeat(MAX_POSITIONS + 10);
        let v = tsvector_text(&many);
        assert_eq!(v.matches(',').count(), MAX_POSITIONS - 1);
        let far = format!("{}tail", "x ".repeat(usize::from(MAX_POSITION) + 5));
        assert!(tsvector_text(&far).contains(&format!("'tail':{MAX_POSITION}")));
    }

    #[test]
    fn distinct_words_past_the_budget_are_not_indexed() {
        let words: Vec<String> = (0..200_000).map(|i| format!("w{i:07}")).collect();
        let v = tsvector_text(&words.join(" "));
        assert!(v.len() < VECTOR_BUDGET + VECTOR_BUDGET / 2, "{}", v.len());
        assert!(v.contains("'w0000000':1"));
        assert!(!v.contains("'w0199999'"));
    }

    #[test]
    fn long_queries_are_capped() {
        let q: String = (0..5000).map(|i| format!("w{i} ")).collect();
        let t = tsquery_text(&q).unwrap();
        assert_eq!(t.matches(" | ").count(), MAX_QUERY_TERMS - 1);
    }
}
