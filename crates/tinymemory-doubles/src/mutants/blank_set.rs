//! Mutant `js-blank-set`, for `recall.plain_text_query`.

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};

/// JavaScript's `String.prototype.trim` set (ECMA-262 WhiteSpace and
/// LineTerminator): Unicode `Zs`, tab, line tabulation, form feed, LF, CR,
/// U+2028, U+2029 and U+FEFF, without U+0085 (NEL).
fn js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// Breaks "an empty or whitespace-only query gives no hit" (check
/// `recall.plain_text_query`) where JavaScript's `trim()` and the
/// contract's whitespace (Unicode `White_Space`, Rust's `str::trim`)
/// disagree: a query of U+0085 (NEL) is not blank to `trim()`, so a
/// ranking engine embeds it and ranks every entry, and a query of
/// U+FEFF alone is taken as blank. Every other query, and every other
/// method, is the wrapped driver's.
#[derive(Debug, Clone, Default)]
pub struct JsBlankSet<P: ?Sized> {
    inner: P,
}

impl<P> JsBlankSet<P> {
    /// Wraps `inner`, a ranking engine.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self { inner }
    }
}

impl<P: ?Sized> JsBlankSet<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `recall` decides blankness as `trim()` does.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for JsBlankSet<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, store_many,
            export_page, import, interface;

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            if query.chars().all(js_whitespace) {
                return Ok(Vec::new());
            }
            if query.trim().is_empty() {
                // Blank to the contract, text to `trim()`: ranked as the
                // wrapped engine ranks a query without a word.
                return self.inner.recall("\u{FEFF}", limit, opts).await;
            }
            self.inner.recall(query, limit, opts).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "js-blank-set",
        rule: "contract 6: an empty or whitespace-only query (Unicode White_Space) gives Ok(empty)",
        check: "recall.plain_text_query",
        also_caught_by: &[],
        description: "blankness is decided by JavaScript's trim(): a query of U+0085 ranks every entry, and one of U+FEFF alone gives nothing",
        wrap: JsBlankSet::new(),
        profile: Semantic,
        witness: |d| {
            use super::witness::{put, ranked};
            use tinymemory_api::RecallOptions;
            let any = RecallOptions::default;
            put(d, "global", "k", "comet").await?;
            Ok(ranked(&d.recall("\u{85}", 10, &any()).await?))
        },
        reference: "[]",
        mutant: r#"[("k", "0.000")]"#,
    },
];
