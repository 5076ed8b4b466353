// serve and handle: what a store answers, and the answers JSON cannot carry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { DriverError, encodeAnswer, handle, invalid, serve } from "../dist/protocol/index.js";

const hit = (key, score) => ({ id: key, key, content: "c", namespace: "global", category: "core", timestamp: "2026-11-30T00:47:42Z", session_id: null, score, taint: "internal" });
const RECALL = { id: 7, op: "recall", query: "?!", limit: 10, namespace: null, category: null, session_id: null, min_score: null };

class Minimal {
  reset() {}
  store() {}
  get() { return null; }
  forget() { return false; }
  list() { return []; }
  namespaces() { return []; }
  recall() { return []; }
}

test("hello of a lexical store without optional ops is the bare hello", async () => {
  assert.deepEqual(await handle(new Minimal(), { id: 1, op: "hello", protocol: 1 }, { driverId: "d" }), {
    id: 1,
    result: { protocol: 1, driver: "d" },
  });
});

test("hello lists the optional ops a store has, its profile and independent stores", async () => {
  class Full extends Minimal {
    recallProfile = "semantic";
    independentStores = true;
    driverId = "full";
    storeMany() {}
    importRecords() { return { imported: 0, failures: [] }; }
  }
  assert.deepEqual(await handle(new Full(), { id: 1, op: "hello", protocol: 1 }), {
    id: 1,
    result: { protocol: 1, driver: "full", recall_profile: "semantic", ops: ["store_many", "import"], independent_stores: true },
  });
});

test("an unknown recall profile fails serve before any request is read", async () => {
  class Typo extends Minimal { recallProfile = "vector"; }
  await assert.rejects(serve(new Typo(), { input: new PassThrough(), output: new PassThrough() }), {
    name: "TypeError",
    message: 'unknown recall profile "vector": expected "lexical" or "semantic"',
  });
});

test("a DriverError is its error answer, rule included", async () => {
  class Refuses extends Minimal { get() { throw invalid("namespace.charset", "no"); } }
  assert.deepEqual(await handle(new Refuses(), { id: 3, op: "get", namespace: "a b", key: "k" }), {
    id: 3,
    error: { kind: "invalid", message: "no", rule: "namespace.charset" },
  });
});

test("any other throw is a backend error naming it", async () => {
  class Crashes extends Minimal { list() { throw new RangeError("boom"); } }
  const write = process.stderr.write;
  process.stderr.write = () => true;
  try {
    assert.deepEqual(await handle(new Crashes(), { id: 4, op: "list", namespace: null, category: null, session_id: null }), {
      id: 4,
      error: { kind: "backend", message: "RangeError: boom" },
    });
  } finally {
    process.stderr.write = write;
  }
});

test("an op the store does not provide is a backend error", async () => {
  assert.deepEqual(await handle(new Minimal(), { id: 5, op: "export_page", cursor: null, limit: 1 }), {
    id: 5,
    error: { kind: "backend", message: 'unknown op "export_page"' },
  });
});

for (const [score, shown] of [[NaN, "nan"], [Infinity, "inf"], [-Infinity, "-inf"]]) {
  test(`a recall hit scoring ${shown} is a backend error naming the hit, never null on the wire`, async () => {
    class Scored extends Minimal { recall() { return [hit("fine", 0.5), hit("the-bad-one", score)]; } }
    assert.deepEqual(await handle(new Scored(), RECALL), {
      id: 7,
      error: {
        kind: "backend",
        message: `recall hit 1 of 2 (namespace "global", key "the-bad-one") has score ${String(score)}: scores must be finite numbers, higher is better (a cosine over a zero vector, from a query with no word, is NaN)`,
      },
    });
  });
}

test("encodeAnswer refuses what JSON.stringify would silently change", () => {
  const write = process.stderr.write;
  process.stderr.write = () => true;
  try {
    assert.equal(
      encodeAnswer({ id: 2, result: { namespace: "global", count: NaN, last_updated: null } }),
      '{"id":2,"error":{"kind":"backend","message":"failed to encode the answer: answer.result.count is NaN, which JSON cannot carry (JSON.stringify would write null)"}}',
    );
    assert.equal(
      encodeAnswer({ id: 2, result: { content: "cut \ud83d" } }),
      '{"id":2,"error":{"kind":"backend","message":"failed to encode the answer: answer.result.content holds a lone UTF-16 surrogate, which UTF-8 cannot carry (a string cut inside a surrogate pair?)"}}',
    );
    assert.equal(
      encodeAnswer({ id: 2, result: [{ session_id: undefined }] }),
      '{"id":2,"error":{"kind":"backend","message":"failed to encode the answer: answer.result[0].session_id is undefined, which JSON cannot carry (JSON.stringify would drop it or write null)"}}',
    );
  } finally {
    process.stderr.write = write;
  }
  assert.equal(encodeAnswer({ id: 1, result: "caf\u00e9 \ud83d\ude00" }), '{"id":1,"result":"café 😀"}');
});

test("serve answers each line in order, async methods awaited, then closes the store", async () => {
  const calls = [];
  class Slow extends Minimal {
    async get({ key }) {
      await new Promise((r) => setTimeout(r, key === "a" ? 20 : 0));
      return null;
    }
    close() { calls.push("close"); }
  }
  const input = new PassThrough();
  const output = new PassThrough();
  let text = "";
  output.on("data", (d) => (text += d));
  const done = serve(new Slow(), { input, output, driverId: "slow" });
  input.write('{"id":1,"op":"hello","protocol":1}\r\n{"id":2,"op":"get","namespace":"global","key":"a"}\n');
  input.end('{"id":3,"op":"get","namespace":"global","key":"b"}\nnot json\n');
  await done;
  assert.deepEqual(text.split("\n"), [
    '{"id":1,"result":{"protocol":1,"driver":"slow"}}',
    '{"id":2,"result":null}',
    '{"id":3,"result":null}',
    '{"id":null,"error":{"kind":"backend","message":"request line is not JSON (Unexpected token \'o\', \\"not json\\" is not valid JSON): not json"}}',
    "",
  ]);
  assert.deepEqual(calls, ["close"]);
});

test("DriverError.toWire leaves out a missing rule", () => {
  assert.deepEqual(new DriverError("unavailable", "later").toWire(), { kind: "unavailable", message: "later" });
});
