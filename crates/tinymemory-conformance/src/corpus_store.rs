//! The real corpus, loaded into a driver through the section API.

use std::collections::BTreeMap;

use tinymemory_api::{MemoryError, MemoryProvider, MemorySection, MemoryTaint};
use tinymemory_corpus::Corpus;
use tinymemory_sections::Sections;

/// What loading stored: entries and namespaces per section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Per section (ordered by prefix): `(entries, namespaces)`.
    pub sections: BTreeMap<MemorySection, (u64, u64)>,
}

impl LoadReport {
    /// Entries stored, over every section.
    #[must_use]
    pub fn entries(&self) -> u64 {
        self.sections.values().map(|(e, _)| e).sum()
    }

    /// Namespaces written, over every section.
    #[must_use]
    pub fn namespaces(&self) -> u64 {
        self.sections.values().map(|(_, n)| n).sum()
    }
}

/// One entry per corpus namespace, used by the corpus checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The namespace.
    pub namespace: String,
    /// The key of the entry.
    pub key: String,
    /// Its content.
    pub content: String,
    /// How many entries the namespace holds.
    pub namespace_count: u64,
}

/// A driver holding the corpus, and what it is expected to hold.
pub struct LoadedCorpus {
    provider: Box<dyn MemoryProvider>,
    expected: BTreeMap<String, u64>,
    samples: Vec<Sample>,
    spread: Vec<Sample>,
    report: LoadReport,
}

impl LoadedCorpus {
    /// Stores every corpus entry into `provider` through
    /// [`Sections`] (`put` on the entry's section and scope), as internal
    /// entries with no session, in corpus order.
    ///
    /// # Errors
    ///
    /// The first store error, with the entry's origin (`file:line`) and
    /// namespace in the message and the same error kind.
    pub async fn load(
        provider: Box<dyn MemoryProvider>,
        corpus: &Corpus,
    ) -> Result<Self, MemoryError> {
        Self::load_with_progress(provider, corpus, |_, _| {}).await
    }

    /// [`LoadedCorpus::load`], calling `progress(stored, total)` after
    /// each entry is stored: for a progress display, which should keep
    /// the call cheap.
    ///
    /// # Errors
    ///
    /// As [`LoadedCorpus::load`].
    pub async fn load_with_progress(
        provider: Box<dyn MemoryProvider>,
        corpus: &Corpus,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<Self, MemoryError> {
        let total = corpus.entries.len();
        let mut expected: BTreeMap<String, u64> = BTreeMap::new();
        let mut samples: BTreeMap<String, Sample> = BTreeMap::new();
        let mut spread: Vec<Sample> = Vec::new();
        let mut per_section: BTreeMap<MemorySection, (u64, BTreeMap<String, ()>)> = BTreeMap::new();
        {
            let sections = Sections::new(provider.as_ref());
            for (i, e) in corpus.entries.iter().enumerate() {
                sections
                    .section(&e.section)
                    .put(
                        &e.scope,
                        &e.key,
                        &e.content,
                        e.category.clone(),
                        None,
                        MemoryTaint::Internal,
                    )
                    .await
                    .map_err(|err| {
                        MemoryError::fault(format!(
                            "failed to load {}:{} into {}:{}: {err}",
                            e.origin.file.display(),
                            e.origin.line,
                            e.section,
                            e.scope
                        ))
                    })?;
                let ns = e.namespace().into_string();
                let position = expected.get(&ns).copied().unwrap_or(0);
                *expected.entry(ns.clone()).or_default() += 1;
                if position == 0 || position.is_power_of_two() {
                    spread.push(Sample {
                        namespace: ns.clone(),
                        key: e.key.clone(),
                        content: e.content.clone(),
                        namespace_count: 0,
                    });
                }
                let slot = per_section.entry(e.section.clone()).or_default();
                slot.0 += 1;
                slot.1.insert(ns.clone(), ());
                samples.entry(ns.clone()).or_insert_with(|| Sample {
                    namespace: ns,
                    key: e.key.clone(),
                    content: e.content.clone(),
                    namespace_count: 0,
                });
                progress(i + 1, total);
            }
        }
        let samples = samples
            .into_values()
            .map(|mut s| {
                s.namespace_count = expected[&s.namespace];
                s
            })
            .collect();
        for s in &mut spread {
            s.namespace_count = expected[&s.namespace];
        }
        let report = LoadReport {
            sections: per_section
                .into_iter()
                .map(|(s, (entries, names))| (s, (entries, names.len() as u64)))
                .collect(),
        };
        Ok(Self {
            provider,
            expected,
            samples,
            spread,
            report,
        })
    }

    /// The driver holding the corpus.
    #[must_use]
    pub fn provider(&self) -> &dyn MemoryProvider {
        self.provider.as_ref()
    }

    /// Namespace → number of entries loaded into it (upserts counted once
    /// only when keys repeat, which the corpus loader never produces).
    #[must_use]
    pub fn expected_counts(&self) -> &BTreeMap<String, u64> {
        &self.expected
    }

    /// The first entry of each namespace, in namespace order.
    #[must_use]
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Entries spread over each namespace: those loaded at positions 0, 1,
    /// 2, 4, 8, ... of their namespace (so about `1 + log2(count)` per
    /// namespace, the first and some of the last included), in load order;
    /// for the corpus checks that recall many entries.
    #[must_use]
    pub fn spread_samples(&self) -> &[Sample] {
        &self.spread
    }

    /// What was stored, per section.
    #[must_use]
    pub fn report(&self) -> &LoadReport {
        &self.report
    }
}
