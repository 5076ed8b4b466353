//! The real corpus, loaded into a driver through the section API.

use std::collections::BTreeMap;
use std::sync::Arc;

use tinymemory_api::{
    validate_key, MemoryError, MemoryProvider, MemorySection, MemoryTaint, Namespace, NewEntry,
};
use tinymemory_corpus::{Corpus, CorpusEntry};

use crate::meter::{Meter, Metered};

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
    /// The driver, its calls counted for the running check
    /// ([`LoadedCorpus::metered`]).
    provider: Metered<Arc<dyn MemoryProvider>>,
    contents: Arc<Contents>,
}

/// What the load stored, shared by every check's view of the corpus.
struct Contents {
    expected: BTreeMap<String, u64>,
    samples: Vec<Sample>,
    spread: Vec<Sample>,
    report: LoadReport,
}

/// Entries per [`MemoryProvider::store_many`] call while loading.
///
/// 1,000: one SQLite transaction then costs under 0.1% of its rows'
/// work in commits (one per row made loading 18x slower, issue 16), a
/// PostgreSQL batch stays far below the 65,535 bind parameters of one
/// statement (6 per row), an exec request stays a few hundred KB for
/// corpus-sized contents, and the 22,688-entry corpus still gives the
/// progress display 23 steps.
const LOAD_BATCH: usize = 1_000;

impl LoadedCorpus {
    /// Stores every corpus entry into `provider` on the namespace of its
    /// section and scope (`<prefix>:<scope>`, as [`Sections`] `put` names
    /// it), as internal entries with no session, in corpus order, in
    /// batches of 1,000 entries through [`MemoryProvider::store_many`].
    ///
    /// [`Sections`]: tinymemory_sections::Sections
    ///
    /// # Errors
    ///
    /// A [`MemoryError::Fault`](MemoryError) naming the entry's origin
    /// (`file:line`) and namespace when an entry's section, scope or key
    /// is invalid (checked before its batch is stored); the batch's first
    /// and last origin with the driver's error when `store_many` fails.
    /// Batches before the failing one stay stored.
    pub async fn load(
        provider: Box<dyn MemoryProvider>,
        corpus: &Corpus,
    ) -> Result<Self, MemoryError> {
        Self::load_with_progress(provider, corpus, |_, _| {}).await
    }

    /// [`LoadedCorpus::load`], calling `progress(stored, total)` once per
    /// entry, in corpus order, as soon as the batch holding it is stored
    /// (so in bursts of up to 1,000 calls): for a progress
    /// display, which should keep the call cheap.
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
        let mut stored = 0;
        for chunk in corpus.entries.chunks(LOAD_BATCH) {
            let batch = chunk.iter().map(new_entry).collect::<Result<Vec<_>, _>>()?;
            provider
                .store_many(&batch)
                .await
                .map_err(|err| batch_error(chunk, &err))?;
            for e in chunk {
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
                stored += 1;
                progress(stored, total);
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
            provider: Metered::new(Arc::from(provider), Meter::default()),
            contents: Arc::new(Contents {
                expected,
                samples,
                spread,
                report,
            }),
        })
    }

    /// The same corpus, its driver's calls counted by `meter`: the runner
    /// hands each check a view of its own, so the check's budget grows
    /// with the requests it makes of the corpus store.
    pub(crate) fn metered(&self, meter: Meter) -> Self {
        Self {
            provider: Metered::new(Arc::clone(self.provider.get_ref()), meter),
            contents: Arc::clone(&self.contents),
        }
    }

    /// The driver holding the corpus.
    #[must_use]
    pub fn provider(&self) -> &dyn MemoryProvider {
        &self.provider
    }

    /// Namespace → number of entries loaded into it (upserts counted once
    /// only when keys repeat, which the corpus loader never produces).
    #[must_use]
    pub fn expected_counts(&self) -> &BTreeMap<String, u64> {
        &self.contents.expected
    }

    /// The first entry of each namespace, in namespace order.
    #[must_use]
    pub fn samples(&self) -> &[Sample] {
        &self.contents.samples
    }

    /// Entries spread over each namespace: those loaded at positions 0, 1,
    /// 2, 4, 8, ... of their namespace (so about `1 + log2(count)` per
    /// namespace, the first and some of the last included), in load order;
    /// for the corpus checks that recall many entries.
    #[must_use]
    pub fn spread_samples(&self) -> &[Sample] {
        &self.contents.spread
    }

    /// What was stored, per section.
    #[must_use]
    pub fn report(&self) -> &LoadReport {
        &self.contents.report
    }
}

/// The entry `e` as the loader stores it: on its section's namespace, as
/// an internal entry with no session.
///
/// # Errors
///
/// A fault naming the entry's origin and namespace when the namespace or
/// the key is invalid, so a bad line is named rather than its batch.
fn new_entry(e: &CorpusEntry) -> Result<NewEntry, MemoryError> {
    let namespace = Namespace::new(&e.section, &e.scope)
        .and_then(|ns| validate_key(&e.key).map(|()| ns))
        .map_err(|err| {
            MemoryError::fault(format!(
                "failed to load {}:{} into {}:{}: {err}",
                e.origin.file.display(),
                e.origin.line,
                e.section,
                e.scope
            ))
        })?;
    Ok(NewEntry::new(namespace.into_string(), &e.key, &e.content)
        .with_category(e.category.clone())
        .with_taint(MemoryTaint::Internal))
}

/// A failed `store_many` of `chunk`, naming where the batch lies in the
/// corpus; the driver's error names the entry when it knows it.
fn batch_error(chunk: &[CorpusEntry], err: &MemoryError) -> MemoryError {
    let origin = |e: &CorpusEntry| format!("{}:{}", e.origin.file.display(), e.origin.line);
    let (first, last) = (chunk.first(), chunk.last());
    MemoryError::fault(format!(
        "failed to load the batch of {} entries from {} to {}: {err}",
        chunk.len(),
        first.map_or_else(String::new, origin),
        last.map_or_else(String::new, origin)
    ))
}
