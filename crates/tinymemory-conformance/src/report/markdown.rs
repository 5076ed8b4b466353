//! Markdown, for pasting a run into an issue or a pull request.

use std::fmt::Write as _;

use super::build::duration;
use super::escape::{markdown_cell, markdown_code, markdown_fence};
use super::{CheckEntry, OutcomeKind, Report};

impl Report {
    /// The report as GitHub-flavoured Markdown (trailing newline):
    ///
    /// - a heading naming the driver and the conformance level;
    /// - a two-column table of the run metadata;
    /// - the closing line in bold;
    /// - a table of every check (outcome, id, family, duration, the first
    ///   line of the message);
    /// - a `Failures` section (when any check failed, unexpectedly passed,
    ///   timed out or failed as expected) with each full message, the
    ///   counterexample and its seed in fenced blocks.
    ///
    /// Table cells escape `|`, backticks, emphasis and HTML; fenced blocks
    /// use a fence longer than any backtick run inside.
    #[must_use]
    pub fn to_markdown(&self) -> String {
        let r = &self.run;
        let mut out = format!(
            "## tinymemory conformance: {} — {}\n\n",
            markdown_code(&r.driver_id),
            self.conformance
        );
        out.push_str("| run | |\n|---|---|\n");
        let mut row = |k: &str, v: String| {
            let _ = writeln!(out, "| {k} | {} |", markdown_cell(&v));
        };
        row("tool", format!("{} {}", r.tool, r.tool_version));
        row("driver", r.driver_id.clone());
        if let Some(spec) = &r.driver_spec {
            row("driver spec", spec.clone());
        }
        row(
            "driver version",
            r.driver_version.clone().unwrap_or_else(|| "unknown".into()),
        );
        row("recall profile", r.recall_profile.to_string());
        row("seed", r.seed.to_string());
        row("cases per property", r.cases.to_string());
        if let Some(corpus) = &r.corpus {
            row("corpus", corpus.describe());
        }
        row("started", r.started_at.clone());
        row("duration", format!("{:.1?}", duration(r.duration_ms)));
        if let Some(noise) = &self.conformance.score_noise {
            row(
                "score noise",
                format!("{:e} in {}: {}", noise.difference, noise.check, noise.at),
            );
        }
        let _ = writeln!(out, "\n**{}**\n", self.closing_line());
        out.push_str("| outcome | check | family | duration | message |\n|---|---|---|---|---|\n");
        for c in &self.checks {
            let xpass;
            let message = c.message_with_notes();
            let first = match (&c.outcome, &c.reason) {
                (OutcomeKind::UnexpectedlyPassing, Some(r)) => {
                    xpass = format!("passed, but was declared an expected failure: {r}");
                    Some(xpass.as_str())
                }
                (OutcomeKind::Unknown(_), _) => {
                    xpass = c.outcome.unknown_note().unwrap_or_default();
                    Some(xpass.as_str())
                }
                _ => message.as_deref().and_then(|m| m.lines().next()),
            };
            let _ = writeln!(
                out,
                "| {} {} | `{}` | {} | {:.1?} | {} |",
                emoji(&c.outcome),
                outcome_cell(&c.outcome),
                c.id.replace('`', "'"),
                markdown_cell(&c.family),
                duration(c.duration_ms),
                markdown_cell(first.unwrap_or_default())
            );
        }
        let failed: Vec<&CheckEntry> = self
            .checks
            .iter()
            .filter(|c| c.outcome.is_fail() || c.outcome == OutcomeKind::ExpectedFailure)
            .collect();
        if !failed.is_empty() {
            out.push_str("\n### Failures\n");
            for c in failed {
                write_failure(&mut out, c);
            }
        }
        out
    }
}

fn write_failure(out: &mut String, c: &CheckEntry) {
    let _ = write!(
        out,
        "\n#### `{}` ({})\n\n**Expected:** {}\n\n",
        c.id.replace('`', "'"),
        outcome_cell(&c.outcome),
        markdown_cell(&c.description)
    );
    let reason = c.reason.as_deref().unwrap_or_default();
    match c.outcome {
        OutcomeKind::UnexpectedlyPassing => {
            let _ = writeln!(
                out,
                "**Actual:** passed, but was declared an expected failure: {}",
                markdown_cell(reason)
            );
        }
        _ => {
            if c.outcome == OutcomeKind::ExpectedFailure {
                let _ = write!(
                    out,
                    "**Declared expected failure:** {}\n\n",
                    markdown_cell(reason)
                );
            }
            out.push_str("**Actual:**\n\n");
            out.push_str(&markdown_fence(
                c.message_with_notes().unwrap_or_default().as_ref(),
            ));
        }
    }
    if let Some(cx) = &c.counterexample {
        let _ = write!(out, "\n**Counterexample** (seed `{}`):\n\n", cx.seed);
        out.push_str(&markdown_fence(&cx.input));
    }
}

/// The outcome's JSON spelling; an unknown one (text read from a file)
/// escaped as a cell.
fn outcome_cell(kind: &OutcomeKind) -> String {
    match kind {
        OutcomeKind::Unknown(text) => markdown_cell(text),
        known => known.as_str().to_owned(),
    }
}

fn emoji(kind: &OutcomeKind) -> &'static str {
    match kind {
        OutcomeKind::Pass => "✅",
        OutcomeKind::Fail => "❌",
        OutcomeKind::Skip => "⏭️",
        OutcomeKind::ExpectedFailure => "⚠️",
        OutcomeKind::UnexpectedlyPassing => "❗",
        OutcomeKind::Timeout => "⏱️",
        OutcomeKind::Unknown(_) => "❓",
    }
}
