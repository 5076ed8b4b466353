/**
 * What a test framework shows of a run besides each check's verdict, all
 * of it read from the run's event stream (docs/reports.md, "Event
 * stream"), never from its printed progress: the header before the tests
 * (the console's first line, which names the driver, the profile, the
 * seed and the cases, then the corpus and the jobs) and, after them, the
 * run's time, the conformance level, the totals, the failures that share
 * one driver error (the console's own lines, as `run-finished` gives
 * them) and what the reruns found, so the CLI, the pytest plugin and
 * node:test say the same of one run.
 */

import type { FailureNote, RunResult, RunStarted } from "./run.js";

/**
 * A failure's message followed by the notes the run added after its check
 * ended, as the text, JUnit and Markdown reports show them: a trace span
 * in brackets on the message's line, any other note (a rerun's verdict)
 * on an indented line of its own.
 */
export function withNotes(message: string, notes: readonly FailureNote[]): string {
  return notes.reduce((out, note) => (note.kind === "trace" ? `${out} [${note.text}]` : `${out}\n  ${note.text}`), message);
}

/** The header of a run from its plan: the console's first line, then the corpus and how many checks run at once. */
export function headerLines(plan: RunStarted): string[] {
  const corpus =
    plan.corpus === null ? "no corpus check selected" : plan.corpus === "none" ? "no corpus: the corpus checks are skipped" : `corpus: ${plan.corpus.path}`;
  const n = plan.checks.length;
  return [plan.header, `${corpus}; ${n} check${n === 1 ? "" : "s"}, ${plan.jobs} at once`];
}

/**
 * The lines after the tests: the run's time and its checks' own times
 * summed (larger when the binary ran checks side by side), the
 * conformance line, the totals, the shared-error lines, then the verdict
 * of each failure the run reran alone, by its check. Only the first when the run gave no `run-finished`.
 */
export function summaryLines(result: RunResult): string[] {
  const entries = [...result.checks.values()];
  const n = entries.length;
  const own = entries.reduce((sum, c) => sum + (c.duration_ms ?? 0), 0) / 1000;
  const seconds = (result.finished?.duration_ms ?? result.report.run.duration_ms) / 1000;
  const lines = [`${n} check${n === 1 ? "" : "s"} in one run of ${seconds.toFixed(2)}s (their own times sum to ${own.toFixed(2)}s)`];
  const finished = result.finished;
  if (finished === null) return lines;
  lines.push(finished.lines.conformance, finished.lines.closing, ...finished.lines.shared_errors);
  for (const entry of result.updated) {
    for (const note of entry.notes ?? []) if (note.kind === "rerun") lines.push(`${entry.id}: ${note.text}`);
  }
  return lines;
}
