// What the package reads from the binary for programs (docs/reports.md):
// `hello --format json` for what a driver declared.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkedBinary } from "../dist/index.js";
import { RunError, hello } from "../dist/run.js";
import { scratchDir } from "./doubles/scratch.js";

const serve = fileURLToPath(new URL("../bin/tinymemory-serve.js", import.meta.url));

/** A store module declaring a profile, one optional op and independent stores; its methods are never called. */
function storeModule() {
  const path = join(scratchDir("tm-hello-"), "store.mjs");
  writeFileSync(
    path,
    `export default class Store {
  driverId = "tm-hello";
  recallProfile = "semantic";
  independentStores = true;
  reset() {} store() {} get() {} forget() {} list() {} namespaces() {} recall() {} storeMany() {}
}
`,
  );
  return path;
}

test("hello is what the binary's hello printed of the driver", () => {
  const declared = hello(checkedBinary(), [process.execPath, serve, storeModule()], process.env);
  assert.deepEqual(
    { ...declared, tool_version: undefined },
    {
      schema_version: 1,
      tool_version: undefined,
      protocol_version: 1,
      driver: "tm-hello",
      recall_profile: "semantic",
      ops: ["store_many"],
      independent_stores: true,
      interface: null,
    },
  );
});

test("a driver that does not answer is a RunError quoting the binary's error", () => {
  const command = ["sh", "-c", "echo cannot reach the index >&2; exit 3"];
  assert.throws(() => hello(checkedBinary(), command, process.env), (e) => {
    assert.ok(e instanceof RunError);
    const lines = e.message.split("\n");
    assert.equal(lines[0], "the driver `sh -c 'echo cannot reach the index >&2; exit 3'` did not answer hello (`tinymemory-conformance hello`: exit status 3):");
    assert.ok(lines[1].startsWith("  | error: failed to open the driver: "), e.message);
    assert.ok(lines.includes("  |   | cannot reach the index"), e.message);
    return true;
  });
});

test("hello asks the binary, with the driver as an exec: spec", () => {
  const dir = scratchDir("tm-hello-");
  const bin = join(dir, "tinymemory-conformance");
  writeFileSync(bin, `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(join(dir, "argv"))}\necho '{"recall_profile":"semantic","independent_stores":false}'\n`);
  chmodSync(bin, 0o755);
  assert.deepEqual(hello(bin, ["python3", "my driver.py"], process.env), { recall_profile: "semantic", independent_stores: false });
  assert.deepEqual(readFileSync(join(dir, "argv"), "utf8").split("\n"), [
    "hello",
    "--driver",
    "exec:python3 'my driver.py'",
    "--call-timeout",
    "60",
    "--format",
    "json",
    "",
  ]);
});
