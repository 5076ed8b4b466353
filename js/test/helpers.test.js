// The test integration's helpers: name-pattern selection, shell words,
// and the JS-only protocol helpers the shared table does not cover.
import { test } from "node:test";
import assert from "node:assert/strict";
import { currentPatterns, selected } from "../dist/selection.js";
import { shellJoin, shellSplit } from "../dist/shell.js";
import { compareTimestamps, isBlank, nowRfc3339, isRfc3339, validateNamespace } from "../dist/protocol/index.js";

test("patterns are read from execArgv as node reads them, regex literals included", () => {
  const p = currentPatterns(["--test-name-pattern=recall\\.", "--test-name-pattern", "/^STORE\\./i", "--test-skip-pattern=limit"]);
  assert.deepEqual(p.names.map(String), ["/recall\\./", "/^STORE\\./i"]);
  assert.deepEqual(p.skips.map(String), ["/limit/"]);
  assert.equal(selected(p, ["suite"], "recall.filters"), true);
  assert.equal(selected(p, ["suite"], "store.upsert"), true);
  assert.equal(selected(p, ["suite"], "recall.limit"), false, "a skip pattern wins");
  assert.equal(selected(p, ["suite"], "forget.idempotent"), false);
});

test("no pattern selects everything; a pattern matching the suite selects all its checks", () => {
  assert.equal(selected(currentPatterns([]), ["s"], "x"), true);
  const p = currentPatterns(["--test-name-pattern=conformance: \\./my"]);
  assert.equal(selected(p, ["tinymemory conformance: ./my-store.js"], "store.upsert"), true);
  assert.equal(selected(p, ["other"], "store.upsert"), false);
});

test("an invalid pattern is ignored here (node itself refuses it)", () => {
  assert.deepEqual(currentPatterns(["--test-name-pattern=("]).names, []);
});

test("shell words round-trip through join and split", () => {
  const words = ["/usr/bin/node", "/tmp/a dir/serve.js", "it's", 'say "hi"', "$HOME", ""];
  assert.equal(shellJoin(words), `/usr/bin/node '/tmp/a dir/serve.js' 'it'"'"'s' 'say "hi"' '$HOME' ''`);
  assert.deepEqual(shellSplit(shellJoin(words)), words);
  assert.deepEqual(shellSplit(`python3 -m "my pkg" a\\ b`), ["python3", "-m", "my pkg", "a b"]);
  assert.throws(() => shellSplit("a 'b"), { name: "TypeError", message: `unterminated ' in "a 'b"` });
});

test("isBlank is Unicode White_Space, not String.prototype.trim's set", () => {
  assert.equal(isBlank(""), true);
  assert.equal(isBlank(" \t\n\u00a0\u2028\u3000"), true);
  assert.equal(isBlank("\u0085"), true, "NEL is White_Space; trim() keeps it");
  assert.equal(isBlank("\ufeff"), false, "BOM is no White_Space; trim() removes it");
  assert.equal(isBlank("\u200b"), false);
  assert.equal(isBlank(" a "), false);
});

test("nowRfc3339 is RFC 3339 UTC and ordered by instant", () => {
  const t = nowRfc3339();
  assert.match(t, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(isRfc3339(t), true);
  assert.equal(compareTimestamps("2026-11-30T10:00:00+02:00", "2026-11-30T09:00:00Z"), -1);
  assert.equal(compareTimestamps("2026-11-30T08:00:00.000000001Z", "2026-11-30T10:00:00+02:00"), 1);
});

test("validateNamespace throws a DriverError with the rule", () => {
  assert.throws(() => validateNamespace("a b"), { name: "DriverError", kind: "invalid", rule: "namespace.charset" });
});

test("tail quotes the last lines of a driver's stderr", async () => {
  const { tail } = await import("../dist/run.js");
  assert.equal(tail(""), "  (stderr empty)");
  assert.equal(tail("\n\n"), "  (stderr empty)");
  assert.equal(tail("a\n\nb\n"), "  | a\n  | \n  | b");
  assert.equal(tail("1\n2\n3\n", 2), "  (1 earlier lines left out)\n  | 2\n  | 3");
});
