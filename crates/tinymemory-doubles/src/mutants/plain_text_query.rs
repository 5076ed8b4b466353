//! Mutant for `recall.plain_text_query`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, Namespace, RecallOptions};

/// FTS5 operators, which are case-sensitive.
const OPERATORS: &[&str] = &["AND", "OR", "NOT", "NEAR"];

/// `true` for a character FTS5 accepts in a bareword: ASCII letters and
/// digits, `_`, the substitute character U+001A, and every non-ASCII
/// character.
fn is_bareword_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\u{1a}' || !c.is_ascii()
}

/// The first piece of `query` FTS5 would read as syntax or refuse: a blank
/// query (as `""`), an ASCII character that is neither whitespace nor part
/// of a bareword (`"`, `*`, `'`, `(`, `.`, a control character, ...), or an
/// operator word.
fn syntax_token(query: &str) -> Option<String> {
    if query.trim().is_empty() {
        return Some(String::new());
    }
    if let Some(c) = query
        .chars()
        .find(|c| !c.is_whitespace() && !is_bareword_char(*c))
    {
        return Some(c.to_string());
    }
    query
        .split_whitespace()
        .find(|w| OPERATORS.contains(w))
        .map(str::to_owned)
}

/// Breaks contract sentence 6 (`recall.plain_text_query`): the query is
/// handed to the engine as syntax, like a driver that passes it to FTS5
/// `MATCH` unescaped. A query that is empty or whitespace-only, holds an
/// ASCII character that is neither whitespace, a letter, a digit nor `_`
/// (so the syntax characters `" * ( ) : - ^ + { }`, but also the `'` of
/// `don't`, `.`, `,` or a control character), or has a
/// whitespace-separated word `AND`, `OR`, `NOT` or `NEAR` fails with
/// [`MemoryError::Backend`] whose message is
/// `fts5: syntax error near "<token>"`. Any other query, non-ASCII text
/// included, is forwarded.
///
/// Namespace and `min_score` are validated first, so invalid input is still
/// [`MemoryError::Invalid`]. Checks of the other sentences that recall with
/// plain words are unaffected.
#[derive(Debug, Clone, Default)]
pub struct EngineSyntaxErrors<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(EngineSyntaxErrors);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` fails on query syntax as described on the type.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for EngineSyntaxErrors<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many, export_page,
            import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            Namespace::parse(opts.effective_namespace())?;
            opts.validate()?;
            if let Some(token) = syntax_token(query) {
                return Err(MemoryError::fault(format!(
                    "fts5: syntax error near \"{token}\""
                )));
            }
            self.inner.recall(query, limit, opts).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "query-as-fts5-syntax",
        rule: "contract 6: a query is plain text, never engine syntax; a blank query is Ok(empty)",
        check: "recall.plain_text_query",
        also_caught_by: &["recall.whole_words", "recall.hostile_queries", "properties.across_ordering", "properties.cap_determinism", "properties.pinning_cost", "properties.truncation", "properties.concurrent_equals_sequential", "model.differential"],
        description: "the query goes to FTS5 MATCH unescaped: don't, quotes, *, (, AND and blank queries fail with a syntax error",
        wrap: EngineSyntaxErrors::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::put;
            use super::witness::keys;
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "don't panic").await?;
            let got = d.recall("don't", 10, &any()).await;
            Ok(format!("{:?}", got.as_deref().map(keys)))
        },
        reference: r#"Ok(["k"])"#,
        mutant: r#"Err(Backend { message: "fts5: syntax error near \"'\"", source: None })"#,
    },
];
