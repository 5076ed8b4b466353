// Finding the binary: the variable, a binary of another version, the list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BinaryError, PLATFORM_PACKAGES, VERSION, checkedBinary, findBinary, listChecks, listing, platformKey } from "../dist/index.js";
import { deadline } from "../dist/run.js";
import { scratchDir } from "./doubles/scratch.js";

function fakeBinary(body) {
  const path = join(scratchDir("tm-bin-"), "tinymemory-conformance");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function withEnv(name, value, f) {
  const before = process.env[name];
  process.env[name] = value;
  try {
    return f();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

test("TINYMEMORY_CONFORMANCE_BIN names the binary, and must be an executable file", () => {
  const bin = fakeBinary("exit 0");
  assert.equal(withEnv("TINYMEMORY_CONFORMANCE_BIN", bin, findBinary), bin);
  assert.throws(() => withEnv("TINYMEMORY_CONFORMANCE_BIN", "/no/such/file", findBinary), {
    name: "BinaryError",
    message: 'TINYMEMORY_CONFORMANCE_BIN is "/no/such/file", which is not an executable file',
  });
});

test("a binary of another version is refused, naming both", () => {
  const bin = fakeBinary('echo "tinymemory-conformance 9.9.9"');
  assert.throws(() => checkedBinary(bin), (e) => {
    assert.ok(e instanceof BinaryError);
    assert.ok(e.message.startsWith(`${bin} is tinymemory-conformance 9.9.9, but the tinymemory-conformance package is ${VERSION}: `), e.message);
    return true;
  });
});

test("a program that is not the binary is refused with what it said", () => {
  const bin = fakeBinary("echo hello; exit 3");
  assert.throws(() => checkedBinary(bin), (e) => {
    assert.ok(e.message.startsWith(`${bin} is not a usable tinymemory-conformance: \`--version\` exited 3 saying "hello"; `), e.message);
    return true;
  });
});

/** A `list --format json` document of two checks, one a property check. */
const LISTING = {
  schema_version: 1,
  tool: "tinymemory-conformance",
  tool_version: VERSION,
  protocol_version: 1,
  profile: "lexical",
  defaults: { check_timeout_ms: 60000, request_allowance_ms: 1000, property_time_per_case_ms: 250, cases: 64, call_timeout_ms: 30000 },
  exit_codes: { success: 0, failures: 1, usage: 2, setup: 3, no_checks_ran: 4 },
  checks: [
    {
      id: "store.upsert",
      family: "contract",
      profiles: ["lexical", "semantic"],
      rule: "a second store replaces the first",
      usual_mistake: "an append-only index",
      budget: { base_ms: 60000, per_request_ms: 1000, per_case_ms: null },
    },
    {
      id: "property.model",
      family: "property",
      profiles: ["lexical"],
      rule: "agrees with the model",
      usual_mistake: "anything",
      budget: { base_ms: 60000, per_request_ms: 1000, per_case_ms: 250 },
    },
    {
      id: "interface.x.get",
      family: "interface",
      needs_interface: true,
      profiles: ["lexical", "semantic"],
      rule: "get answers what was added",
      usual_mistake: null,
      budget: { base_ms: 60000, per_request_ms: 1000, per_case_ms: null },
    },
  ],
};

test("list --format json is read into checks in run order", () => {
  // Answers only the JSON listing: the text one would fail the test.
  const bin = fakeBinary(`[ "$*" = "list --profile lexical --format json" ] || exit 2
cat <<'X'
${JSON.stringify(LISTING)}
X`);
  assert.deepEqual(listChecks(bin, "lexical"), [
    { id: "store.upsert", family: "contract", description: "a second store replaces the first", needsInterface: false },
    { id: "property.model", family: "property", description: "agrees with the model", needsInterface: false },
    { id: "interface.x.get", family: "interface", description: "get answers what was added", needsInterface: true },
  ]);
  assert.deepEqual(listing(bin, "lexical"), LISTING);
  assert.throws(() => listChecks(fakeBinary("exit 2"), "lexical"), { name: "BinaryError" });
  assert.throws(() => listChecks(fakeBinary("echo 'store.upsert  contract  lexical  text'"), "lexical"), { name: "BinaryError" });
});

test("the deadline is each selected check's budget from the listing, plus the run's overhead", () => {
  // 600 s of overhead; a contract check its base; a property check the
  // larger of its base and 0.25 s per case.
  assert.equal(deadline(LISTING, ["store.upsert", "property.model"], null, null), 600 + 60 + 60);
  assert.equal(deadline(LISTING, ["store.upsert", "property.model"], null, 1000), 600 + 60 + 250);
  assert.equal(deadline(LISTING, ["store.upsert"], 5, 1000), 600 + 5);
  assert.equal(deadline(LISTING, ["property.model"], 5, 8), 600 + 5);
  const slower = structuredClone(LISTING);
  slower.checks[0].budget.base_ms = 90000;
  assert.equal(deadline(slower, ["store.upsert"], null, null), 600 + 90);
});

test("this machine has a platform key, and linux-x64 its package", () => {
  assert.match(platformKey(), /^[a-z0-9]+-[a-z0-9]+(-musl)?$/);
  assert.equal(PLATFORM_PACKAGES["linux-x64"], "tinymemory-conformance-linux-x64");
});
