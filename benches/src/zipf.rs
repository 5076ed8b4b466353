//! Generated memory texts whose words follow a Zipf-like distribution, for
//! stores far larger than the corpus.
//!
//! Word frequencies in natural text fall off roughly as `1 / rank`
//! (Zipf's law: G. K. Zipf, *Human Behavior and the Principle of Least
//! Effort*, 1949), so a store of such texts has a few words in most entries
//! and a long tail of words in a handful. That is what makes a recall's
//! cost depend on its words: a common word's postings cover most of a
//! namespace, a rare word's a few entries.

use tinymemory_api::batch::NewEntry;
use tinymemory_api::MemoryCategory;

use crate::SplitMix64;

/// The generator's version: part of the cache key of every file filled
/// from it, so a change here never reuses a file of the old texts.
pub const ZIPF_VERSION: u32 = 1;

/// Distinct words in the vocabulary.
pub const VOCABULARY: usize = 30_000;

/// Words per text: uniform in this range (mean 16).
pub const WORDS_PER_TEXT: std::ops::RangeInclusive<usize> = 8..=24;

const ONSETS: [&str; 16] = [
    "b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "sh", "tr",
];
const VOWELS: [&str; 6] = ["a", "e", "i", "o", "u", "ai"];

/// The `rank`-th word of the vocabulary (0 the most frequent): its
/// syllables spell `rank + 1` in base 96 (one onset and vowel per digit,
/// least significant first), so every rank gives a distinct lowercase
/// ASCII word of 2 to 9 letters.
#[must_use]
pub fn word(rank: usize) -> String {
    let base = ONSETS.len() * VOWELS.len();
    let mut n = rank + 1;
    let mut out = String::new();
    while n > 0 {
        let d = n % base;
        out.push_str(ONSETS[d / VOWELS.len()]);
        out.push_str(VOWELS[d % VOWELS.len()]);
        n /= base;
    }
    out
}

/// Texts of [`VOCABULARY`] words drawn with probability proportional to
/// `1 / (rank + 1)`, from a seed.
#[derive(Debug, Clone)]
pub struct ZipfText {
    words: Vec<String>,
    /// `cdf[r]`: the probability of a rank at most `r`; the last is 1.
    cdf: Vec<f64>,
}

impl Default for ZipfText {
    fn default() -> Self {
        Self::new()
    }
}

impl ZipfText {
    /// The vocabulary and its cumulative distribution.
    #[must_use]
    pub fn new() -> Self {
        let words: Vec<String> = (0..VOCABULARY).map(word).collect();
        let weights: Vec<f64> = (1..=VOCABULARY)
            .map(|r| 1.0 / f64::from(u32::try_from(r).unwrap_or(u32::MAX)))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = weights
            .iter()
            .map(|w| {
                acc += w / total;
                acc
            })
            .collect();
        if let Some(last) = cdf.last_mut() {
            *last = 1.0;
        }
        Self { words, cdf }
    }

    /// The word of `rank` (see [`word`]).
    ///
    /// # Panics
    ///
    /// When `rank` is not below [`VOCABULARY`].
    #[must_use]
    pub fn word(&self, rank: usize) -> &str {
        &self.words[rank]
    }

    /// One rank drawn from the distribution.
    pub fn rank(&self, rng: &mut SplitMix64) -> usize {
        let u = rng.next_f64();
        self.cdf.partition_point(|&c| c <= u).min(VOCABULARY - 1)
    }

    /// One text: [`WORDS_PER_TEXT`] words joined by single spaces.
    pub fn text(&self, rng: &mut SplitMix64) -> String {
        let span = WORDS_PER_TEXT.end() - WORDS_PER_TEXT.start() + 1;
        let span = u64::try_from(span).unwrap_or(u64::MAX);
        let len = WORDS_PER_TEXT.start() + usize::try_from(rng.next_u64() % span).unwrap_or(0);
        let mut out = String::new();
        for i in 0..len {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&self.words[self.rank(rng)]);
        }
        out
    }

    /// The `per_namespace` entries of the `index`-th generated namespace
    /// [`scale_namespace`]`(index)`: keys `k000000`, `k000001`, ...,
    /// category `Core`, internal, no session; the texts depend only on
    /// `index` (seeded by it), so a namespace is the same in every store
    /// that holds it.
    #[must_use]
    pub fn namespace_entries(&self, index: usize, per_namespace: usize) -> Vec<NewEntry> {
        let mut rng = SplitMix64::new(0x2a2a_0000_0000 ^ u64::try_from(index).unwrap_or(u64::MAX));
        let ns = scale_namespace(index);
        (0..per_namespace)
            .map(|k| {
                NewEntry::new(ns.clone(), format!("k{k:06}"), self.text(&mut rng))
                    .with_category(MemoryCategory::Core)
            })
            .collect()
    }
}

/// The namespace of the `index`-th generated namespace:
/// `learning:scale-000042`.
#[must_use]
pub fn scale_namespace(index: usize) -> String {
    format!("learning:scale-{index:06}")
}

/// How many of `entries` hold the whole word `w` (the texts are
/// space-separated lowercase words).
#[must_use]
pub fn document_frequency(entries: &[NewEntry], w: &str) -> usize {
    entries
        .iter()
        .filter(|e| e.content.split(' ').any(|x| x == w))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_distinct_and_fixed() {
        assert_eq!(word(0), "be");
        assert_eq!(word(1), "bi");
        assert_eq!(word(94), "trai");
        assert_eq!(word(95), "babe");
        let mut all: Vec<String> = (0..VOCABULARY).map(word).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), VOCABULARY);
    }

    #[test]
    fn common_words_are_common_and_rare_words_rare() {
        let z = ZipfText::new();
        let entries = z.namespace_entries(7, 1_000);
        assert_eq!(entries.len(), 1_000);
        assert_eq!(entries[3].namespace, "learning:scale-000007");
        assert_eq!(entries[3].key, "k000003");
        assert_eq!(entries, z.namespace_entries(7, 1_000), "seeded");
        let top = document_frequency(&entries, z.word(0));
        assert!((600..=900).contains(&top), "rank 0 in {top} of 1,000");
        let rare = document_frequency(&entries, z.word(20_000));
        assert!(rare <= 3, "rank 20,000 in {rare} of 1,000");
        for e in &entries {
            let n = e.content.split(' ').count();
            assert!(WORDS_PER_TEXT.contains(&n), "{n} words");
        }
    }
}
