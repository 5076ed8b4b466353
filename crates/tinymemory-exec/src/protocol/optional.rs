//! The answers of the optional ops (`store_many`, `export_page`,
//! `import`); their names, as `hello` lists them, are in `ops`.
//!
//! Decoding is as strict as for the other answers: every field required,
//! unknown fields refused, taint exactly `internal` or `external_sync`.

use serde::{Deserialize, Serialize};
use tinymemory_api::portability::{ImportFailure, ImportOutcome, MemoryRecord};
use tinymemory_api::{MemoryCategory, MemoryTaint};

use super::wire::{required, strict_taint};
use super::WireError;

/// One record, as `export_page` answers it and `import` sends it: every
/// field of [`MemoryRecord`], `session_id` as `null` when absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireRecord {
    /// The namespace the entry lives in.
    pub namespace: String,
    /// The key.
    pub key: String,
    /// The content.
    pub content: String,
    /// The category's text form.
    pub category: MemoryCategory,
    /// The session, or `null`.
    #[serde(deserialize_with = "required")]
    pub session_id: Option<String>,
    /// `internal` or `external_sync`.
    #[serde(deserialize_with = "strict_taint")]
    pub taint: MemoryTaint,
    /// When it was last stored, as the driver wrote it.
    pub timestamp: String,
}

impl From<WireRecord> for MemoryRecord {
    fn from(w: WireRecord) -> Self {
        Self {
            namespace: w.namespace,
            key: w.key,
            content: w.content,
            category: w.category,
            session_id: w.session_id,
            taint: w.taint,
            timestamp: w.timestamp,
        }
    }
}

/// The answer to `export_page`: `{"records": [...], "next_cursor": "…" | null}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireExportPage {
    /// At most `limit` records after the cursor, in `(namespace, key)`
    /// order.
    pub records: Vec<WireRecord>,
    /// The cursor of the next page, opaque to the suite, or `null` when the
    /// export is complete.
    #[serde(deserialize_with = "required")]
    pub next_cursor: Option<String>,
}

/// The answer to `import`: `{"imported": n, "failures": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireImportOutcome {
    /// How many records were written.
    pub imported: u64,
    /// The records refused, in request order.
    pub failures: Vec<WireImportFailure>,
}

/// One refused record: `{"index", "namespace", "key", "error": {kind, rule, message}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireImportFailure {
    /// The record's 0-based position in the request.
    pub index: u64,
    /// The record's namespace, as sent.
    pub namespace: String,
    /// The record's key, as sent.
    pub key: String,
    /// Why, as an error answer carries it.
    pub error: WireError,
}

