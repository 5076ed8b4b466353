// LangChain.js's LanceDB (@langchain/community 1.1.29, @lancedb/lancedb
// 0.19.1, apache-arrow 18.1.0) alone, without tinymemory: the faults
// behind every check its trial outside CI failed (docs/adapters.md,
// "Stores tried outside CI"). Each is asserted, so this script fails once
// a fault is gone. Not a row of the matrix: these packages are not in
// package.json.
// Run: npm install @langchain/community@1.1.29 @langchain/core@1.4.0 @lancedb/lancedb@0.19.1 apache-arrow@18.1.0
//      node langchain-lancedb-repro.js
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LanceDB } from "@langchain/community/vectorstores/lancedb";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();
const dir = mkdtempSync(join(tmpdir(), "lancedb-repro-"));
const fresh = (name) => new LanceDB(embeddings, { uri: dir, tableName: name, mode: "create" });

try {
  // 1. A search before the first add throws: the table is made by the
  //    first addDocuments, so an empty store cannot be searched.
  await assert.rejects(fresh("empty").similaritySearchWithScore("comet", 1), /Table not found\. Please add vectors to the table first\./);
  console.log("1. a search of a store nothing was added to throws: Table not found");

  // 2. A first document whose metadata holds null cannot be added: the
  //    table's Arrow schema is inferred from the first rows, and null has
  //    no type.
  await assert.rejects(
    fresh("nulls").addDocuments([{ pageContent: "comet tail", metadata: { namespace: "a", session_id: null } }]),
    /Failed to infer data type for field session_id at row 0/,
  );
  console.log("2. a first document with metadata { session_id: null } is refused: Failed to infer data type");

  const store = fresh("docs");
  const returned = await store.addDocuments(
    [
      { pageContent: "comet tail", metadata: { namespace: "a", key: "k" }, id: "id-a" },
      { pageContent: "comet stone", metadata: { namespace: "b", key: "k" }, id: "id-b" },
    ],
    { ids: ["id-a", "id-b"] },
  );

  // 3. The ids given are not kept: addDocuments resolves to undefined and
  //    every document comes back with id undefined.
  const all = await store.similaritySearchWithScore("comet", 10);
  console.log("3. addDocuments returned", returned, "and the documents come back with ids", JSON.stringify(all.map(([d]) => d.id ?? null)));
  assert.equal(returned, undefined);
  assert.ok(all.every(([d]) => d.id === undefined));

  // 4. No score: the search reads `item.score`, which LanceDB does not
  //    answer (its distance is `_distance`), and puts `_distance` into
  //    each document's metadata.
  console.log("4. scores", JSON.stringify(all.map(([, s]) => s ?? "undefined")), "metadata", JSON.stringify(all.map(([d]) => d.metadata)));
  assert.ok(all.every(([d, s]) => s === undefined && "_distance" in d.metadata));

  // 5. The search takes no filter (similaritySearchVectorWithScore(query,
  //    k)): a search filtered on namespace "a" answers namespace "b" too.
  assert.deepEqual(store.similaritySearchVectorWithScore.length, 2);
  const filtered = await store.similaritySearchWithScore("comet", 10, { namespace: "a" });
  console.log("5. a search filtered on { namespace: \"a\" } answers namespaces", JSON.stringify(filtered.map(([d]) => d.metadata.namespace)));
  assert.ok(filtered.some(([d]) => d.metadata.namespace === "b"));

  // 6. No delete: VectorStore's default throws, so a document once added
  //    stays (no upsert, no forget).
  await assert.rejects(store.delete({ ids: ["id-a"] }), /Not implemented\./);
  console.log("6. delete({ ids }) throws: Not implemented.");

  // 7. k is taken modulo 2^32: k = 2^32 raises, and k = 2^32 + 1 answers
  //    one document of the two.
  await assert.rejects(store.similaritySearchWithScore("comet", 2 ** 32), /k must be positive/);
  const wrapped = await store.similaritySearchWithScore("comet", 2 ** 32 + 1);
  console.log("7. k = 2^32 raises \"k must be positive\"; k = 2^32 + 1 answers", wrapped.length, "of 2 documents");
  assert.equal(wrapped.length, 1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
