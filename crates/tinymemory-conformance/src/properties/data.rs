//! The generated data the section properties store, query and compare.
//!
//! Text comes from a small vocabulary, so most queries hit; namespaces from
//! a small pool spread over three known sections, one custom section and
//! `global`, so sections hold several namespaces of different sizes and the
//! cap has something to choose between.

use std::collections::BTreeMap;
use std::fmt;

use proptest::collection::vec;
use proptest::prop_oneof;
use proptest::strategy::Strategy;
use tinymemory_api::{MemoryEntry, MemoryProvider, MemorySection, Namespace, NewEntry};
use tinymemory_sections::SectionHits;

use super::engine::CaseFailure;
use crate::CheckContext;

/// Words of contents and queries: plain lowercase ASCII, which every
/// driver's tokenizer splits and matches the same way. Five words, so that
/// entries share words, recalls hit several entries of a namespace and
/// their scores tie or differ.
pub(crate) const VOCAB: [&str; 5] = ["comet", "river", "stone", "lantern", "orchard"];

/// Query tokens that are not words: plain text, never syntax (contract
/// sentence 6), so they must change nothing.
pub(crate) const PUNCTUATION: [&str; 4] = ["\"", "*", "(", "-"];

/// The namespaces entries are stored in, each with its weight, so that a
/// few namespaces fill up (recalls with more matches than the limit, ties
/// at the cut) and the sections hold namespaces of different sizes.
/// `learning:a-2` extends `learning:a`, so a driver matching namespace
/// prefixes answers a pinned recall from the wrong namespace.
pub(crate) const NAMESPACES: [(&str, u32); 12] = [
    ("learning:a", 6),
    ("learning:b", 4),
    ("learning:c", 3),
    ("learning:a-2", 3),
    ("learning:d", 2),
    ("learning:e", 1),
    ("document:a", 3),
    ("document:b", 1),
    ("conversation:t-1", 1),
    ("notes:x", 2),
    ("notes:y", 1),
    ("global", 2),
];

/// A namespace made of a word that looks reserved to some engine
/// ([`RESERVED_WORDS`](crate::hostile::RESERVED_WORDS)), in one of the
/// shapes of [`reserved_namespaces`](crate::hostile::reserved_namespaces):
/// the word alone, as the first label (`select:notes`), or as a scope
/// (`learning:users`). Shrinks towards the first word and shape.
pub(crate) fn reserved_namespace() -> impl Strategy<Value = String, Tree: Send> {
    (0..crate::hostile::RESERVED_WORDS.len(), 0..3_usize).prop_map(|(word, shape)| {
        let [alone, first, scope] =
            crate::hostile::reserved_namespaces(crate::hostile::RESERVED_WORDS[word]);
        [alone, first, scope][shape].clone()
    })
}

/// A namespace of the section properties: from [`NAMESPACES`] by weight,
/// and one time in six a [`reserved_namespace`].
pub(crate) fn namespace() -> impl Strategy<Value = String, Tree: Send> {
    prop_oneof![
        5 => weighted(&NAMESPACES).prop_map(str::to_owned),
        1 => reserved_namespace(),
    ]
}

/// How many distinct keys a namespace can hold (`k0`..`k5`).
pub(crate) const KEYS: usize = 6;

/// One of `choices`, drawn by weight; shrinks towards the first.
pub(crate) fn weighted(
    choices: &'static [(&'static str, u32)],
) -> impl Strategy<Value = &'static str, Tree: Send> {
    let total: u32 = choices.iter().map(|(_, w)| w).sum();
    (0..total).prop_map(move |mut ticket| {
        for (value, weight) in choices {
            if ticket < *weight {
                return *value;
            }
            ticket -= weight;
        }
        choices[0].0
    })
}

/// The sections queried, by weight: `learning` (six namespaces, so the cap
/// chooses) most, the other sections with data, a custom one, and one that
/// is always empty.
const SECTIONS: [(&str, u32); 5] = [
    ("learning", 4),
    ("document", 1),
    ("conversation", 1),
    ("notes", 1),
    ("entity", 1),
];

