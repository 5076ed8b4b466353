/**
 * A node:test test's duration set to its check's own time, as the binary
 * measured it (the report's `duration_ms`), as the pytest plugin sets a
 * check item's call duration: node's clock would charge the whole run to
 * the first test and nothing to the others (or, while the checks run side
 * by side, each test the wait for the ones before it).
 *
 * node:test has no public way to set a duration. Its test body runs as
 * the test's own async resource (the Test object, whose `startTime` and
 * `endTime` are `process.hrtime.bigint()` values), and the runner keeps an
 * `endTime` set before the body returned (`postRun`: `this.endTime ??=
 * hrtime()`, in Node 20). Where either does not hold (another runtime, a
 * later Node), the test keeps node's own duration: the check's own time
 * is in its note (`check pass in 1.2 ms`) either way, and
 * test/node-test.test.js says when the two differ.
 */

import { executionAsyncResource } from "node:async_hooks";

interface Timed {
  startTime: bigint | null;
  endTime: bigint | null;
}

function isTimed(resource: unknown): resource is Timed {
  const r = resource as Partial<Timed> | null;
  return typeof r === "object" && r !== null && typeof r.startTime === "bigint" && "endTime" in r;
}

/**
 * Called first thing in a test's body (before any `await`, while the
 * body's resource is the test): a function that, called once the check's
 * time is known, makes it the test's duration in milliseconds. Does
 * nothing outside a node:test body.
 */
export function ownTime(): (milliseconds: number) => void {
  const test = executionAsyncResource();
  return (milliseconds) => {
    if (!isTimed(test) || !Number.isFinite(milliseconds) || milliseconds < 0) return;
    const end = process.hrtime.bigint();
    test.endTime = end;
    test.startTime = end - BigInt(Math.round(milliseconds * 1e6));
  };
}
