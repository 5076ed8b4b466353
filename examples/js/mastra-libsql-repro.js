// LibSQLVector (@mastra/libsql 1.23.1) alone, without tinymemory: the two
// faults behind every check its row of docs/compatibility.md lists as
// failing. Each is asserted, so this script fails once a fault is gone.
// Run: node mastra-libsql-repro.js
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LibSQLVector } from "@mastra/libsql";

const dir = mkdtempSync(join(tmpdir(), "mastra-libsql-repro-"));
const store = new LibSQLVector({ id: "repro", url: `file:${join(dir, "vectors.db")}` });
const dims = 4;
try {
  // 1. query keeps `score > minScore` (minScore -1 by default): a vector
  //    whose cosine is NULL (a zero vector: a text without words under a
  //    hashed or bag-of-words embedding) is in the index and never in an
  //    answer, whatever the query vector, filter and topK.
  await store.createIndex({ indexName: "zero", dimension: dims, metric: "cosine" });
  await store.upsert({ indexName: "zero", vectors: [[0, 0, 0, 0], [1, 0, 0, 0]], metadata: [{ key: "empty" }, { key: "full" }], ids: ["a", "b"] });
  const { count } = await store.describeIndex({ indexName: "zero" });
  const found = await store.query({ indexName: "zero", queryVector: [1, 0, 0, 0], topK: 10, filter: { key: "empty" } });
  console.log(`1. the index counts ${count} vectors; query filtered on the zero vector's metadata answers ${JSON.stringify(found)}`);
  assert.equal(count, 2);
  assert.deepEqual(found, []);

  // 2. upsert inserts one row at a time into the DiskANN index: 3000
  //    vectors of 256 dimensions take longer than the suite's 30 s
  //    request timeout on two cores (recall.namespace_isolation writes 3000).
  await store.createIndex({ indexName: "bulk", dimension: 256, metric: "cosine" });
  const n = 3000;
  const vectors = Array.from({ length: n }, (_, i) => Array.from({ length: 256 }, (_, j) => ((i * 31 + j * 17) % 7) - 3));
  const started = Date.now();
  await store.upsert({ indexName: "bulk", vectors, metadata: vectors.map((_, i) => ({ key: `k${i}` })), ids: vectors.map((_, i) => `v${i}`) });
  const seconds = (Date.now() - started) / 1000;
  console.log(`2. upsert of ${n} vectors of 256 dimensions took ${seconds.toFixed(1)} s`);
  assert.ok(seconds > 30, `${seconds} s`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
