//! One scope of a section, as enumerated by `scopes()`.

/// One non-empty namespace of a section.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SectionScope {
    /// The scope: the namespace after `<section>:`.
    pub scope: String,
    /// The whole namespace, `<section>:<scope>`.
    pub namespace: String,
    /// Exact entry count, as reported by the driver.
    pub count: u64,
    /// Newest entry timestamp (RFC 3339), when the driver reports it.
    pub last_updated: Option<String>,
}
