//! [`MemoryRecord`]: an entry as exported and imported.

use serde::{Deserialize, Serialize};

use crate::{MemoryCategory, MemoryEntry, MemoryTaint};

/// Every field of a stored entry that belongs to the user: what an export
/// carries and an import writes back.
///
/// The driver-assigned `id` and the recall `score` are not part of it: an
/// id is opaque and local to one store, and a score belongs to one recall.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryRecord {
    /// The namespace the entry lives in.
    pub namespace: String,
    /// The key, unique within its namespace.
    pub key: String,
    /// The content, byte for byte.
    pub content: String,
    /// The category.
    pub category: MemoryCategory,
    /// The session, if any.
    pub session_id: Option<String>,
    /// The taint; an import keeps it ([`MemoryTaint::ExternalSync`] stays
    /// `ExternalSync`).
    pub taint: MemoryTaint,
    /// When the entry was last stored, RFC 3339, as the exporting driver
    /// wrote it; an import keeps it byte for byte.
    pub timestamp: String,
}

impl MemoryRecord {
    /// The record of `entry`, or `None` when the entry has no namespace
    /// (a faulty driver's output: contract sentence 3 fills it always).
    #[must_use]
    pub fn from_entry(entry: MemoryEntry) -> Option<Self> {
        Some(Self {
            namespace: entry.namespace?,
            key: entry.key,
            content: entry.content,
            category: entry.category,
            session_id: entry.session_id,
            taint: entry.taint,
            timestamp: entry.timestamp,
        })
    }

    /// The entry of this record with the given driver `id` and no score.
    #[must_use]
    pub fn into_entry(self, id: String) -> MemoryEntry {
        MemoryEntry {
            id,
            key: self.key,
            content: self.content,
            namespace: Some(self.namespace),
            category: self.category,
            timestamp: self.timestamp,
            session_id: self.session_id,
            score: None,
            taint: self.taint,
        }
    }
}
