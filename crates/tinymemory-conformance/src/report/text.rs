//! The human text form: one line per check, then the level and the
//! closing line.

use std::fmt::Write as _;

use super::build::duration;
use super::escape::visible;
use super::{CheckEntry, OutcomeKind, Report};

/// Continuation lines (multi-line messages, counterexamples) are indented
/// to sit under the check id.
const INDENT: &str = "      ";

impl OutcomeKind {
    /// The ANSI colour code of the tag: green for pass, red for the kinds
    /// that fail the run (an unknown outcome too), yellow for skip and
    /// expected failure.
    fn colour(&self) -> &'static str {
        match self {
            Self::Pass => "32",
            Self::Fail | Self::UnexpectedlyPassing | Self::Timeout | Self::Unknown(_) => "31",
            Self::Skip | Self::ExpectedFailure => "33",
        }
    }
}

impl CheckEntry {
    /// The check as text: `PASS  store.upsert (contract, 1.2ms)`, then `: `
    /// and the message for the other kinds, then indented lines for the
    /// rest of a multi-line message and for a counterexample. No trailing
    /// newline. With `colour`, the tag is wrapped in ANSI colour codes
    /// (callers pass `true` only for a terminal).
    ///
    /// Control characters in the id, the family and messages (a report
    /// read from a file may hold any) are shown as `\u{..}` escapes.
    #[must_use]
    pub fn text_line(&self, colour: bool) -> String {
        let tag = self.outcome.tag();
        let mut out = if colour {
            format!("\x1b[{}m{tag}\x1b[0m", self.outcome.colour())
        } else {
            tag.to_owned()
        };
        let _ = write!(
            out,
            "  {} ({}, {:.1?})",
            visible(&self.id),
            visible(&self.family),
            duration(self.duration_ms)
        );
        let message = self.message_with_notes().map(std::borrow::Cow::into_owned);
        let detail = match (&self.outcome, &message, &self.reason) {
            (OutcomeKind::Unknown(_), m, _) => {
                let note = self.outcome.unknown_note().unwrap_or_default();
                Some(match m {
                    Some(m) => format!("{note}: {m}"),
                    None => note,
                })
            }
            (OutcomeKind::ExpectedFailure, Some(m), Some(r)) => {
                Some(format!("{m} (expected failure: {r})"))
            }
            (OutcomeKind::UnexpectedlyPassing, _, Some(r)) => {
                Some(format!("passed, but was declared an expected failure: {r}"))
            }
            (_, Some(m), _) => Some(m.clone()),
            (_, None, _) => None,
        };
        if let Some(d) = detail {
            out.push_str(": ");
            push_indented(&mut out, &visible(&d));
        }
        if let Some(cx) = &self.counterexample {
            let _ = write!(out, "\n{INDENT}counterexample (seed {}): ", cx.seed);
            push_indented(&mut out, &visible(&cx.input));
        }
        out
    }
}

/// Appends `text`, indenting every line after the first.
fn push_indented(out: &mut String, text: &str) {
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(INDENT);
        }
        out.push_str(line);
    }
}

impl Report {
    /// The first line of a text report: tool and version, driver (and its
    /// version), recall profile, seed, cases, start time and duration:
    /// `tinymemory-conformance 0.1.0 against sqlite (tinymemory-sqlite
    /// 0.1.0), lexical recall profile: seed 42, 32 cases per property,
    /// started 2025-01-31T12:00:00Z, took 2.3s`.
    #[must_use]
    pub fn text_header(&self) -> String {
        let r = &self.run;
        let version = r
            .driver_version
            .as_deref()
            .map_or_else(String::new, |v| format!(" ({})", visible(v)));
        // Every field a report read back (merge, diff) may carry is
        // escaped: a forged shard's ESC must not reach the terminal.
        format!(
            "{} {} against {}{version}, {} recall profile: seed {}, {} cases per property, started {}, took {:.1?}",
            visible(&r.tool),
            visible(&r.tool_version),
            visible(&r.driver_id),
            r.recall_profile,
            r.seed,
            r.cases,
            visible(&r.started_at),
            duration(r.duration_ms)
        )
    }

    /// The line after the header naming the corpus the run measured:
    /// `corpus: fixtures/corpora (22688 entries in 272 namespaces,
    /// sha256:..)` or `corpus: none (--no-corpus)`, control characters
    /// escaped (a report read back may hold any); `None` when the report
    /// does not say (no corpus check was selected, or an older report).
    #[must_use]
    pub fn corpus_line(&self) -> Option<String> {
        self.run
            .corpus
            .as_ref()
            .map(|c| format!("corpus: {}", visible(&c.describe())))
    }

    /// The conformance line: `conformance: FULL (lexical)` (or
    /// `PARTIAL (..)`, `NONE (..)`), always naming the profile.
    #[must_use]
    pub fn conformance_line(&self) -> String {
        format!("conformance: {}", self.conformance)
    }

    /// The whole report as text: [`Report::text_header`] and
    /// [`Report::corpus_line`] when there is one, one
    /// [`CheckEntry::text_line`] per check, the conformance line, and the
    /// closing line `N passed, N failed[, N skipped]` last; every line ends
    /// with a newline.
    #[must_use]
    pub fn to_text(&self, colour: bool) -> String {
        let mut out = self.text_header();
        out.push('\n');
        if let Some(corpus) = self.corpus_line() {
            out.push_str(&corpus);
            out.push('\n');
        }
        for c in &self.checks {
            out.push_str(&c.text_line(colour));
            out.push('\n');
        }
        out.push_str(&self.conformance_line());
        out.push('\n');
        out.push_str(&self.closing_line());
        out.push('\n');
        out
    }
}
