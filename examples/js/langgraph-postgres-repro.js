// PostgresStore (@langchain/langgraph-checkpoint-postgres 1.0.5) alone,
// without tinymemory: the three faults behind every check
// langgraph-postgres-store.js documents as failing. Each is asserted, so
// this script fails once a fault is gone. Run: TINYMEMORY_PGVECTOR_URL=...
// node langgraph-postgres-repro.js
import assert from "node:assert/strict";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";
import { freshSchema, pgvectorUrl, sql } from "./pgvector.js";

const embeddings = new HashedEmbeddings();
const schema = freshSchema();
const store = new PostgresStore({
  connectionOptions: pgvectorUrl(),
  schema,
  index: { dims: embeddings.dimensions, embed: embeddings, fields: ["content"] },
});

try {
  // 1. A namespace prefix is matched as a string (`namespace_path LIKE
  //    'a%'`), not label by label: ["a"] finds the items of ["ab"].
  await store.put(["a"], "k1", { content: "comet" });
  await store.put(["ab"], "k2", { content: "comet" });
  const found = await store.search(["a"]);
  console.log("1. search([\"a\"]) answers namespaces", JSON.stringify(found.map((i) => i.namespace)));
  assert.deepEqual(found.map((i) => i.namespace).sort(), [["a"], ["ab"]]);

  // 2. U+0000 in a value or a key is an error (PostgreSQL's jsonb and text hold no NUL).
  await assert.rejects(store.put(["a"], "k3", { content: "before\0after" }), /unsupported Unicode escape sequence/);
  await assert.rejects(store.put(["a"], "before\0after", { content: "x" }), /invalid byte sequence for encoding "UTF8": 0x00/);
  console.log("2. a value or key holding U+0000 is refused with an error");

  // 3. A query whose embedding is the zero vector (no word: '"') scores NaN
  //    (pgvector's cosine distance over a zero norm).
  const hits = await store.search(["a"], { query: '"' });
  console.log("3. search with the query '\"' scores", JSON.stringify(hits.map((i) => String(i.score))));
  assert.ok(hits.length > 0 && hits.every((i) => Number.isNaN(i.score)));
} finally {
  await store.stop();
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
