// The broken example fails exactly its documented checks, each with the
// whole message, and passes every other (inner-run.js runs
// broken.conformance.js under node --test of its own).
import { test } from "node:test";
import assert from "node:assert/strict";
import { EXPECTED_FAILURES } from "./broken-store.js";
import { innerRun } from "./inner-run.js";
import { checkedBinary, listChecks } from "tinymemory-conformance";

test("the broken store fails exactly its documented checks", () => {
  const { passed, failed, skipped, status, stderr } = innerRun("./broken.conformance.js");
  assert.equal(status, 1, `the inner run must fail (exit 1): ${stderr}`);
  assert.deepEqual([...failed.keys()], EXPECTED_FAILURES);
  // Every lexical check of this build is one test (`tinymemory-conformance list --profile lexical`),
  // and corpus: false skips those of the corpus family; those that need a
  // framework interface are skipped too (the store serves none).
  const lexical = listChecks(checkedBinary(), "lexical");
  assert.deepEqual(
    skipped,
    lexical.filter((c) => c.family === "corpus" || c.needsInterface).map((c) => c.id),
  );
  assert.deepEqual(
    [...passed, ...failed.keys(), ...skipped].sort(),
    lexical.map((c) => c.id).sort(),
  );
  assert.ok(passed.includes("store.upsert") && passed.includes("portability.round_trip"));

  const message = failed.get("forget.idempotent").split("\n");
  assert.equal(message[0], "forget.idempotent FAIL: second forget of the same key: expected false, got true");
  assert.equal(
    message[1],
    "rule (contract): forget returns true then false, and the entry is gone from get, list, namespaces and recall",
  );
  assert.match(
    message[2],
    /^seed 8388357248759721216, 64 cases; this check alone: TINYMEMORY_SEED=8388357248759721216 node --test --test-name-pattern='\^forget\\\.idempotent\$' \S*broken\.conformance\.js$/,
  );
  // --jobs: the cores of this machine, which a store declaring independent stores runs on.
  assert.match(message[3], /^  or: \S+ run --driver 'exec:\S+ \S+tinymemory-serve\.js \S+broken-store\.js' --profile lexical --no-corpus --jobs [1-9]\d* --check forget\.idempotent$/);

  const model = failed.get("model.differential");
  assert.match(model, /^model\.differential FAIL: step \d+ \(\w+\): /);
  assert.match(model, /\ncounterexample \(seed 8388357248759721216\): \{\n/);
});
