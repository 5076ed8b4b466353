//! Mutant `import-keeps-first-of-key`, for `portability.taint_kept`.

use std::collections::BTreeSet;

use tinymemory_api::portability::{ImportOutcome, MemoryRecord};
use tinymemory_api::{MemoryError, MemoryProvider};

/// Breaks "an import writes its records as upserts, in order" (check
/// `portability.taint_kept`): of the records of one `import` that share a
/// `(namespace, key)`, the first is written and the later ones are
/// dropped, yet counted as imported, as a multi-row `INSERT .. ON CONFLICT
/// DO NOTHING` or a dictionary filled with `setdefault` does. A key
/// imported again by a later `import` call is replaced as it should be, so
/// only a batch that repeats a key shows the fault.
///
/// Every other method is forwarded unchanged.
#[derive(Debug, Clone, Default)]
pub struct ImportKeepsFirst<P: ?Sized> {
    inner: P,
}

inner_only_accessors!(ImportKeepsFirst);

tinymemory_api::delegate_provider! {
    /// Forwards every method; `import` drops the later records of a repeated key.
    impl[P: MemoryProvider + ?Sized] MemoryProvider for ImportKeepsFirst<P> {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many,
            export_page, interface;

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let mut seen = BTreeSet::new();
            let mut kept = Vec::with_capacity(records.len());
            // Indices of the kept records in `records`, so that failures
            // keep naming the caller's indices.
            let mut at = Vec::with_capacity(records.len());
            for (i, r) in records.iter().enumerate() {
                if seen.insert((r.namespace.as_str(), r.key.as_str())) {
                    kept.push(r.clone());
                    at.push(i);
                }
            }
            let mut outcome = self.inner.import(&kept).await?;
            for f in &mut outcome.failures {
                f.index = at[f.index];
            }
            outcome.imported += records.len() - kept.len();
            Ok(outcome)
        }
    }
}

/// This file's mutants, gathered into [`mutants()`](super::mutants).
pub(super) const MUTANTS: &[super::Mutant] = &[entry! {
    name: "import-keeps-first-of-key",
    rule: "portability: an import writes its records as upserts, in order (a later record of a key wins)",
    check: "portability.taint_kept",
    also_caught_by: &[],
    description: "import keeps the first of the records of one batch that share a key",
    wrap: ImportKeepsFirst::new(),
    profile: Lexical,
    witness: |d| {
        use super::witness::record;
        use tinymemory_api::portability::MemoryRecord;
        use tinymemory_api::MemoryTaint;
        let first = record("global", "k", MemoryTaint::Internal);
        let later = MemoryRecord {
            content: "later".into(),
            ..first.clone()
        };
        d.import(&[first, later]).await?;
        Ok(format!("{:?}", d.get("global", "k").await?.map(|e| e.content)))
    },
    reference: r#"Some("later")"#,
    mutant: r#"Some("note")"#,
}];
