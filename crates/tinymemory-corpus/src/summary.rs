//! Counts that describe a loaded corpus.

use std::collections::BTreeMap;
use std::fmt;

use crate::Corpus;

/// Counts describing a [`Corpus`], as given by [`Corpus::summary`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusSummary {
    /// Files read.
    pub files: usize,
    /// Entries in all.
    pub entries: usize,
    /// Entries by section prefix (`conversation`, `document`, `learning`),
    /// in byte order of the prefix.
    pub sections: BTreeMap<String, u64>,
    /// Distinct namespaces.
    pub namespaces: usize,
    /// Warnings.
    pub warnings: usize,
}

impl CorpusSummary {
    /// The counts of `corpus`.
    #[must_use]
    pub fn of(corpus: &Corpus) -> Self {
        let mut sections = BTreeMap::new();
        for entry in &corpus.entries {
            *sections
                .entry(entry.section.prefix().to_owned())
                .or_insert(0) += 1;
        }
        Self {
            files: corpus.files.len(),
            entries: corpus.entries.len(),
            sections,
            namespaces: corpus.namespaces().len(),
            warnings: corpus.warnings.len(),
        }
    }
}

/// One line, for example
/// `251 files, 40000 entries (conversation 19581, ...) in 300 namespaces, 10 warnings`.
impl fmt::Display for CorpusSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} files, {} entries (", self.files, self.entries)?;
        for (i, (section, count)) in self.sections.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{section} {count}")?;
        }
        write!(
            f,
            ") in {} namespaces, {} warnings",
            self.namespaces, self.warnings
        )
    }
}
