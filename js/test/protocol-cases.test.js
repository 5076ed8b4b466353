// The npm package's protocol library against fixtures/protocol-cases.json,
// the table python/tests/test_protocol_cases.py holds the Python library
// to and whose contract cases tinymemory-api evaluates
// (crates/tinymemory-api/tests/protocol_cases.rs): the same answers, and
// errors of the same kind and rule, on every input of it. Messages are
// each library's own wording, never compared.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as tp from "../dist/protocol/index.js";

const TABLE = new URL("../../fixtures/protocol-cases.json", import.meta.url);
const FLOATS = { nan: NaN, inf: Infinity, "-inf": -Infinity };
const { cases } = JSON.parse(readFileSync(TABLE, "utf8"), (_, value) =>
  value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).join() === "$float"
    ? FLOATS[value.$float]
    : value,
);

const nothing = (f) => (...args) => (f(...args), null);

// The table's function names (the Python library's), as this library calls them.
const FUNCTIONS = {
  validate_namespace: nothing(tp.validateNamespace),
  validate_key: nothing(tp.validateKey),
  validate_min_score: nothing(tp.validateMinScore),
  validate_entries: nothing(tp.validateEntries),
  validate_record: nothing(tp.validateRecord),
  split_words: tp.splitWords,
  words: tp.words,
  is_rfc3339: tp.isRfc3339,
  timestamp_key: (text) => {
    const k = tp.timestampKey(text);
    return [k.valid ? 1 : 0, k.seconds, k.nanos];
  },
  latest_timestamp: tp.latestTimestamp,
  sort_bytewise: tp.sortBytewise,
  encode_cursor: tp.encodeCursor,
  decode_cursor: tp.decodeCursor,
  page_after: (positions, cursor, limit) => {
    const { page, nextCursor } = tp.pageAfter(positions, cursor, limit);
    return { page, next_cursor: nextCursor };
  },
  entry: tp.entry,
  check_scores: nothing(tp.checkScores),
};

/** `expect` with its error's message left out: errors compare by kind and rule. */
function withoutMessage(expect) {
  if (!expect?.error) return expect;
  const { message: _, ...error } = expect.error;
  return { error };
}

function outcome(c) {
  try {
    return { result: FUNCTIONS[c.fn](...c.args) };
  } catch (e) {
    if (e instanceof tp.DriverError) return { error: { kind: e.kind, rule: e.rule } };
    throw e;
  }
}

test("every function of the table is known", () => {
  assert.deepEqual([...new Set(cases.map((c) => c.fn))].sort(), Object.keys(FUNCTIONS).sort());
});

cases.forEach((c, i) => {
  test(`${i}-${c.fn}`, () => {
    assert.ok(c.expect, "the case has no expect: bless it from the Python library (python/tests/test_protocol_cases.py)");
    assert.deepEqual(outcome(c), withoutMessage(c.expect));
  });
});
