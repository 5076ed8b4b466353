//! The inputs of the interface scenarios, drawn from the run's seed.
//!
//! The suite, not the adapter, chooses what each scenario adds, reads,
//! searches and deletes, and judges the answer against what it sent: an
//! adapter answering a canned observation, or running the scenario on
//! inputs of its own, cannot match inputs it never saw. The same seed and
//! check draw the same inputs in every run of every build (ChaCha seeded
//! with the seed and a fixed hash of the check id); another seed draws
//! others.
//!
//! Texts are plain lowercase words, distinct within a scenario, so a query
//! that is exactly one document's text finds that document first in a
//! lexical and a semantic store alike, and a word is a valid LangGraph
//! namespace label (no `.`, not empty). Ids are UUIDs (the form every
//! store takes: Qdrant and PGVectorStore take nothing else) except where a
//! check holds a store to LangChain's plain string ids.

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// The words texts, keys and namespace labels are drawn from: plain,
/// common, and far apart in meaning, so an embedding ranks an exact match
/// first.
const WORDS: [&str; 32] = [
    "apple", "river", "copper", "violin", "glacier", "lantern", "meadow", "harbor", "pepper",
    "falcon", "marble", "orchard", "thunder", "velvet", "cactus", "compass", "saddle", "tulip",
    "anchor", "biscuit", "canyon", "dolphin", "ember", "fossil", "garnet", "hammock", "igloo",
    "jasmine", "kettle", "lobster", "mosaic", "nutmeg",
];

/// The draws of one scenario: its own stream of the run's seed.
pub(super) struct Draw {
    rng: TestRng,
    /// The words not drawn yet: a scenario's words are distinct.
    words: Vec<&'static str>,
}

impl Draw {
    /// The stream of `check` under `seed`.
    pub(super) fn new(seed: u64, check: &str) -> Self {
        let mut bytes = [0_u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        bytes[8..16].copy_from_slice(&fnv1a(check).to_le_bytes());
        Self {
            rng: TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
            words: WORDS.to_vec(),
        }
    }

    /// A number in `0..n` (`n` is small: the modulo's bias is nil).
    fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n).unwrap_or(u64::MAX).max(1);
        usize::try_from(self.rng.next_u64() % n).unwrap_or(0)
    }

    /// A word no other draw of this scenario gave.
    ///
    /// # Panics
    ///
    /// When a scenario draws more than the 32 words of [`WORDS`] (none
    /// draws more than 11).
    pub(super) fn word(&mut self) -> String {
        assert!(!self.words.is_empty(), "a scenario drew every word");
        let i = self.below(self.words.len());
        self.words.swap_remove(i).to_owned()
    }

    /// A UUID in the canonical text form (version 4, variant 1), made of
    /// the stream's bits.
    pub(super) fn uuid(&mut self) -> String {
        let (hi, lo) = (self.rng.next_u64(), self.rng.next_u64());
        let hi = (hi & !0xf000) | 0x4000;
        let lo = (lo & !(0b11 << 62)) | (0b10 << 62);
        format!(
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            hi >> 32,
            (hi >> 16) & 0xffff,
            hi & 0xffff,
            lo >> 48,
            lo & 0xffff_ffff_ffff
        )
    }

    /// `n` distinct UUIDs.
    pub(super) fn uuids(&mut self, n: usize) -> Vec<String> {
        let mut ids: Vec<String> = Vec::with_capacity(n);
        while ids.len() < n {
            let id = self.uuid();
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        ids
    }

    /// `n` distinct plain string ids of a number from 1 to 99 (`"7"`,
    /// `"42"`), as LangChain's standard tests give ids.
    pub(super) fn small_ids(&mut self, n: usize) -> Vec<String> {
        let mut ids: Vec<String> = Vec::with_capacity(n);
        while ids.len() < n {
            let id = (self.below(99) + 1).to_string();
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        ids
    }

    /// A number from 1 to 999 other than `not`.
    pub(super) fn number(&mut self, not: u64) -> u64 {
        loop {
            let n = self.rng.next_u64() % 999 + 1;
            if n != not {
                return n;
            }
        }
    }
}

/// 64-bit FNV-1a: a fixed, documented hash, so a check id maps to the same
/// stream in every version.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(seed: u64, check: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
        let mut d = Draw::new(seed, check);
        let words = (0..11).map(|_| d.word()).collect();
        (words, d.uuids(3), d.small_ids(2))
    }

    #[test]
    fn a_seed_and_check_draw_the_same_inputs_and_another_seed_or_check_others() {
        let first = sample(7, "interface.langchain.delete");
        assert_eq!(first, sample(7, "interface.langchain.delete"));
        assert_ne!(first, sample(8, "interface.langchain.delete"));
        assert_ne!(first, sample(7, "interface.langchain.upsert"));
    }

    #[test]
    fn words_are_distinct_and_ids_well_formed() {
        for seed in 0..50 {
            let (words, uuids, small) = sample(seed, "interface.langchain.delete");
            let distinct: std::collections::BTreeSet<&String> = words.iter().collect();
            assert_eq!(distinct.len(), words.len());
            for id in &uuids {
                let parts: Vec<usize> = id.split('-').map(str::len).collect();
                assert_eq!(parts, [8, 4, 4, 4, 12], "{id}");
                assert_eq!(&id[14..15], "4", "{id}");
                assert!(matches!(&id[19..20], "8" | "9" | "a" | "b"), "{id}");
            }
            assert_ne!(uuids[0], uuids[1]);
            assert!(small
                .iter()
                .all(|s| (1..=99).contains(&s.parse::<u32>().unwrap())));
            assert_ne!(small[0], small[1]);
        }
    }
}
