//! Mutant `utf16-key-order`, for `store.hostile_text_round_trip`.

use std::cmp::Ordering;

use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryError, MemoryProvider};

/// Breaks "entries are listed in `(namespace, key)` order, bytewise"
/// (check `store.hostile_text_round_trip`): `list` orders its entries by
/// UTF-16 code units, as JavaScript's default string comparison
/// (`a < b`, `Array.prototype.sort`) does. The two orders agree on ASCII
/// and on every pair of BMP characters below U+E000, and differ where a
/// BMP character at or above U+E000 (`｡` U+FF61) meets an astral one
/// (`😀` U+1F600): UTF-16 puts the astral one's surrogate (0xD83D) first,
/// UTF-8 (and so bytewise order) puts it last. Entries and every other
/// method are the wrapped driver's.
#[derive(Debug, Clone, Default)]
pub struct Utf16KeyOrder<P: ?Sized> {
    inner: P,
}

impl<P> Utf16KeyOrder<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self { inner }
    }
}

impl<P: ?Sized> Utf16KeyOrder<P> {
    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }
}

/// `a` against `b` by UTF-16 code units.
fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; `list` sorts by UTF-16 code units.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for Utf16KeyOrder<P> {
        forward(inner): driver_id, store, get, forget, namespaces, recall, store_many,
            export_page, import, interface;

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let mut entries = self.inner.list(namespace, category, session_id).await?;
            entries.sort_by(|a, b| {
                let ns = |e: &MemoryEntry| e.namespace.clone().unwrap_or_default();
                utf16_cmp(&ns(a), &ns(b)).then_with(|| utf16_cmp(&a.key, &b.key))
            });
            Ok(entries)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "utf16-key-order",
        rule: "contract: list orders entries by (namespace, key), bytewise (UTF-8), not by UTF-16 code units",
        check: "store.hostile_text_round_trip",
        also_caught_by: &["portability.round_trip"],
        description: "list sorts by UTF-16 code units, as JavaScript's default string comparison does, so a key starting at or above U+E000 comes after an astral one",
        wrap: Utf16KeyOrder::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::{keys, put};
            put(d, "global", "\u{FF61}", "halfwidth").await?;
            put(d, "global", "\u{1F600}", "astral").await?;
            Ok(format!("{:?}", keys(&d.list(None, None, None).await?)))
        },
        reference: r#"["｡", "😀"]"#,
        mutant: r#"["😀", "｡"]"#,
    },
];
