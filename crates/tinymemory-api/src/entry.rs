//! Stored entries and namespace summaries.

use serde::{Deserialize, Serialize};

use crate::{MemoryCategory, MemoryTaint};

/// One stored memory, as returned by `get`, `list` and `recall`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryEntry {
    /// Driver-assigned opaque id. An entry is identified by its namespace
    /// and key; the contract asks nothing of `id` (docs/protocol.md: "any
    /// string"), so no conformance check reads it, and a host must not rely
    /// on it being unique.
    pub id: String,
    /// The key, unique within its namespace; stored byte for byte.
    pub key: String,
    /// The content, stored byte for byte.
    pub content: String,
    /// The namespace the entry lives in. Every driver fills it on every
    /// returned entry (contract sentence 3); it is optional only so that
    /// hosts and test doubles can represent a faulty driver's output.
    pub namespace: Option<String>,
    /// The category given to `store`.
    pub category: MemoryCategory,
    /// When the entry was last stored, RFC 3339 UTC
    /// (see [`now_rfc3339`](crate::now_rfc3339)).
    pub timestamp: String,
    /// The session given to `store`.
    pub session_id: Option<String>,
    /// Recall score: finite, higher is better; `None` outside recall or when
    /// a driver does not score.
    pub score: Option<f64>,
    /// The taint given to `store`.
    pub taint: MemoryTaint,
}

/// One non-empty namespace, as listed by `namespaces()`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NamespaceSummary {
    /// The namespace name.
    pub namespace: String,
    /// Exact number of entries in it (at least 1).
    pub count: u64,
    /// The newest entry timestamp, RFC 3339, when the driver knows it:
    /// newest by the instant it names ([`crate::newest_timestamp`]), not
    /// by its bytes, which differ in order once an import brought other
    /// spellings (`+02:00`, `.5Z`, lowercase `z`). Any spelling of that
    /// instant is accepted; in-tree drivers give the entry's own text.
    pub last_updated: Option<String>,
}
