// PGVectorStore (@langchain/community 1.1.29) alone, without tinymemory:
// the three faults behind every check langchain-pgvector-store.js
// documents as failing. Each is asserted, so this script fails once a
// fault is gone. Run: TINYMEMORY_PGVECTOR_URL=... node langchain-pgvector-repro.js
import assert from "node:assert/strict";
import { PGVectorStore } from "@langchain/community/vectorstores/pgvector";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";
import { freshSchema, pgvectorUrl } from "./pgvector.js";

const embeddings = new HashedEmbeddings();
const store = await PGVectorStore.initialize(embeddings, {
  postgresConnectionOptions: { connectionString: pgvectorUrl() },
  tableName: freshSchema(),
  dimensions: embeddings.dimensions,
  distanceStrategy: "cosine",
  scoreNormalization: "similarity",
});

try {
  // 1. addVectors removes U+0000 from pageContent (`replace(/\0/g, "")`)
  //    and says nothing: the document comes back shorter.
  await store.addDocuments([{ pageContent: "comet\0tail", metadata: { key: "a" } }], { ids: ["00000000-0000-5000-8000-000000000001"] });
  const [[doc]] = await store.similaritySearchWithScore("comet", 1, { key: "a" });
  console.log("1. pageContent written \"comet\\0tail\", read", JSON.stringify(doc.pageContent));
  assert.equal(doc.pageContent, "comettail");

  // 2. U+0000 in a metadata string is an error (jsonb holds no NUL).
  await assert.rejects(
    store.addDocuments([{ pageContent: "x", metadata: { key: "before\0after" } }], { ids: ["00000000-0000-5000-8000-000000000002"] }),
    /unsupported Unicode escape sequence/,
  );
  console.log("2. metadata holding U+0000 is refused with an error");

  // 3. A query whose embedding is the zero vector (no word: '"') scores NaN.
  const hits = await store.similaritySearchWithScore('"', 1);
  console.log("3. similaritySearchWithScore('\"') scores", JSON.stringify(hits.map(([, s]) => String(s))));
  assert.ok(hits.length > 0 && hits.every(([, s]) => Number.isNaN(s)));
} finally {
  await store.pool.query(`DROP TABLE IF EXISTS ${store.computedTableName}`);
  await store.end();
}
