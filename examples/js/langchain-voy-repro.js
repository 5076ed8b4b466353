// LangChain.js's VoyVectorStore (@langchain/community 1.1.29, voy-search
// 0.6.3) alone, without tinymemory: the faults behind the checks its trial
// outside CI failed as the store's (docs/adapters.md, "Stores tried
// outside CI"); the others are the adapter's mapping limits, a search
// taking no filter and a delete taking no ids, which 2. and 3. show. Each
// is asserted, so this script fails once a fault is gone. Not a row of the
// matrix: these packages are not in package.json.
// Run: npm install @langchain/community@1.1.29 @langchain/core@1.4.0 voy-search@0.6.3
//      node --experimental-wasm-modules langchain-voy-repro.js
import assert from "node:assert/strict";
import { Voy } from "voy-search/voy_search.js";
import { VoyVectorStore } from "@langchain/community/vectorstores/voy";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();
const fresh = () => new VoyVectorStore(new Voy(), embeddings);
const docs = (n, pageContent) => Array.from({ length: n }, () => ({ pageContent, metadata: {} }));

// 1. An index holding more than 32 vectors with one value at the same
//    coordinate cannot be built: voy's k-d tree (kiddo 2.1.0, buckets of
//    32) panics ("Too many items with the same position on one axis"),
//    a RuntimeError "unreachable" out of the WebAssembly. 33 copies of one
//    text are enough with any embedding; HashedEmbeddings' sparse vectors
//    (most coordinates 0) reach it at about 33 documents whatever the
//    texts. Every add re-indexes the whole store, so the store is stuck.
{
  const store = fresh();
  await store.addDocuments(docs(32, "comet"));
  const quiet = console.error;
  console.error = () => {}; // voy prints the Rust panic's message and stack
  await assert.rejects(store.addDocuments(docs(1, "comet")), /RuntimeError: unreachable/);
  const distinct = fresh();
  let added = 0;
  await assert.rejects(async () => {
    for (; added < 64; added++) await distinct.addDocuments([{ pageContent: `word${added} other${added * 7}`, metadata: {} }]);
  }, /RuntimeError: unreachable/);
  console.error = quiet;
  console.log(`1. the 33rd copy of one text: RuntimeError: unreachable; distinct texts one by one: the add after ${added} throws it too`);
}

// 2. A search of a store with no document throws, where it should answer
//    nothing (LangChain's test_vectorstore_is_empty).
{
  await assert.rejects(fresh().similaritySearchWithScore("comet", 1), /There aren't any elements in the index yet\./);
  console.log("2. a search before the first add throws: There aren't any elements in the index yet.");
}

// 3. delete takes only { deleteAll: true }, and the search no filter
//    (similaritySearchVectorWithScore(query, k)); each hit's score is its
//    place in the answer.
{
  const store = fresh();
  await store.addDocuments([{ pageContent: "comet", metadata: { namespace: "a" } }, { pageContent: "comet tail", metadata: { namespace: "b" } }]);
  await assert.rejects(store.delete({ ids: ["0"] }), /You must provide a "deleteAll" parameter\./);
  const hits = await store.similaritySearchWithScore("comet", 2, { namespace: "b" });
  console.log(`3. delete({ ids }) throws; a search filtered on namespace b answers ${JSON.stringify(hits.map(([d, s]) => [d.metadata.namespace, s]))}`);
  assert.deepEqual(hits.map(([d, s]) => [d.metadata.namespace, s]), [["a", 0], ["b", 1]]);
}
