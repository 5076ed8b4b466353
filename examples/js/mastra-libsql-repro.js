// LibSQLVector (@mastra/libsql 1.23.1) alone, without tinymemory: the fault
// behind every check its row of docs/compatibility.md lists as
// failing. Asserted, so this script fails once the fault is gone.
// Run: node mastra-libsql-repro.js
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LibSQLVector } from "@mastra/libsql";

const dir = mkdtempSync(join(tmpdir(), "mastra-libsql-repro-"));
const store = new LibSQLVector({ id: "repro", url: `file:${join(dir, "vectors.db")}` });
try {
  // 1. query keeps `score > minScore` (minScore -1 by default): a vector
  //    whose cosine is NULL (a zero vector: a text without words under a
  //    hashed or bag-of-words embedding) is in the index and never in an
  //    answer, whatever the query vector, filter and topK.
  await store.createIndex({ indexName: "zero", dimension: 4, metric: "cosine" });
  await store.upsert({ indexName: "zero", vectors: [[0, 0, 0, 0], [1, 0, 0, 0]], metadata: [{ key: "empty" }, { key: "full" }], ids: ["a", "b"] });
  const { count } = await store.describeIndex({ indexName: "zero" });
  const found = await store.query({ indexName: "zero", queryVector: [1, 0, 0, 0], topK: 10, filter: { key: "empty" } });
  console.log(`1. the index counts ${count} vectors; query filtered on the zero vector's metadata answers ${JSON.stringify(found)}`);
  assert.equal(count, 2);
  assert.deepEqual(found, []);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
