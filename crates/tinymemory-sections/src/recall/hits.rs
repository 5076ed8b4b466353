//! The result of a section recall.

use tinymemory_api::MemoryEntry;

/// What `across_section` found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SectionHits {
    /// The merged hits, in merge order
    /// ([`compare_hits`](crate::compare_hits)), at most `limit` of them.
    /// Every hit carries the namespace it was found in.
    pub hits: Vec<MemoryEntry>,
    /// The namespaces searched, in visit order (count descending, then
    /// namespace ascending).
    pub searched: Vec<String>,
    /// `true` when namespaces of the section were skipped by the cap; never
    /// set because hits were cut by the limit.
    pub truncated: bool,
}
