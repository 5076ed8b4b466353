// conformance() before any run: a suite whose store cannot be found holds
// one failing test, driver_unavailable, saying why (an inner node --test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const nodeTest = new URL("../dist/node-test.js", import.meta.url).href;

function innerRun(body) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "tm-node-test-")));
  writeFileSync(join(dir, "inner.test.mjs"), `import { conformance } from ${JSON.stringify(nodeTest)};\n${body}\n`);
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const done = spawnSync(process.execPath, ["--test", "--test-reporter=tap", join(dir, "inner.test.mjs")], { env, encoding: "utf8" });
  return { dir, status: done.status, out: done.stdout };
}

test("a driver path that does not exist is named, relative to the test file", () => {
  const { dir, status, out } = innerRun('conformance({ driver: "./missing.js" });');
  assert.equal(status, 1);
  assert.match(out, /not ok 1 - driver_unavailable/);
  assert.ok(
    out.includes(`tinymemory conformance: ./missing.js: the driver "./missing.js" is ${dir}/missing.js, which does not exist (a relative path is read from the test file's directory, ${dir})`),
    out,
  );
});

test("driver and command together are refused, naming the two", () => {
  const { out } = innerRun('conformance({ driver: "./a.js", command: "python3 d.py" });');
  assert.ok(out.includes("set `driver` (the store's module) or `command` (a driver serving itself), one of the two"), out);
});

test("a seed out of range names the option", () => {
  const { out } = innerRun('conformance({ command: "true", seed: -1 });');
  assert.ok(out.includes("conformance({ seed }) is -1; expected a whole number from 0 to 18446744073709551615"), out);
});

// A broken environment is one message: a store whose every recall raises
// ImportError makes the binary stop at its third failing check (exit 5); the suite
// shows its message on the first test and skips the others.
const binary = process.env.TINYMEMORY_CONFORMANCE_BIN ?? new URL("../../target/debug/tinymemory-conformance", import.meta.url).pathname;
const missingNumpy = new URL("../../crates/tinymemory-cli/tests/drivers/missing_numpy_driver.py", import.meta.url).pathname;

test("a store whose every recall raises ImportError is one failing test naming what to install", { skip: !existsSync(binary) && `no binary at ${binary}` }, () => {
  const saved = { bin: process.env.TINYMEMORY_CONFORMANCE_BIN, keep: process.env.TINYMEMORY_KEEP_GOING };
  process.env.TINYMEMORY_CONFORMANCE_BIN = binary;
  delete process.env.TINYMEMORY_KEEP_GOING;
  try {
    const { out } = innerRun(`conformance({ command: ["python3", ${JSON.stringify(missingNumpy)}], profile: "lexical", corpus: false, cases: 4 });`);
    const failed = out.split("\n").filter((l) => /^\s+not ok \d+ - /.test(l));
    const skipped = out.split("\n").filter((l) => l.includes("# SKIP the driver's environment is broken;"));
    assert.equal(failed.length, 1, out);
    assert.ok(skipped.length > 30, out);
    assert.ok(out.includes("the driver's environment is broken: the first 3 checks to fail all failed on the same error: backend failure: ImportError: No module named 'numpy'"), out);
    assert.ok(out.includes("(`pip install numpy`, when the package has the module's name)"), out);
  } finally {
    if (saved.bin === undefined) delete process.env.TINYMEMORY_CONFORMANCE_BIN;
    else process.env.TINYMEMORY_CONFORMANCE_BIN = saved.bin;
    if (saved.keep !== undefined) process.env.TINYMEMORY_KEEP_GOING = saved.keep;
  }
});