impl WireImportOutcome {
    /// The outcome of importing `records`, with every failure's index
    /// moved up by `offset` (the position of `records` in a larger batch).
    ///
    /// # Errors
    ///
    /// Why the answer does not fit the request: an index past the end or
    /// not after the one before, a failure naming another record than the
    /// one at its index, a malformed error, or `imported` plus the failures
    /// not adding up to the number of records.
    pub fn into_outcome(
        self,
        records: &[MemoryRecord],
        offset: usize,
    ) -> Result<ImportOutcome, String> {
        let mut failures = Vec::with_capacity(self.failures.len());
        for f in self.failures {
            let index = usize::try_from(f.index).unwrap_or(usize::MAX);
            let Some(record) = records.get(index) else {
                return Err(format!(
                    "failure index {} is past the last of the {} records",
                    f.index,
                    records.len()
                ));
            };
            if failures
                .last()
                .is_some_and(|last: &ImportFailure| last.index - offset >= index)
            {
                return Err(format!(
                    "failure index {} is not after the one before it (failures are in request order, once each)",
                    f.index
                ));
            }
            if f.namespace != record.namespace || f.key != record.key {
                return Err(format!(
                    "failure {} names ({:?}, {:?}) but record {} is ({:?}, {:?})",
                    f.index,
                    super::quote(&f.namespace),
                    super::quote(&f.key),
                    f.index,
                    super::quote(&record.namespace),
                    super::quote(&record.key)
                ));
            }
            let error = f
                .error
                .into_memory_error()
                .map_err(|why| format!("failure {}: {why}", f.index))?;
            failures.push(ImportFailure::new(index + offset, record, error));
        }
        let imported = usize::try_from(self.imported).unwrap_or(usize::MAX);
        if imported.checked_add(failures.len()) != Some(records.len()) {
            return Err(format!(
                "imported {} plus {} failures is not the {} records sent",
                self.imported,
                failures.len(),
                records.len()
            ));
        }
        Ok(ImportOutcome { imported, failures })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use tinymemory_api::{rules, MemoryError};

    use super::*;

    fn record(key: &str) -> MemoryRecord {
        MemoryRecord {
            namespace: "global".into(),
            key: key.into(),
            content: "c".into(),
            category: MemoryCategory::Core,
            session_id: None,
            taint: MemoryTaint::ExternalSync,
            timestamp: "2026-01-01T00:00:00Z".into(),
        }
    }

    #[test]
    fn records_decode_strictly() {
        let good = json!({"namespace": "global", "key": "k", "content": "c", "category": "custom:x",
                          "session_id": null, "taint": "external_sync", "timestamp": "t"});
        let r: MemoryRecord = serde_json::from_value::<WireRecord>(good.clone())
            .unwrap()
            .into();
        assert_eq!(r.category, MemoryCategory::Custom("x".into()));
        assert_eq!(r.taint, MemoryTaint::ExternalSync);
        let mut missing = good.clone();
        missing.as_object_mut().unwrap().remove("session_id");
        assert_eq!(
            serde_json::from_value::<WireRecord>(missing)
                .unwrap_err()
                .to_string(),
            "missing field `session_id`"
        );
        let mut extra = good.clone();
        extra["score"] = json!(null);
        assert!(serde_json::from_value::<WireRecord>(extra).is_err());
        let page = json!({"records": [good], "next_cursor": null});
        assert!(serde_json::from_value::<WireExportPage>(page).is_ok());
        assert_eq!(
            serde_json::from_value::<WireExportPage>(json!({"records": []}))
                .unwrap_err()
                .to_string(),
            "missing field `next_cursor`"
        );
    }

    fn outcome(v: Value) -> WireImportOutcome {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn outcomes_must_fit_the_request() {
        let records = [record("a"), record("b"), record("c")];
        let failure = |index: u64, key: &str| {
            json!({"index": index, "namespace": "global", "key": key,
                   "error": {"kind": "invalid", "rule": "import.timestamp", "message": "m"}})
        };
        let ok = outcome(json!({"imported": 2, "failures": [failure(1, "b")]}))
            .into_outcome(&records, 10)
            .unwrap();
        assert_eq!(ok.imported, 2);
        assert_eq!(ok.failures.len(), 1);
        assert_eq!(ok.failures[0].index, 11);
        assert_eq!(ok.failures[0].key, "b");
        assert_eq!(
            ok.failures[0].error,
            MemoryError::invalid(rules::IMPORT_TIMESTAMP, "m")
        );
        for (v, why) in [
            (
                json!({"imported": 3, "failures": [failure(1, "b")]}),
                "imported 3 plus 1 failures is not the 3 records sent",
            ),
            (
                json!({"imported": 2, "failures": [failure(3, "b")]}),
                "failure index 3 is past the last of the 3 records",
            ),
            (
                json!({"imported": 1, "failures": [failure(1, "b"), failure(1, "b")]}),
                "failure index 1 is not after the one before it (failures are in request order, once each)",
            ),
            (
                json!({"imported": 2, "failures": [failure(0, "b")]}),
                "failure 0 names (\"global\", \"b\") but record 0 is (\"global\", \"a\")",
            ),
            (
                json!({"imported": 2, "failures": [{"index": 0, "namespace": "global", "key": "a",
                        "error": {"kind": "invalid", "message": "no rule"}}]}),
                "failure 0: an error of kind invalid has no rule",
            ),
        ] {
            assert_eq!(
                outcome(v.clone()).into_outcome(&records, 0),
                Err(why.to_owned()),
                "{v}"
            );
        }
    }
}
