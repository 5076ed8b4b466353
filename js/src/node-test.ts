/**
 * The conformance suite as node:test tests: one test per check, named by
 * the check's id, in a suite of its own.
 *
 *     import { conformance } from "tinymemory-conformance/node-test";
 *     conformance({ driver: "./my-store.js", profile: "semantic" });
 *
 * `node --test` then passes a passing check, fails a failing one with the
 * check's whole message (rule, input, what the store returned, the seed,
 * a command reproducing it) and skips a skipped one with its reason.
 * `--test-name-pattern 'recall\\.'` runs only the matching checks. The
 * binary runs once per `conformance()` call, over the checks selected,
 * before the first of them (which prints the run's header); each test is
 * reported as its check finishes, with the check's own duration, and the
 * last carries the run's level, totals and shared errors as diagnostics.
 */

import { before, describe, it, type TestContext } from "node:test";
import { ownTime } from "./own-time.js";
import { currentPatterns } from "./selection.js";
import { shellQuote } from "./shell.js";
import { declareSuite, type ConformanceOptions, type Framework } from "./suite.js";

export { CheckFailed, UNAVAILABLE, type ConformanceOptions } from "./suite.js";

const nodeTest: Framework<TestContext> = {
  describe: (name, body) => void describe(name, body),
  before: (body) => void before(body),
  // Printed by the test process: node --test's reporters show it before the suite's tests.
  print: (line) => void process.stdout.write(line + "\n"),
  ownTime,
  it: (name, body, timeoutMs) => void it(name, { timeout: timeoutMs }, body),
  skip: (t, reason) => t.skip(reason),
  todo: (t, reason) => t.todo(reason),
  note: (t, message) => t.diagnostic(message),
  patterns: () => currentPatterns(),
  alone: (id, file) => `node --test --test-name-pattern=${shellQuote(`^${id}$`)} ${file}`,
  inheritNodeFlags: true,
};

/**
 * Declares one node:test suite for the store, with one test per check of
 * its profile (`tinymemory-conformance list --profile P`). Call it at the
 * top level of a test file. When the binary cannot be found or the store
 * does not start, the suite holds one failing test, `driver_unavailable`,
 * saying why.
 */
export function conformance(options: ConformanceOptions): void {
  declareSuite(options, nodeTest);
}
