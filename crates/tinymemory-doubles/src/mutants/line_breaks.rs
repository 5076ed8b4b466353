//! Mutant `trims-trailing-line-breaks`, for `store.hostile_text_round_trip`.

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, NewEntry};

/// Breaks "contents are kept byte for byte" (check
/// `store.hostile_text_round_trip`): every write path (`store`,
/// `store_many`, `import`) drops the line breaks (`\n`, `\r`) that end a
/// content, as a store that reads text line by line, or passes it through
/// a template or a `rstrip("\n")`, does. A content whose last character is
/// not a line break, a content of spaces only among them, is kept whole, so
/// only a content ending in a line break shows the fault.
///
/// Keys, metadata and every read are forwarded unchanged.
#[derive(Debug, Clone, Default)]
pub struct TrimsTrailingLineBreaks<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(TrimsTrailingLineBreaks);

/// `content` without the line breaks that end it.
fn trimmed(content: &str) -> &str {
    content.trim_end_matches(['\n', '\r'])
}

tinymemory_api::delegate_provider! {
    /// Forwards every method; the three writes trim the content's final line breaks.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for TrimsTrailingLineBreaks<P> {
        forward(inner): driver_id, get, forget, list, namespaces, recall, export_page, interface;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.inner
                .store(namespace, key, trimmed(content), category, session_id, taint)
                .await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            let entries: Vec<NewEntry> = entries
                .iter()
                .map(|e| NewEntry {
                    content: trimmed(&e.content).to_owned(),
                    ..e.clone()
                })
                .collect();
            self.inner.store_many(&entries).await
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let records: Vec<MemoryRecord> = records
                .iter()
                .map(|r| MemoryRecord {
                    content: trimmed(&r.content).to_owned(),
                    ..r.clone()
                })
                .collect();
            self.inner.import(&records).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[entry! {
    name: "trims-trailing-line-breaks",
    rule: "contract 1: contents are kept byte for byte, a final line break included",
    check: "store.hostile_text_round_trip",
    also_caught_by: &["store.bulk", "portability.import_hostile"],
    description: "store, store_many and import drop the line breaks that end a content",
    wrap: TrimsTrailingLineBreaks::new(),
    profile: Lexical,
    witness: |d| {
        super::witness::put(d, "global", "k", "last line\n").await?;
        Ok(format!("{:?}", d.get("global", "k").await?.map(|e| e.content)))
    },
    reference: r#"Some("last line\n")"#,
    mutant: r#"Some("last line")"#,
}];
