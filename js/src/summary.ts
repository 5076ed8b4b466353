/**
 * What a test framework shows of a run besides each check's verdict, all
 * of it rendered from the binary's JSON report (docs/reports.md), never
 * read from its printed progress: the header before the tests (driver,
 * profile, seed, cases, corpus) and, after them, the run's time, the
 * conformance level, the totals and the failures that share one driver
 * error. The lines are the CLI's and the pytest plugin's
 * (python/tinymemory/testing/plugin.py, `summary_lines`), so the three
 * front ends say the same of one run.
 */

import type { DriverErrorRecord, FailureNote, Report, ReportConformance } from "./run.js";

/**
 * A failure's message followed by the notes the run added after its check
 * ended, as the text, JUnit and Markdown reports show them: a trace span
 * in brackets on the message's line, any other note (a rerun's verdict)
 * on an indented line of its own.
 */
export function withNotes(message: string, notes: readonly FailureNote[]): string {
  return notes.reduce((out, note) => (note.kind === "trace" ? `${out} [${note.text}]` : `${out}\n  ${note.text}`), message);
}

/** The header of a run: the tool, the driver, the profile, the seed and cases, and the corpus. */
export function headerLine(report: Pick<Report, "run">): string {
  const run = report.run;
  const profile = run.recall_profile ?? "lexical";
  const corpus =
    run.corpus === undefined
      ? "no corpus check selected"
      : run.corpus === "none"
        ? "no corpus: the corpus checks are skipped"
        : `corpus ${run.corpus.path} (${run.corpus.entries} entries in ${run.corpus.namespaces} namespaces, ${run.corpus.digest})`;
  return (
    `tinymemory-conformance ${run.tool_version}: driver ${run.driver_id}, ${profile} recall profile; ` +
    `seed ${run.seed}, ${run.cases} cases per property check; ${corpus}`
  );
}

/**
 * The CLI's conformance line for a report's `conformance`:
 * `conformance: FULL (lexical)`, `conformance: PARTIAL (lexical:
 * contract, sections)` naming the families that passed, `NONE (...)`; a
 * filtered run adds `, filtered` after the profile, checks that timed out
 * `; timed out: ID, ...`, and the run's score noise follows.
 */
export function conformanceLine(c: ReportConformance): string {
  const filtered = c.filtered ? ", filtered" : "";
  const late = c.timed_out && c.timed_out.length > 0 ? `; timed out: ${c.timed_out.join(", ")}` : "";
  const level = String(c.level);
  let line: string;
  if (level === "partial") {
    const passing = c.families.filter((f) => f.status === "pass").map((f) => f.family);
    line = `conformance: PARTIAL (${c.profile}${filtered}: ${passing.join(", ")}${late})`;
  } else {
    line = `conformance: ${level.toUpperCase()} (${c.profile}${filtered}${late})`;
  }
  if (c.score_noise) line += `, score noise ${c.score_noise.difference.toExponential(1)} in ${c.score_noise.check}`;
  return line;
}

/**
 * The CLI's last line, `N passed, N failed`, with `, N timed out` and `,
 * N skipped` when any: passes and expected failures pass, failures and
 * unexpected passes fail (docs/reports.md, "Text").
 */
export function totalsLine(counts: Report["counts"]): string {
  const parts = [`${counts.pass + counts.expected_failure} passed`, `${counts.fail + counts.unexpectedly_passing} failed`];
  if ((counts.timeout ?? 0) > 0) parts.push(`${counts.timeout} timed out`);
  if (counts.skip > 0) parts.push(`${counts.skip} skipped`);
  return parts.join(", ");
}

/** A driver error as the suite shows it: `backend failure: MESSAGE`, `invalid input (RULE): MESSAGE`, ... */
export function driverErrorText(e: DriverErrorRecord): string {
  if (e.kind === "invalid" && e.rule !== undefined) return `invalid input (${e.rule}): ${e.message}`;
  if (e.kind === "unavailable") return `unavailable: ${e.message}`;
  if (e.kind === "backend") return `backend failure: ${e.message}`;
  if (e.kind === "unsupported" && e.family !== undefined) return `unsupported (${e.family}): ${e.message}`;
  return e.message;
}

/** `N checks failed on the same error: ERROR (ID, ...)`, one line per error the report's `shared_errors` names, in its order. */
export function sharedErrorLines(report: Pick<Report, "shared_errors">): string[] {
  return (report.shared_errors ?? []).map(
    (g) => `${g.checks.length} checks failed on the same error: ${driverErrorText(g.error)} (${g.checks.join(", ")})`,
  );
}

/**
 * The lines after the tests: the run's time and its checks' own times
 * summed (larger when the binary ran checks side by side), the
 * conformance line, the totals, then the shared-error lines.
 */
export function summaryLines(report: Report): string[] {
  const n = report.checks.length;
  const own = report.checks.reduce((sum, c) => sum + (c.duration_ms ?? 0), 0) / 1000;
  return [
    `${n} check${n === 1 ? "" : "s"} in one run of ${(report.run.duration_ms / 1000).toFixed(2)}s (their own times sum to ${own.toFixed(2)}s)`,
    conformanceLine(report.conformance),
    totalsLine(report.counts),
    ...sharedErrorLines(report),
  ];
}
