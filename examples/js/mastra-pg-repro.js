// PgVector (@mastra/pg 1.27.1) alone, without tinymemory: the two faults
// behind every check its row of docs/compatibility.md lists as failing.
// Each is asserted, so this script fails once a fault is gone.
// Run: TINYMEMORY_PGVECTOR_URL=... node mastra-pg-repro.js
import assert from "node:assert/strict";
import { PgVector } from "@mastra/pg";
import { freshSchema, pgvectorUrl } from "./pgvector.js";

const store = new PgVector({ id: "repro", connectionString: pgvectorUrl() });
const indexName = freshSchema();
try {
  await store.createIndex({ indexName, dimension: 4, metric: "cosine" });
  await store.upsert({ indexName, vectors: [[1, 0, 0, 0]], metadata: [{ text: "comet" }], ids: ["00000000-0000-5000-8000-000000000001"] });

  // 1. U+0000 in metadata (the entry's text or key) is an error: jsonb holds no NUL.
  await assert.rejects(
    store.upsert({ indexName, vectors: [[0, 1, 0, 0]], metadata: [{ text: "before\0after" }], ids: ["00000000-0000-5000-8000-000000000002"] }),
    /unsupported Unicode escape sequence/,
  );
  console.log("1. metadata holding U+0000 is refused with an error");

  // 2. A zero query vector (a query without words under a hashed or
  //    bag-of-words embedding) scores NaN (pgvector's cosine distance over
  //    a zero norm).
  const hits = await store.query({ indexName, queryVector: [0, 0, 0, 0], topK: 1 });
  console.log("2. query with the zero vector scores", JSON.stringify(hits.map((h) => String(h.score))));
  assert.ok(hits.length === 1 && Number.isNaN(hits[0].score));
} finally {
  await store.deleteIndex({ indexName });
  await store.disconnect();
}
