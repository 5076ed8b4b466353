//! The script hit-rate measurement through the driver's public API.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
use unicode_normalization::UnicodeNormalization;

use super::corpus::{self, Entry, HitRate};

/// The namespace a language's entries are stored in.
pub fn namespace(language: &str) -> String {
    format!("conversation:{language}")
}

/// Stores every entry in its language's namespace.
pub async fn load_into(driver: &dyn MemoryProvider, entries: &[Entry]) {
    for e in entries {
        driver
            .store(
                &namespace(&e.language),
                &e.key,
                &e.content,
                MemoryCategory::Conversation,
                None,
                MemoryTaint::ExternalSync,
            )
            .await
            .unwrap();
    }
}

/// For every language, recalls each of its words (every `stride`-th word in
/// word order when `stride > 1`) with a limit of the language's entry
/// count, and counts the `(entry, word)` pairs whose entry was a hit.
pub async fn measure(
    driver: &dyn MemoryProvider,
    entries: &[Entry],
    stride: usize,
) -> BTreeMap<String, HitRate> {
    let mut out = BTreeMap::new();
    for (language, es) in corpus::by_language(entries) {
        let opts = RecallOptions::in_namespace(namespace(language));
        let mut rate = HitRate::default();
        let index = corpus::word_index(&es);
        // Holders of each word in any letter case, for R-precision.
        let any_case = any_case(&index);
        for (w, holders) in index.iter().step_by(stride.max(1)) {
            let ranked: Vec<String> = driver
                .recall(w, es.len(), &opts)
                .await
                .unwrap_or_else(|e| panic!("recall {w:?} in {language}: {e}"))
                .into_iter()
                .map(|h| h.key)
                .collect();
            let hits: BTreeSet<&String> = ranked.iter().collect();
            let found = holders
                .iter()
                .filter(|i| hits.contains(&es[**i].key))
                .count();
            rate.add(found as u64, holders.len() as u64);
            let relevant = &any_case[&fold(w)];
            let top: BTreeSet<&String> = ranked.iter().take(relevant.len()).collect();
            rate.top += relevant
                .iter()
                .filter(|i| top.contains(&es[**i].key))
                .count() as u64;
            rate.top_pairs += relevant.len() as u64;
            let relevant_keys: BTreeSet<&String> = relevant.iter().map(|i| &es[*i].key).collect();
            rate.returned += ranked.len() as u64;
            rate.relevant += ranked.iter().filter(|k| relevant_keys.contains(k)).count() as u64;
        }
        out.insert(language.to_owned(), rate);
    }
    out
}

/// The holders of each word up to [`fold`].
pub fn any_case(index: &BTreeMap<String, Vec<usize>>) -> BTreeMap<String, BTreeSet<usize>> {
    let mut out: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for (w, holders) in index {
        out.entry(fold(w)).or_default().extend(holders);
    }
    out
}

/// A word's spelling up to letter case and canonical equivalence.
pub fn fold(w: &str) -> String {
    w.to_lowercase().nfc().collect()
}
