// What node:test and vitest show of a run besides each verdict, read from
// its event stream (summary.ts), and the run options passed to the binary
// (run.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { headerLines, summaryLines, withNotes } from "../dist/summary.js";
import { MAX_JOBS, jobsFor, runArgs } from "../dist/run.js";

const plan = {
  event: "run-started",
  header: "tinymemory-conformance 0.1.0 against exec `python3 d.py` (driver d, protocol version 1), lexical recall profile; seed 42, 8 cases",
  profile: "lexical",
  seed: "42",
  cases: 8,
  jobs: 2,
  corpus: "none",
  reruns: true,
  checks: [
    { id: "store.upsert", family: "contract" },
    { id: "recall.limit", family: "contract" },
  ],
};

test("the header is the console's first line, then the corpus and the jobs of the plan", () => {
  assert.deepEqual(headerLines(plan), [plan.header, "no corpus: the corpus checks are skipped; 2 checks, 2 at once"]);
  assert.equal(headerLines({ ...plan, corpus: null, jobs: 1, checks: plan.checks.slice(1) })[1], "no corpus check selected; 1 check, 1 at once");
  assert.equal(headerLines({ ...plan, corpus: { path: "fixtures/corpora" } })[1], "corpus: fixtures/corpora; 2 checks, 2 at once");
});

const entry = (id, duration_ms, notes) => ({ id, duration_ms, outcome: "fail", notes });

test("the summary: the run's time and its checks' own, then the console's last lines and each rerun's verdict", () => {
  const result = {
    checks: new Map([
      ["store.upsert", entry("store.upsert", 1000)],
      ["recall.limit", entry("recall.limit", 1250.25)],
    ]),
    report: { run: { duration_ms: 9 } },
    finished: {
      duration_ms: 2500,
      lines: {
        conformance: "conformance: NONE (lexical)",
        closing: "0 passed, 2 failed",
        shared_errors: ["2 checks failed on the same error: backend failure: offline (store.upsert, recall.limit)"],
      },
    },
    updated: [
      entry("recall.limit", 1250.25, [
        { kind: "trace", text: "trace: lines 5-9 of t.jsonl" },
        { kind: "rerun", text: "fails alone too; reproduce: ..", verdict: "fails-alone" },
      ]),
      entry("store.upsert", 1000, [{ kind: "not-rerun", text: "(not rerun alone: ..)" }]),
    ],
  };
  assert.deepEqual(summaryLines(result), [
    "2 checks in one run of 2.50s (their own times sum to 2.25s)",
    "conformance: NONE (lexical)",
    "0 passed, 2 failed",
    "2 checks failed on the same error: backend failure: offline (store.upsert, recall.limit)",
    "recall.limit: fails alone too; reproduce: ..",
  ]);
  // A run whose stream had no end: its time from the report, nothing else.
  assert.deepEqual(summaryLines({ ...result, finished: null }), ["2 checks in one run of 0.01s (their own times sum to 2.25s)"]);
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

test("more cores than the binary takes run its largest --jobs, 1024", () => {
  // The binary refuses --jobs above 1024 (each job may hold a store, an
  // exec driver's process): a machine with more cores must not fail every
  // test with a flag the user never gave.
  assert.equal(MAX_JOBS, 1024);
  assert.equal(jobsFor({ independent_stores: true }, {}, 4096), 1024);
  assert.equal(jobsFor({ independent_stores: true }, {}, 1024), 1024);
  assert.equal(jobsFor({ independent_stores: true }, {}, 0), 1);
  assert.equal(jobsFor({ independent_stores: false }, {}, 4096), null);
});