fn section() -> impl Strategy<Value = MemorySection, Tree: Send> {
    weighted(&SECTIONS).prop_map(MemorySection::from_prefix)
}

/// One stored entry.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) namespace: String,
    pub(crate) key: String,
    pub(crate) content: String,
}

/// `learning:a/k1 = "comet river"`: one line per entry in counterexamples.
impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{} = {:?}", self.namespace, self.key, self.content)
    }
}

/// Entries with distinct `(namespace, key)`, ordered by it, so that any
/// insertion order stores the same data.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Dataset {
    pub(crate) entries: Vec<Entry>,
}

impl Dataset {
    /// Distinct entries per namespace.
    pub(crate) fn counts(&self) -> BTreeMap<&str, u64> {
        let mut counts = BTreeMap::new();
        for e in &self.entries {
            *counts.entry(e.namespace.as_str()).or_insert(0) += 1;
        }
        counts
    }

    /// The namespaces `across_section` must visit for `section` under
    /// `cap`, and whether it must report `truncated`: the section's
    /// namespaces by count descending then name, the first `cap`.
    pub(crate) fn expected_visit(
        &self,
        section: &MemorySection,
        cap: usize,
    ) -> (Vec<String>, bool) {
        let mut listed: Vec<(&str, u64)> = self
            .counts()
            .into_iter()
            .filter(|(ns, _)| Namespace::parse(ns).is_ok_and(|n| n.is_in(section)))
            .collect();
        listed.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let truncated = listed.len() > cap;
        (
            listed
                .into_iter()
                .take(cap)
                .map(|(ns, _)| ns.to_owned())
                .collect(),
            truncated,
        )
    }

    /// How many of the section's namespaces hold entries.
    pub(crate) fn section_size(&self, section: &MemorySection) -> usize {
        self.expected_visit(section, usize::MAX).0.len()
    }
}

/// Up to 32 generated stores, deduplicated on `(namespace, key)` (the last
/// wins, as an upsert would). Shrinks by dropping stores, then towards the
/// first namespace, key and word.
pub(crate) fn dataset() -> impl Strategy<Value = Dataset, Tree: Send> {
    vec((namespace(), 0..KEYS, words(1..=3)), 0..=32).prop_map(|raw| {
        let mut map = BTreeMap::new();
        for (ns, key, content) in raw {
            map.insert((ns, format!("k{key}")), content);
        }
        Dataset {
            entries: map
                .into_iter()
                .map(|((namespace, key), content)| Entry {
                    namespace,
                    key,
                    content,
                })
                .collect(),
        }
    })
}

