// What node:test and vitest show of a run besides each verdict, rendered
// from the JSON report (summary.ts), and the run options passed to the
// binary (run.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { conformanceLine, headerLine, sharedErrorLines, summaryLines, totalsLine, withNotes } from "../dist/summary.js";
import { jobsFor, runArgs } from "../dist/run.js";

const report = {
  schema_version: 1,
  run: { tool_version: "0.1.0", driver_id: "faulty", recall_profile: "semantic", seed: "42", cases: 8, duration_ms: 2500 },
  conformance: {
    level: "partial",
    profile: "semantic",
    families: [
      { family: "contract", status: "fail" },
      { family: "sections", status: "pass" },
      { family: "corpus", status: "incomplete" },
      { family: "portability", status: "pass" },
    ],
    timed_out: ["corpus.self_retrieval"],
  },
  counts: { total: 6, pass: 2, fail: 1, skip: 1, expected_failure: 1, unexpectedly_passing: 0, timeout: 1 },
  checks: [{ duration_ms: 1000 }, { duration_ms: 1250.5 }, { duration_ms: 0 }, { duration_ms: 1 }, { duration_ms: 2 }, { duration_ms: 3 }],
  shared_errors: [
    { error: { kind: "backend", message: "the index is offline" }, checks: ["recall.limit", "recall.min_score"] },
    { error: { kind: "invalid", rule: "namespace.charset", message: "bad namespace" }, checks: ["a.b", "c.d", "e.f"] },
    { error: { kind: "unsupported", family: "import", message: "no import" }, checks: ["a.b", "c.d"] },
    { error: { kind: "unavailable", message: "connection refused" }, checks: ["a.b", "c.d"] },
    { error: { kind: "a-kind-of-later", message: "as it is" }, checks: ["a.b", "c.d"] },
  ],
};

test("the header names the tool, driver, profile, seed, cases and corpus of the report", () => {
  assert.equal(
    headerLine(report),
    "tinymemory-conformance 0.1.0: driver faulty, semantic recall profile; seed 42, 8 cases per property check; no corpus check selected",
  );
  assert.ok(headerLine({ run: { ...report.run, corpus: "none" } }).endsWith("; no corpus: the corpus checks are skipped"));
  const corpus = { path: "fixtures/corpora", digest: "sha256:3c1d", entries: 22688, namespaces: 272 };
  assert.ok(headerLine({ run: { ...report.run, corpus } }).endsWith("; corpus fixtures/corpora (22688 entries in 272 namespaces, sha256:3c1d)"));
});

test("the conformance line is the CLI's: the passing families, filtered, timed out, score noise", () => {
  assert.equal(conformanceLine(report.conformance), "conformance: PARTIAL (semantic: sections, portability; timed out: corpus.self_retrieval)");
  assert.equal(
    conformanceLine({ level: "none", profile: "lexical", families: [], filtered: true, score_noise: { difference: 2.220446049250313e-16, check: "properties.cap_determinism" } }),
    "conformance: NONE (lexical, filtered), score noise 2.2e-16 in properties.cap_determinism",
  );
  assert.equal(conformanceLine({ level: "full", profile: "lexical", families: [{ family: "contract", status: "pass" }] }), "conformance: FULL (lexical)");
});

test("the totals are the CLI's last line: expected failures pass, unexpected passes fail", () => {
  assert.equal(totalsLine(report.counts), "3 passed, 1 failed, 1 timed out, 1 skipped");
  assert.equal(totalsLine({ total: 2, pass: 1, fail: 0, skip: 0, expected_failure: 0, unexpectedly_passing: 1 }), "1 passed, 1 failed");
});

test("each shared error is one line naming its checks, the error shown as the suite shows a driver error", () => {
  assert.deepEqual(sharedErrorLines(report), [
    "2 checks failed on the same error: backend failure: the index is offline (recall.limit, recall.min_score)",
    "3 checks failed on the same error: invalid input (namespace.charset): bad namespace (a.b, c.d, e.f)",
    "2 checks failed on the same error: unsupported (import): no import (a.b, c.d)",
    "2 checks failed on the same error: unavailable: connection refused (a.b, c.d)",
    "2 checks failed on the same error: as it is (a.b, c.d)",
  ]);
  assert.deepEqual(sharedErrorLines({}), []);
});

test("the summary: the run's time and its checks' own, the level, the totals, the shared errors", () => {
  assert.deepEqual(summaryLines(report).slice(0, 3), [
    "6 checks in one run of 2.50s (their own times sum to 2.26s)",
    "conformance: PARTIAL (semantic: sections, portability; timed out: corpus.self_retrieval)",
    "3 passed, 1 failed, 1 timed out, 1 skipped",
  ]);
  assert.equal(summaryLines(report).length, 3 + report.shared_errors.length);
});

test("a failure's notes follow its message: a trace span on its line, a rerun's verdict on a line of its own", () => {
  assert.equal(
    withNotes("expected 3, got 5", [
      { kind: "trace", text: "trace: lines 5-9 of t.jsonl" },
      { kind: "rerun", text: "fails alone too; reproduce: tinymemory-conformance run ..", verdict: "fails-alone" },
      { kind: "a-later-kind", text: "(said as it is)" },
    ]),
    "expected 3, got 5 [trace: lines 5-9 of t.jsonl]\n  fails alone too; reproduce: tinymemory-conformance run ..\n  (said as it is)",
  );
  assert.equal(withNotes("m", []), "m");
});

const settings = {
  binary: "tinymemory-conformance",
  command: ["python3", "d.py"],
  env: {},
  profile: "lexical",
  selected: null,
  corpus: null,
  seed: null,
  cases: null,
  timeout: null,
  callTimeout: null,
  jobs: null,
  bundleDir: null,
};

test("callTimeout and jobs reach the binary as --call-timeout and --jobs, and nothing when unset", () => {
  assert.deepEqual(runArgs(settings), ["run", "--driver", "exec:python3 d.py", "--profile", "lexical", "--no-corpus"]);
  assert.deepEqual(runArgs({ ...settings, callTimeout: 120, jobs: 3 }).slice(6), ["--call-timeout", "120", "--jobs", "3"]);
});

test("a driver declaring independent stores runs on every core, any other on the binary's default, a traced one too", () => {
  assert.equal(jobsFor({ independent_stores: true }, {}), availableParallelism());
  assert.equal(jobsFor({ independent_stores: false }, {}), null);
  assert.equal(jobsFor({ independent_stores: true }, { TINYMEMORY_TRACE: "run.jsonl" }), null);
  assert.equal(jobsFor({ independent_stores: true }, { TINYMEMORY_TRACE: "" }), availableParallelism());
});
