//! The workspace corpus as a bulk-store batch.

use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::MemoryRecord;
use tinymemory_corpus::Corpus;

/// Every entry of the workspace corpus (`fixtures/corpora`, 22,688
/// entries) as the conformance suite loads it
/// (`tinymemory_conformance::corpus_store`): its section and scope's
/// namespace, key, content and category, internal, no session; in corpus
/// order.
///
/// # Panics
///
/// When the corpus cannot be loaded or is empty.
#[must_use]
pub fn corpus_new_entries() -> Vec<NewEntry> {
    let root = Corpus::default_root();
    let corpus = Corpus::load(&root)
        .unwrap_or_else(|e| panic!("failed to load the corpus at {}: {e}", root.display()));
    let entries: Vec<NewEntry> = corpus
        .entries
        .iter()
        .map(|e| {
            NewEntry::new(e.namespace_name(), e.key.clone(), e.content.clone())
                .with_category(e.category.clone())
        })
        .collect();
    assert!(
        !entries.is_empty(),
        "failed to find any entry in the corpus at {}",
        root.display()
    );
    entries
}

/// The [`NewEntry`] that stores `record` again (its timestamp aside).
#[must_use]
pub fn record_entry(record: &MemoryRecord) -> NewEntry {
    let mut e = NewEntry::new(
        record.namespace.clone(),
        record.key.clone(),
        record.content.clone(),
    )
    .with_category(record.category.clone())
    .with_taint(record.taint);
    e.session_id.clone_from(&record.session_id);
    e
}
