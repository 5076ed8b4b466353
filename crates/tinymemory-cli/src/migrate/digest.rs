//! The digest `migrate` prints and compares: SHA-256 (FIPS 180-4) over a
//! canonical serialisation of every record, in export order.

use sha2::{Digest as _, Sha256};
use tinymemory_api::portability::MemoryRecord;

/// A running digest of records.
///
/// Each record contributes its seven fields in this order: namespace, key,
/// content, category (text form, `custom:<text>` for a custom one),
/// session (a byte 0 for none, else a byte 1 and the session), taint
/// (`internal` or `external_sync`) and timestamp. Every string is written
/// as its length in bytes (u64, little-endian) and then its bytes, so no
/// two different sequences of records serialise alike. The driver's `id`
/// is not part of a record, so stores of different drivers compare.
#[derive(Clone, Default)]
pub(crate) struct Digest {
    hasher: Sha256,
}

impl Digest {
    /// Adds `record` after those added before.
    pub(crate) fn add(&mut self, record: &MemoryRecord) {
        self.field(&record.namespace);
        self.field(&record.key);
        self.field(&record.content);
        self.field(&record.category.as_text());
        match &record.session_id {
            None => self.hasher.update([0u8]),
            Some(s) => {
                self.hasher.update([1u8]);
                self.field(s);
            }
        }
        self.field(record.taint.as_str());
        self.field(&record.timestamp);
    }

    fn field(&mut self, text: &str) {
        self.hasher.update((text.len() as u64).to_le_bytes());
        self.hasher.update(text.as_bytes());
    }

    /// `sha256:` and 64 lowercase hex digits.
    pub(crate) fn finish(self) -> String {
        let mut out = String::from("sha256:");
        for byte in self.hasher.finalize() {
            out.push_str(&format!("{byte:02x}"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use tinymemory_api::{MemoryCategory, MemoryTaint};

    use super::*;

    fn record(session: Option<&str>) -> MemoryRecord {
        MemoryRecord {
            namespace: "global".into(),
            key: "k".into(),
            content: "v".into(),
            category: MemoryCategory::Core,
            session_id: session.map(str::to_owned),
            taint: MemoryTaint::Internal,
            timestamp: "2024-01-01T00:00:00Z".into(),
        }
    }

    fn digest(records: &[MemoryRecord]) -> String {
        let mut d = Digest::default();
        records.iter().for_each(|r| d.add(r));
        d.finish()
    }

    #[test]
    fn the_empty_digest_is_sha256_of_nothing() {
        assert_eq!(
            digest(&[]),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn every_field_and_the_field_boundaries_count() {
        let base = record(None);
        let mut seen = vec![digest(std::slice::from_ref(&base))];
        let mut variants = vec![
            record(Some("")),
            MemoryRecord {
                key: "kv".into(),
                content: String::new(),
                ..base.clone()
            },
            MemoryRecord {
                taint: MemoryTaint::ExternalSync,
                ..base.clone()
            },
            MemoryRecord {
                category: MemoryCategory::Custom("core".into()),
                ..base.clone()
            },
            MemoryRecord {
                timestamp: "2024-01-01T00:00:00.000Z".into(),
                ..base.clone()
            },
        ];
        for v in variants.drain(..) {
            seen.push(digest(&[v]));
        }
        seen.push(digest(&[base.clone(), base]));
        let distinct: std::collections::BTreeSet<_> = seen.iter().collect();
        assert_eq!(distinct.len(), seen.len(), "{seen:?}");
    }
}
