/**
 * The conformance suite as vitest tests: one test per check, named by the
 * check's id, in a suite of its own, as `tinymemory-conformance/node-test`
 * does for node:test.
 *
 *     import { conformance } from "tinymemory-conformance/vitest";
 *     conformance({ driver: "./my-store.js" });
 *
 * `vitest run` then passes a passing check, fails a failing one with the
 * check's whole message, and skips a skipped one with its reason. `-t
 * 'recall\.'` runs only the matching checks: the binary runs once per
 * `conformance()` call over the checks the pattern selects (read from
 * vitest's worker state, `testNamePattern`; a check it did not foresee gets
 * a run of its own). vitest is a peer dependency of this entry only.
 */

import { beforeAll, describe, it, type TestContext } from "vitest";
import type { Patterns } from "./selection.js";
import { shellQuote } from "./shell.js";
import { declareSuite, type ConformanceOptions, type Framework } from "./suite.js";

export { CheckFailed, UNAVAILABLE, type ConformanceOptions } from "./suite.js";

/** The `-t` pattern of this vitest run, from its worker state (no public API gives it to a test file). */
function vitestPatterns(): Patterns {
  const pattern = (globalThis as { __vitest_worker__?: { config?: { testNamePattern?: unknown } } }).__vitest_worker__?.config
    ?.testNamePattern;
  if (pattern instanceof RegExp) return { names: [pattern], skips: [] };
  if (typeof pattern === "string" && pattern !== "") {
    try {
      return { names: [new RegExp(pattern)], skips: [] };
    } catch {
      return { names: [], skips: [] };
    }
  }
  return { names: [], skips: [] };
}

const vitest: Framework<TestContext> = {
  describe: (name, body) => void describe(name, body),
  // No timeout of vitest's own: the run's deadline bounds it.
  before: (body) => void beforeAll(body, 0),
  print: (line) => console.log(line),
  it: (name, body, timeoutMs) => void it(name, body, timeoutMs),
  // ctx.skip throws to end the test: nothing of the body follows it.
  skip: (ctx, reason) => ctx.skip(reason),
  todo: (ctx, reason) => ctx.skip(`todo: ${reason}`),
  note: (ctx, message) => void ctx.annotate(message),
  patterns: vitestPatterns,
  alone: (id, file) => `npx vitest run ${file} -t ${shellQuote(`${id}$`)}`,
  // vitest's workers run with flags of its own (--conditions development,
  // its warning filter): a driver process is plain node.
  inheritNodeFlags: false,
};

/**
 * Declares one vitest suite for the store, with one test per check of its
 * profile. Call it at the top level of a test file. When the binary cannot
 * be found or the store does not start, the suite holds one failing test,
 * `driver_unavailable`, saying why.
 */
export function conformance(options: ConformanceOptions): void {
  declareSuite(options, vitest);
}
