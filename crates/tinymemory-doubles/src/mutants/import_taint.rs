//! Mutant `import-drops-taint`, for `portability.taint_kept`.

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{MemoryError, MemoryProvider, MemoryTaint};

/// Breaks "an import keeps taint" (check `portability.taint_kept`): every
/// record is imported as [`MemoryTaint::Internal`], whatever taint it was
/// exported with, like an importer that builds entries with the default
/// taint. Data synced from outside ([`MemoryTaint::ExternalSync`]) comes
/// back as internal, trusted data after a migration.
///
/// Only `import` changes: `store` and `store_many` keep taint (that is
/// [`DropsTaint`](super::DropsTaint)'s rule), and every other part of a
/// record (content, category, session, timestamp) is imported as given.
#[derive(Debug, Clone, Default)]
pub struct ImportDropsTaint<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(ImportDropsTaint);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `import` writes every record as internal.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for ImportDropsTaint<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many,
            export_page, interface;

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let internal: Vec<MemoryRecord> = records
                .iter()
                .map(|r| MemoryRecord {
                    taint: MemoryTaint::Internal,
                    ..r.clone()
                })
                .collect();
            self.inner.import(&internal).await
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[
    entry! {
        name: "import-drops-taint",
        rule: "portability: an import keeps every field, taint included (ExternalSync stays ExternalSync)",
        check: "portability.taint_kept",
        also_caught_by: &["portability.round_trip", "portability.import_hostile", "properties.export_round_trip"],
        description: "import writes every record as MemoryTaint::Internal",
        wrap: ImportDropsTaint::new(),
        profile: Lexical,
        witness: |d| {
            use super::witness::record;
            use tinymemory_api::MemoryTaint;
            d.import(&[record("global", "k", MemoryTaint::ExternalSync)])
                .await?;
            Ok(format!("{:?}", d.get("global", "k").await?.map(|e| e.taint)))
        },
        reference: "Some(ExternalSync)",
        mutant: "Some(Internal)",
    },
];
