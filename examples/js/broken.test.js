// The broken example fails exactly its documented checks, each with the
// whole message, and passes every other: broken.conformance.js runs under
// `node --test` in a process of its own (node:test's run() refuses to run
// inside a test file), and json-reporter.js gives its outcomes as JSON lines.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { EXPECTED_FAILURES } from "./broken-store.js";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));

function outcomes() {
  const env = { ...process.env };
  // This process is a test runner's child; the inner run is a runner of its own.
  delete env.NODE_TEST_CONTEXT;
  const done = spawnSync(
    process.execPath,
    ["--test", `--test-reporter=${here("./json-reporter.js")}`, here("./broken.conformance.js")],
    { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(done.status, 1, `the inner run must fail (exit 1): ${done.stderr}`);
  const passed = [];
  const failed = new Map();
  const skipped = [];
  for (const line of done.stdout.split("\n").filter(Boolean)) {
    const e = JSON.parse(line);
    if (e.nesting !== 1) continue;
    if (e.type === "test:fail") failed.set(e.name, e.message);
    else (e.skip ? skipped : passed).push(e.name);
  }
  return { passed, failed, skipped };
}

test("the broken store fails exactly its documented checks", () => {
  const { passed, failed, skipped } = outcomes();
  assert.deepEqual([...failed.keys()], EXPECTED_FAILURES);
  // corpus: false skips the two corpus checks of the lexical profile.
  assert.deepEqual(skipped, ["corpus.namespace_counts", "corpus.recall_own_words"]);
  assert.equal(passed.length + failed.size + skipped.length, 59);
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
  assert.match(message[3], /^  or: \S+ run --driver 'exec:\S+ \S+tinymemory-serve\.js \S+broken-store\.js' --profile lexical --no-corpus --check forget\.idempotent$/);

  const model = failed.get("model.differential");
  assert.match(model, /^model\.differential FAIL: step \d+ \(\w+\): /);
  assert.match(model, /\ncounterexample \(seed 8388357248759721216\): \{\n/);
});
