// DuckDBVector (@mastra/duckdb 1.10.0) alone, without tinymemory: the
// fault behind every check its row of docs/compatibility.md lists as
// failing. Asserted, so this script fails once the fault is gone.
// Run: node mastra-duckdb-repro.js
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBVector } from "@mastra/duckdb";

const dir = mkdtempSync(join(tmpdir(), "mastra-duckdb-repro-"));
const store = new DuckDBVector({ id: "repro", path: join(dir, "vectors.duckdb") });
try {
  await store.createIndex({ indexName: "repro", dimension: 4, metric: "cosine" });
  await store.upsert({ indexName: "repro", vectors: [[1, 0, 0, 0]], metadata: [{ key: "before\0after" }], ids: ["a"] });
  // The filter's values are written into the SQL text, not bound as
  // parameters: a value holding U+0000 ends the statement there, a parser
  // error, so a stored key holding it can never be asked for.
  await assert.rejects(
    store.query({ indexName: "repro", queryVector: [1, 0, 0, 0], topK: 1, filter: { key: "before\0after" } }),
    /Parser Error: unterminated quoted string/,
  );
  console.log("1. query filtered on a value holding U+0000 fails: Parser Error: unterminated quoted string");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
