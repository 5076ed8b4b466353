//! Turning a user's plain-text query into the phrases a recall looks up.
//!
//! The user's text is never syntax. It is cut into terms by
//! [`tinymemory_text::query_terms`] (which keeps only word characters, so
//! `"`, `*`, `^`, `:`, `(`, `-`, `+`, NUL and every other separator are gone)
//! and each term is [folded](crate::index::fold) as the index is. `AND`,
//! `OR`, `NOT` and `NEAR` are therefore ordinary words.
//!
//! A query matches an entry holding **any** of its phrases, and BM25 ranks
//! entries holding more (and rarer) phrases higher, which is the intent of
//! the reference driver's "fraction of query words present" score. A run of
//! a script written without spaces is searched as its character bigrams
//! (`机器人`: `机器`, `器人`) plus, from three characters on, the whole run
//! as a phrase of those bigrams (adjacent only), so entries holding the
//! whole run rank above entries sharing only part of it; a one-character
//! run matches every term starting with that character (a bigram or a run's
//! last character). These are the phrases schema version 1 gave FTS5
//! (`"机器 器人" OR "机器" OR "器人" OR "我" *`).

use tinymemory_text::{query_terms, Term};

use crate::index::fold;

/// Most distinct terms one recall searches for; further terms of a longer
/// query are ignored. It bounds the work of a pathological query (a
/// 10,000-character paste) without affecting any query a person types.
pub const MAX_QUERY_TERMS: usize = 256;

/// One phrase of a query, folded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Phrase {
    /// Entries holding this term.
    Term(String),
    /// Entries holding a term that starts with this text.
    Prefix(String),
    /// Entries holding these terms at consecutive positions.
    Sequence(Vec<String>),
}

/// The distinct phrases of a plain-text query in query order, empty when
/// the query holds no word at all (empty, whitespace, only punctuation), in
/// which case recall returns no hits without reading the database.
pub(crate) fn phrases(query: &str) -> Vec<Phrase> {
    let mut out: Vec<Phrase> = Vec::new();
    for t in query_terms(query, MAX_QUERY_TERMS) {
        let p = match t {
            Term::Exact(w) => Phrase::Term(fold(&w)),
            Term::Prefix(p) => Phrase::Prefix(fold(&p)),
            Term::Phrase(ws) => Phrase::Sequence(ws.split(' ').map(fold).collect()),
        };
        // Case variants fold to one phrase: `Rust rust` asks once.
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(s: &str) -> Phrase {
        Phrase::Term(s.to_owned())
    }

    #[test]
    fn words_become_folded_phrases_in_query_order() {
        assert_eq!(
            phrases("read AND write"),
            [term("read"), term("and"), term("write")]
        );
        assert_eq!(
            phrases("don't multi-agent Don"),
            [term("don"), term("t"), term("multi"), term("agent")]
        );
        assert_eq!(
            phrases("机器人 我"),
            [
                Phrase::Sequence(vec!["机器".to_owned(), "器人".to_owned()]),
                term("机器"),
                term("器人"),
                Phrase::Prefix("我".to_owned()),
            ]
        );
    }

    #[test]
    fn operator_only_queries_have_no_phrase() {
        for q in [
            "",
            "   ",
            "\t\n",
            "\"",
            "* ^ : ( ) - +",
            "\0\u{1}\u{7f}",
            "「」。、",
        ] {
            assert_eq!(phrases(q), [], "{q:?}");
        }
    }

    #[test]
    fn long_queries_are_capped() {
        let q: String = (0..5000).map(|i| format!("w{i} ")).collect();
        assert_eq!(phrases(&q).len(), MAX_QUERY_TERMS);
    }
}
