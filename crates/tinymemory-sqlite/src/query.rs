//! Turning a user's plain-text query into a safe FTS5 `MATCH` expression.
//!
//! The user's text never becomes FTS5 syntax. It is cut into terms by
//! [`tinymemory_text::query_terms`] (which keeps only word
//! characters, so `"`, `*`, `^`, `:`, `(`, `-`, `+`, NUL and every other
//! separator are gone before any SQL is built), and each term is written as
//! an FTS5 *string* — `"…"` with any inner `"` doubled — which FTS5 reads as
//! literal text to tokenise, never as an operator. `AND`, `OR`, `NOT` and
//! `NEAR` typed by the user are therefore ordinary words: the query
//! `read AND write` becomes `"read" OR "AND" OR "write"`.
//!
//! Terms are combined with `OR`, and hits are ranked by `bm25`: an entry
//! matching more (and rarer) query words ranks higher, which is the intent
//! of the reference driver's "fraction of query words present" score, while
//! an entry matching any one word is still found. A run of a script written
//! without spaces is searched as its character bigrams (`机器人` gives
//! `"机器" OR "器人"`), plus, from three characters on, the whole run as one
//! FTS5 phrase of those bigrams (`"机器 器人"`, which matches only where they
//! are adjacent), so that entries holding the whole run rank above entries
//! sharing only part of it; a one-character run is a prefix query (`"我" *`).
//! The expression is passed to SQLite as a bound parameter, never formatted
//! into SQL.
//!
//! Source: SQLite FTS5 documentation, section 3 "Full-text Query Syntax"
//! (<https://www.sqlite.org/fts5.html#full_text_query_syntax>): "within a
//! string, any embedded double quote characters may be escaped SQL-style —
//! by adding a second double-quote character".

use tinymemory_text::{query_terms, Term};

/// Most distinct terms one recall searches for; further terms of a longer
/// query are ignored. It bounds the work of a pathological query (a
/// 10,000-character paste) without affecting any query a person types.
pub const MAX_QUERY_TERMS: usize = 256;

/// The FTS5 `MATCH` expression for a plain-text query, or `None` when the
/// query holds no word at all (empty, whitespace, only punctuation), in
/// which case recall returns no hits without asking SQLite.
pub(crate) fn match_expression(query: &str) -> Option<String> {
    let terms = query_terms(query, MAX_QUERY_TERMS);
    if terms.is_empty() {
        return None;
    }
    let parts: Vec<String> = terms
        .iter()
        .map(|t| match t {
            Term::Exact(w) | Term::Phrase(w) => fts5_string(w),
            Term::Prefix(p) => format!("{} *", fts5_string(p)),
        })
        .collect();
    Some(parts.join(" OR "))
}

/// `s` as an FTS5 string literal: wrapped in `"`, inner `"` doubled.
fn fts5_string(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_become_quoted_strings_joined_by_or() {
        assert_eq!(
            match_expression("read AND write").as_deref(),
            Some(r#""read" OR "AND" OR "write""#)
        );
        assert_eq!(
            match_expression("NEAR(a b) NOT c").as_deref(),
            Some(r#""NEAR" OR "a" OR "b" OR "NOT" OR "c""#)
        );
        assert_eq!(
            match_expression("don't multi-agent").as_deref(),
            Some(r#""don" OR "t" OR "multi" OR "agent""#)
        );
        assert_eq!(
            match_expression("机器人 我").as_deref(),
            Some(r#""机器 器人" OR "机器" OR "器人" OR "我" *"#)
        );
    }

    #[test]
    fn operator_only_queries_have_no_expression() {
        for q in [
            "",
            "   ",
            "\t\n",
            "\"",
            "* ^ : ( ) - +",
            "\0\u{1}\u{7f}",
            "「」。、",
        ] {
            assert_eq!(match_expression(q), None, "{q:?}");
        }
    }

    #[test]
    fn quotes_are_doubled() {
        assert_eq!(fts5_string(r#"a"b"#), r#""a""b""#);
    }

    #[test]
    fn long_queries_are_capped() {
        let q: String = (0..5000).map(|i| format!("w{i} ")).collect();
        let e = match_expression(&q).unwrap();
        assert_eq!(e.matches(" OR ").count(), MAX_QUERY_TERMS - 1);
    }
}
