//! The reference scoring formula.

use std::collections::BTreeSet;

/// The words of `text` as the contract defines them
/// ([`tinymemory_api::text::words`]: runs of alphanumerics and combining
/// marks), lowercased, deduplicated and sorted. Everything else, operators
/// and punctuation included, separates words.
///
/// Scripts written without spaces form one word per run, so the reference
/// driver finds Chinese or Thai text only by a query that is a whole run.
#[must_use]
pub fn words(text: &str) -> BTreeSet<String> {
    tinymemory_api::text::words(text)
        .map(str::to_lowercase)
        .collect()
}

/// The reference score of `content` for `query`: the number of the query's
/// distinct [`words`] present in the content's words, divided by the number
/// of distinct query words. `None` when the query has no words or none
/// matches, so every returned score lies in `(0, 1]`: finite and
/// higher-is-better.
#[must_use]
pub fn score(query: &str, content: &str) -> Option<f64> {
    let q = words(query);
    if q.is_empty() {
        return None;
    }
    let c = words(content);
    let matched = q.iter().filter(|w| c.contains(*w)).count();
    #[expect(clippy::cast_precision_loss, reason = "word counts are far below 2^52")]
    (matched > 0).then(|| matched as f64 / q.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fraction_of_query_words_present() {
        assert_eq!(score("rust async", "Async Rust is fun"), Some(1.0));
        assert_eq!(score("rust python", "rust is fun"), Some(0.5));
        assert_eq!(score("go", "rust is fun"), None);
        assert_eq!(score("", "rust"), None);
        assert_eq!(score("AND OR ( \" *", "rust"), None);
        assert_eq!(score("read AND write", "read AND write lock"), Some(1.0));
        assert_eq!(score("don't", "I don't know"), Some(1.0));
    }

    #[test]
    fn words_split_on_punctuation() {
        let w: Vec<_> = words("multi-agent, Multi! NEAR(x)").into_iter().collect();
        assert_eq!(w, ["agent", "multi", "near", "x"]);
    }
}
