//! What a run adds to a failure after its check ended: where its trace
//! records are, what a rerun alone found and how to reproduce it. Data
//! beside the check's message, never text appended to it, so a bundle
//! keeps the message as the check wrote it and a program reads the
//! verdict without parsing sentences.

use serde::{Deserialize, Serialize};

/// The kind of a [`FailureNote`], as the JSON spells it.
///
/// A kind a reader does not know (written by a newer build) reads as
/// [`NoteKind::Unknown`] and is written back as the same string; its
/// note's [`text`](FailureNote::text) is still printed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NoteKind {
    /// `trace`: the trace lines of the check's last operations
    /// ([`FailureNote::trace`]).
    Trace,
    /// `rerun`: what rerunning the check alone on a fresh driver process
    /// found ([`FailureNote::verdict`]), and the command that reproduces
    /// it ([`FailureNote::reproduce`]) when there is one.
    Rerun,
    /// `not-rerun`: the check was not rerun alone, a run reruns its first
    /// few failures only.
    NotRerun,
    /// `shared-store`: the failure is a wrong answer measured on a store of
    /// a driver whose stores share one database, so writes through another
    /// of its stores could explain it too.
    SharedStore,
    /// A kind this build does not know, with its text as read.
    Unknown(String),
}

impl NoteKind {
    /// The JSON spelling: `trace`, `rerun`, `not-rerun`, `shared-store`, or an unknown
    /// kind's text as read.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Self::Trace => "trace",
            Self::Rerun => "rerun",
            Self::NotRerun => "not-rerun",
            Self::SharedStore => "shared-store",
            Self::Unknown(text) => text,
        }
    }

    fn from_json_str(text: &str) -> Self {
        match text {
            "trace" => Self::Trace,
            "rerun" => Self::Rerun,
            "not-rerun" => Self::NotRerun,
            "shared-store" => Self::SharedStore,
            other => Self::Unknown(other.to_owned()),
        }
    }
}

impl Serialize for NoteKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for NoteKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(Self::from_json_str(&text))
    }
}

/// The lines of a trace file holding a failed check's last records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceSpan {
    /// The trace file, as `--trace` named it.
    pub path: String,
    /// The first line shown, from 1.
    pub first: u64,
    /// The last line shown (the check's last record).
    pub last: u64,
    /// The check's first record's line: before `first` when only the
    /// last records are shown.
    pub check_first: u64,
}

/// One note a run added to a failure, in the order it was added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureNote {
    /// What the note is.
    pub kind: NoteKind,
    /// The note as a sentence, what the text, JUnit and Markdown reports
    /// print after the message (without leading white space).
    pub text: String,
    /// For a [`NoteKind::Trace`] note: the lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceSpan>,
    /// For a [`NoteKind::Rerun`] note: the verdict, one of `fails-alone`,
    /// `after` (fails after one earlier check), `after-all` (after all the
    /// earlier checks together), `not-reproduced`, `now-and-then`,
    /// `undecided` and `out-of-budget`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// The command line that reproduces the failure, when the note gives
    /// one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
}

impl FailureNote {
    /// A note of `kind` saying `text`, with no other data.
    #[must_use]
    pub fn new(kind: NoteKind, text: impl Into<String>) -> Self {
        Self {
            kind,
            text: text.into(),
            trace: None,
            verdict: None,
            reproduce: None,
        }
    }

    /// A [`NoteKind::Trace`] note naming `span`.
    #[must_use]
    pub fn trace(span: TraceSpan, text: impl Into<String>) -> Self {
        Self {
            trace: Some(span),
            ..Self::new(NoteKind::Trace, text)
        }
    }

    /// A [`NoteKind::Rerun`] note of `verdict`, reproduced by `reproduce`.
    #[must_use]
    pub fn rerun(verdict: &str, text: impl Into<String>, reproduce: Option<String>) -> Self {
        Self {
            verdict: Some(verdict.to_owned()),
            reproduce,
            ..Self::new(NoteKind::Rerun, text)
        }
    }

    /// Appends the note as the text reports show it after a message: a
    /// trace span in brackets on the message's line, any other note on
    /// lines of its own, indented.
    pub fn push_to(&self, out: &mut String) {
        if self.kind == NoteKind::Trace {
            out.push_str(" [");
            out.push_str(&self.text);
            out.push(']');
        } else {
            out.push_str("\n  ");
            out.push_str(&self.text);
        }
    }
}

/// `message` followed by `notes` as [`FailureNote::push_to`] writes them.
#[must_use]
pub fn with_notes(message: &str, notes: &[FailureNote]) -> String {
    let mut out = message.to_owned();
    for note in notes {
        note.push_to(&mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_follow_the_message_and_an_unknown_kind_reads_back_unchanged() {
        let span = TraceSpan {
            path: "t.jsonl".to_owned(),
            first: 5,
            last: 9,
            check_first: 5,
        };
        let notes = [
            FailureNote::trace(span, "trace: lines 5-9 of t.jsonl"),
            FailureNote::rerun(
                "fails-alone",
                "fails alone too; reproduce: x",
                Some("x".to_owned()),
            ),
        ];
        assert_eq!(
            with_notes("expected 3, got 4", &notes),
            "expected 3, got 4 [trace: lines 5-9 of t.jsonl]\n  fails alone too; reproduce: x"
        );
        let json = serde_json::to_string(&notes[1]).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"rerun","text":"fails alone too; reproduce: x","verdict":"fails-alone","reproduce":"x"}"#
        );
        let later: FailureNote =
            serde_json::from_str(r#"{"kind":"flaky-store","text":"t","extra":1}"#).unwrap();
        assert_eq!(later.kind, NoteKind::Unknown("flaky-store".to_owned()));
        assert_eq!(
            serde_json::to_string(&later).unwrap(),
            r#"{"kind":"flaky-store","text":"t"}"#
        );
    }
}
