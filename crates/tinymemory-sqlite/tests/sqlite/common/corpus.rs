//! A small, self-contained reader of `fixtures/corpora` for the script
//! hit-rate measurement, and the measurement's definition of a "word".
//!
//! Shared by `tests/scripts.rs` (the assertion) and
//! `examples/script_hit_rates.rs` (the full before/after table).
//!
//! Entries: every turn of every ChatterBot dialog (`chatterbot/<language>/*.yml`,
//! one entry per turn, grouped by language) and every paragraph of every
//! licence text (`licenses/*.txt`, blank-line separated, grouped as the
//! language `licenses`).
//!
//! Words, defined here independently of the driver's code:
//!
//! - a *word character* is a letter, number or combining mark;
//! - a *spaced word* is a maximal run of word characters outside the
//!   scripts written without spaces;
//! - in a maximal run of characters of a script written without spaces
//!   (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar), every substring
//!   is a word; the measurement asks for every substring of 1, 2 and 3
//!   characters and the whole run, which covers the lengths a person types.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use unicode_normalization::char::is_combining_mark;

/// One corpus entry.
#[derive(Debug, Clone)]
pub struct Entry {
    /// `chatterbot` language directory name, or `licenses`.
    pub language: String,
    /// Unique within the language.
    pub key: String,
    pub content: String,
}

/// `fixtures/corpora` of the workspace.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/corpora")
}

/// Every entry of the corpus, languages in name order, files in name order.
///
/// # Panics
///
/// When the corpus is missing or a file cannot be read or parsed.
pub fn load(root: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    let chatterbot = root.join("chatterbot");
    for lang_dir in sorted_dir(&chatterbot) {
        let language = file_name(&lang_dir);
        for file in sorted_dir(&lang_dir) {
            if file.extension().and_then(|e| e.to_str()) != Some("yml") {
                continue;
            }
            let raw = std::fs::read_to_string(&file).unwrap();
            // Some files start with a byte order mark.
            let text = raw.trim_start_matches('\u{feff}');
            let stem = file_name(&file);
            // Some files hold more than one YAML document.
            let mut dialogs = Vec::new();
            for doc in serde_norway::Deserializer::from_str(text) {
                let doc = <serde_norway::Value as serde::Deserialize>::deserialize(doc)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                if let Some(c) = doc.get("conversations").and_then(|c| c.as_sequence()) {
                    dialogs.extend(c.iter().cloned());
                }
            }
            for (d, dialog) in dialogs.iter().enumerate() {
                for (t, turn) in dialog.as_sequence().into_iter().flatten().enumerate() {
                    let content = match turn {
                        serde_norway::Value::String(s) => s.clone(),
                        serde_norway::Value::Number(n) => n.to_string(),
                        serde_norway::Value::Bool(b) => b.to_string(),
                        _ => continue,
                    };
                    if content.trim().is_empty() {
                        continue;
                    }
                    out.push(Entry {
                        language: language.clone(),
                        key: format!("{stem}/{d:04}/{t:02}"),
                        content,
                    });
                }
            }
        }
    }
    for file in sorted_dir(&root.join("licenses")) {
        let text = std::fs::read_to_string(&file).unwrap();
        let stem = file_name(&file);
        let mut paragraph = 0;
        for para in text.split("\n\n") {
            let para = para.trim();
            if para.is_empty() {
                continue;
            }
            out.push(Entry {
                language: "licenses".to_owned(),
                key: format!("{stem}/{paragraph:04}"),
                content: para.to_owned(),
            });
            paragraph += 1;
        }
    }
    out
}

fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

fn is_unspaced_script(c: char) -> bool {
    matches!(u32::from(c),
        0x0E00..=0x0EFF              // Thai, Lao
        | 0x1000..=0x109F            // Myanmar
        | 0x1780..=0x17FF            // Khmer
        | 0x3005..=0x3007            // 々 〆 〇
        | 0x3040..=0x30FF            // Hiragana, Katakana
        | 0x3400..=0x4DBF            // Han extension A
        | 0x4E00..=0x9FFF            // Han
        | 0xF900..=0xFAFF            // Han compatibility
        | 0xFF66..=0xFF9F            // halfwidth Katakana
        | 0x2_0000..=0x3_FFFF // Han extensions B..
    )
}

/// The words of `text` (see the module documentation), as written.
pub fn words(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut run: Vec<char> = Vec::new();
    let mut run_unspaced = false;
    let flush = |run: &mut Vec<char>, unspaced: bool, out: &mut BTreeSet<String>| {
        if run.is_empty() {
            return;
        }
        if unspaced {
            for len in 1..=3.min(run.len()) {
                for w in run.windows(len) {
                    out.insert(w.iter().collect());
                }
            }
        }
        out.insert(run.iter().collect());
        run.clear();
    };
    for c in text.chars() {
        if !is_word_char(c) {
            flush(&mut run, run_unspaced, &mut out);
            continue;
        }
        let unspaced = is_unspaced_script(c);
        if unspaced != run_unspaced {
            flush(&mut run, run_unspaced, &mut out);
            run_unspaced = unspaced;
        }
        run.push(c);
    }
    flush(&mut run, run_unspaced, &mut out);
    out
}

/// Ground truth for one language: each distinct word with the indices (into
/// the language's entries) of the entries holding it.
pub fn word_index(entries: &[&Entry]) -> BTreeMap<String, Vec<usize>> {
    let mut index: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        for w in words(&e.content) {
            index.entry(w).or_default().push(i);
        }
    }
    index
}

/// Entries grouped by language, in language order.
pub fn by_language(entries: &[Entry]) -> BTreeMap<&str, Vec<&Entry>> {
    let mut out: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in entries {
        out.entry(e.language.as_str()).or_default().push(e);
    }
    out
}

/// A language's hit rate: `(entry, word)` pairs where the entry was among
/// the hits of a recall of the word, out of all pairs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HitRate {
    /// Pairs whose entry was a hit.
    pub found: u64,
    /// All pairs.
    pub pairs: u64,
    /// R-precision's numerator, summed over words: of the `n` entries that
    /// hold the word in any letter case, how many are among its first `n`
    /// hits. It says how well ranking puts true holders first. Only
    /// measured for ranked recall.
    pub top: u64,
    /// R-precision's denominator: the sum of those `n`.
    pub top_pairs: u64,
    /// Hits returned, summed over words.
    pub returned: u64,
    /// Of those, hits that hold the word in some letter case.
    pub relevant: u64,
}

impl HitRate {
    pub fn add(&mut self, found: u64, pairs: u64) {
        self.found += found;
        self.pairs += pairs;
    }

    /// R-precision as a percentage: `top / top_pairs`.
    pub fn top_percent(&self) -> f64 {
        Self::ratio(self.top, self.top_pairs)
    }

    /// Precision as a percentage: `relevant / returned`.
    pub fn precision_percent(&self) -> f64 {
        Self::ratio(self.relevant, self.returned)
    }

    fn ratio(n: u64, d: u64) -> f64 {
        if d == 0 {
            100.0
        } else {
            // Counts are far below 2^52.
            #[allow(clippy::cast_precision_loss)]
            let p = 100.0 * n as f64 / d as f64;
            p
        }
    }

    /// Percentage, 100.0 for an empty tally.
    pub fn percent(&self) -> f64 {
        Self::ratio(self.found, self.pairs)
    }
}
