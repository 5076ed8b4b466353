// Finding the binary: the variable, a binary of another version, the list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BinaryError, PLATFORM_PACKAGES, VERSION, checkedBinary, findBinary, listChecks, platformKey } from "../dist/index.js";

function fakeBinary(body) {
  const path = join(mkdtempSync(join(tmpdir(), "tm-bin-")), "tinymemory-conformance");
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

test("list output is parsed into checks in run order", () => {
  const bin = fakeBinary(`cat <<'X'
store.upsert                             contract     lexical, semantic  a second store replaces the first
recall.whole_words                       contract     lexical            a hit shares a whole word
2 of 2 checks apply to the lexical recall profile
X`);
  assert.deepEqual(listChecks(bin, "lexical"), [
    { id: "store.upsert", family: "contract", description: "a second store replaces the first" },
    { id: "recall.whole_words", family: "contract", description: "a hit shares a whole word" },
  ]);
  assert.throws(() => listChecks(fakeBinary("exit 2"), "lexical"), { name: "BinaryError" });
});

test("this machine has a platform key, and linux-x64 its package", () => {
  assert.match(platformKey(), /^[a-z0-9]+-[a-z0-9]+(-musl)?$/);
  assert.equal(PLATFORM_PACKAGES["linux-x64"], "tinymemory-conformance-linux-x64");
});
