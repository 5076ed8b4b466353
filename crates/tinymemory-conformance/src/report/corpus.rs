//! Which corpus a run measured (`run.corpus`): the corpus checks' verdicts,
//! and so the level, hold for that corpus only (a driver whose
//! `namespaces()` stops at 250 passes over a corpus of fewer namespaces).

use serde::{Deserialize, Serialize};

/// The corpus a run loaded, or that it ran with `--no-corpus`.
///
/// In JSON, `run.corpus` is the string `"none"` or a [`CorpusFacts`]
/// object; a run that selected no corpus check loads none and leaves the
/// field out (as do reports written before it existed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunCorpus {
    /// `--no-corpus`: the corpus checks were skipped.
    None,
    /// The corpus loaded into the driver.
    Loaded(CorpusFacts),
}

/// What a loaded corpus was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusFacts {
    /// The directory loaded: `--corpus DIR` as given, else the bundled
    /// corpus's path on the machine that ran.
    pub path: String,
    /// `sha256:` and 64 hex digits over every entry as stored
    /// (`tinymemory_corpus::Corpus::digest`): equal for two directories
    /// giving the same entries, whatever their path.
    pub digest: String,
    /// Entries stored.
    pub entries: u64,
    /// Namespaces written.
    pub namespaces: u64,
}

impl RunCorpus {
    /// `true` when two runs measured the same corpus: both `--no-corpus`,
    /// or corpora with the same digest and counts, wherever they were read
    /// from (shards run on several machines name several paths).
    #[must_use]
    pub fn same_as(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::None, Self::None) => true,
            (Self::Loaded(a), Self::Loaded(b)) => {
                (&a.digest, a.entries, a.namespaces) == (&b.digest, b.entries, b.namespaces)
            }
            _ => false,
        }
    }

    /// One phrase, as read (escape it to show it): `PATH (22688 entries
    /// in 272 namespaces, sha256:..)`, or `none (--no-corpus)`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::None => "none (--no-corpus)".to_owned(),
            Self::Loaded(c) => format!(
                "{} ({} entries in {} namespaces, {})",
                c.path, c.entries, c.namespaces, c.digest
            ),
        }
    }
}

/// The JSON forms: the string `"none"`, or the facts.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Wire {
    Word(String),
    Facts(CorpusFacts),
}

impl Serialize for RunCorpus {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::None => serializer.serialize_str("none"),
            Self::Loaded(c) => c.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for RunCorpus {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Wire::deserialize(deserializer)? {
            Wire::Word(w) if w == "none" => Ok(Self::None),
            Wire::Word(w) => Err(serde::de::Error::custom(format!(
                "run.corpus is {w:?}: it is \"none\" or an object with path, digest, entries \
                 and namespaces"
            ))),
            Wire::Facts(c) => Ok(Self::Loaded(c)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(path: &str, digest: &str) -> RunCorpus {
        RunCorpus::Loaded(CorpusFacts {
            path: path.to_owned(),
            digest: digest.to_owned(),
            entries: 3,
            namespaces: 2,
        })
    }

    #[test]
    fn none_is_a_word_and_a_corpus_an_object() {
        assert_eq!(serde_json::to_string(&RunCorpus::None).unwrap(), "\"none\"");
        let c = loaded("fixtures/corpora", "sha256:ab");
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"path":"fixtures/corpora","digest":"sha256:ab","entries":3,"namespaces":2}"#
        );
        assert_eq!(serde_json::from_str::<RunCorpus>(&json).unwrap(), c);
        assert_eq!(
            serde_json::from_str::<RunCorpus>("\"none\"").unwrap(),
            RunCorpus::None
        );
        let err = serde_json::from_str::<RunCorpus>("\"bundled\"").unwrap_err();
        assert!(
            err.to_string().starts_with("run.corpus is \"bundled\""),
            "{err}"
        );
    }

    #[test]
    fn the_same_corpus_is_the_same_entries_wherever_it_was_read() {
        let here = loaded("fixtures/corpora", "sha256:ab");
        assert!(here.same_as(&loaded("/ci/corpora", "sha256:ab")));
        assert!(!here.same_as(&loaded("fixtures/corpora", "sha256:cd")));
        assert!(!here.same_as(&RunCorpus::None));
        assert!(RunCorpus::None.same_as(&RunCorpus::None));
        assert_eq!(
            loaded("fixtures/corpora", "sha256:ab").describe(),
            "fixtures/corpora (3 entries in 2 namespaces, sha256:ab)"
        );
    }
}
