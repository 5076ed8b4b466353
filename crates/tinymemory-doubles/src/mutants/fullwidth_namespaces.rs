//! Mutant `folds-fullwidth-namespaces`, for `namespace.invalid_refused`.

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NewEntry,
    RecallOptions,
};

/// Breaks contract sentence 9 (`namespace.invalid_refused`) for one kind of
/// invalid name only: every fullwidth form of an ASCII character (U+FF01 to
/// U+FF5E, `ｎｏｔｅｓ`, `learning：x`) is replaced by that character before
/// the namespace is forwarded, as Unicode compatibility normalisation
/// (NFKC) does. `ｎｏｔｅｓ` is then the namespace `notes` instead of a
/// refusal: a look-alike of a valid name reaches its entries.
///
/// A namespace without fullwidth characters (every other invalid one
/// included) is forwarded as given, so the wrapped driver refuses it as
/// before and no other rule changes.
#[derive(Debug, Clone, Default)]
pub struct FoldsFullwidthNamespaces<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(FoldsFullwidthNamespaces);

/// `namespace` with each fullwidth form replaced by its ASCII character.
#[must_use]
pub fn fold_fullwidth(namespace: &str) -> String {
    namespace
        .chars()
        .map(|c| match u32::from(c) {
            // The block is ASCII 0x21..=0x7E shifted by 0xFEE0.
            n @ 0xFF01..=0xFF5E => char::from_u32(n - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect()
}

rewrites_namespaces!(FoldsFullwidthNamespaces, fold_fullwidth);

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "folds-fullwidth-namespaces",
        rule: "contract 9: an invalid namespace is MemoryError::Invalid on every method, a look-alike of a valid one too",
        check: "namespace.invalid_refused",
        also_caught_by: &[],
        description: "fullwidth forms in a namespace become their ASCII characters (as NFKC does) instead of refused",
        wrap: FoldsFullwidthNamespaces::new(),
        profile: Lexical,
        witness: |d| {
            use tinymemory_api::{MemoryCategory, MemoryTaint};
            let got = d
                .store(
                    "ｎｏｔｅｓ",
                    "k",
                    "x",
                    MemoryCategory::Core,
                    None,
                    MemoryTaint::Internal,
                )
                .await;
            Ok(format!("{:?}", got.map_err(|e| e.rule())))
        },
        reference: r#"Err(Some("namespace.charset"))"#,
        mutant: "Ok(())",
    },
];