/// Space-separated words of [`VOCAB`].
pub(crate) fn words(
    len: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = String, Tree: Send> {
    vec(0..VOCAB.len(), len).prop_map(|ix| {
        ix.into_iter()
            .map(|i| VOCAB[i])
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// One to three tokens: mostly [`VOCAB`] words, sometimes [`PUNCTUATION`].
pub(crate) fn query() -> impl Strategy<Value = String, Tree: Send> {
    vec(0..VOCAB.len() + PUNCTUATION.len(), 1..=3).prop_map(|ix| {
        ix.into_iter()
            .map(|i| {
                VOCAB
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| PUNCTUATION[i - VOCAB.len()])
            })
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// One `across_section` call.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct SectionQuery {
    pub(crate) section: MemorySection,
    pub(crate) query: String,
    pub(crate) limit: usize,
    pub(crate) cap: usize,
}

impl fmt::Debug for SectionQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "across_section({}, {:?}, limit {}) with cap {}",
            self.section, self.query, self.limit, self.cap
        )
    }
}

/// A section, a query, a limit in `limits` (three times in four among the
/// lowest three, where limits cut ties) and a cap in `0..=8` (below, at and
/// above the six `learning` namespaces).
pub(crate) fn section_query(
    limits: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = SectionQuery, Tree: Send> {
    let (low, high) = (*limits.start(), *limits.end());
    let limit = prop_oneof![3 => low..=(low + 2).min(high), 1 => limits];
    (section(), query(), limit, 0..=8_usize).prop_map(|(section, query, limit, cap)| SectionQuery {
        section,
        query,
        limit,
        cap,
    })
}

/// A fresh driver from the context's factory holding `entries` in the
/// order given (`Core`, internal, no session), written by one `store_many`
/// per run without a repeated `(namespace, key)`, or one `store` per entry
/// when the driver refuses a batch ([`batch::write`](super::batch::write)).
///
/// # Errors
///
/// The open or store failure, as the case's failure message.
pub(crate) async fn open_with<'a>(
    ctx: &CheckContext,
    entries: impl IntoIterator<Item = &'a Entry>,
) -> Result<Box<dyn MemoryProvider>, CaseFailure> {
    let batch: Vec<NewEntry> = entries
        .into_iter()
        .map(|e| NewEntry::new(e.namespace.clone(), e.key.clone(), e.content.clone()))
        .collect();
    super::batch::write(ctx, &batch).await
}

/// A hit as the properties compare it: where it lives, what it holds and
/// its score bit for bit (so `NaN == NaN` and `-0.0 != 0.0`). Ids and
/// timestamps are the driver's own and never compared.
#[derive(Clone)]
pub(crate) struct Hit {
    pub(crate) namespace: Option<String>,
    pub(crate) key: String,
    pub(crate) content: String,
    pub(crate) score: Option<f64>,
}

impl Hit {
    pub(crate) fn of(e: &MemoryEntry) -> Self {
        Self {
            namespace: e.namespace.clone(),
            key: e.key.clone(),
            content: e.content.clone(),
            score: e.score,
        }
    }
}

impl PartialEq for Hit {
    fn eq(&self, other: &Self) -> bool {
        self.namespace == other.namespace
            && self.key == other.key
            && self.content == other.content
            && self.score.map(f64::to_bits) == other.score.map(f64::to_bits)
    }
}

/// `learning:a/k1 (score 0.5)`.
impl fmt::Debug for Hit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = self.namespace.as_deref().unwrap_or("<no namespace>");
        match self.score {
            Some(s) => write!(f, "{ns}/{} (score {s:?})", self.key),
            None => write!(f, "{ns}/{} (no score)", self.key),
        }
    }
}

/// Every hit of a recall, projected.
pub(crate) fn hits(entries: &[MemoryEntry]) -> Vec<Hit> {
    entries.iter().map(Hit::of).collect()
}

/// An `across_section` answer as the properties compare it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Across {
    pub(crate) hits: Vec<Hit>,
    pub(crate) searched: Vec<String>,
    pub(crate) truncated: bool,
}

impl From<&SectionHits> for Across {
    fn from(s: &SectionHits) -> Self {
        Self {
            hits: hits(&s.hits),
            searched: s.searched.clone(),
            truncated: s.truncated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(ns: &str, key: &str) -> Entry {
        Entry {
            namespace: ns.to_owned(),
            key: key.to_owned(),
            content: "comet".to_owned(),
        }
    }

    #[test]
    fn expected_visit_is_count_then_name_under_the_cap() {
        let data = Dataset {
            entries: vec![
                entry("learning:a", "k0"),
                entry("learning:b", "k0"),
                entry("learning:b", "k1"),
                entry("learning:c", "k0"),
                entry("notes:x", "k0"),
                entry("global", "k0"),
            ],
        };
        assert_eq!(
            data.expected_visit(&MemorySection::Learning, 2),
            (vec!["learning:b".to_owned(), "learning:a".to_owned()], true)
        );
        assert_eq!(
            data.expected_visit(&MemorySection::Custom("notes".into()), 1),
            (vec!["notes:x".to_owned()], false)
        );
        assert_eq!(
            data.expected_visit(&MemorySection::Entity, 0),
            (vec![], false)
        );
        assert_eq!(data.section_size(&MemorySection::Learning), 3);
    }

    #[test]
    fn hits_compare_scores_bit_for_bit() {
        let h = |score| Hit {
            namespace: Some("learning:a".into()),
            key: "k".into(),
            content: String::new(),
            score,
        };
        assert_eq!(h(Some(f64::NAN)), h(Some(f64::NAN)));
        assert_ne!(h(Some(0.0)), h(Some(-0.0)));
        assert_ne!(h(None), h(Some(0.0)));
    }
}
