// LangChain.js's VoyVectorStore (@langchain/community 1.1.29 over
// voy-search 0.6.3, a WebAssembly k-d tree in memory) with the
// deterministic HashedEmbeddings (no model, no download), as a tinymemory
// store through the VectorStoreAdapter. Not a row of the matrix (its
// packages are not in package.json): its trial is a row of
// docs/adapters.md, "Stores tried outside CI", and langchain-voy-repro.js
// shows each of its faults with VoyVectorStore alone.
// Run: npm install @langchain/community@1.1.29 @langchain/core@1.4.0 voy-search@0.6.3
//      node --experimental-wasm-modules --test (voy-search is built for
//      bundlers: its module imports its .wasm file, which Node 20 loads
//      under that flag only, and the suite gives the store's processes the
//      test process's Node flags)
//      conformance({ driver: "./langchain-voy-store.js", corpus: false })
import { Voy } from "voy-search/voy_search.js";
import { VoyVectorStore } from "@langchain/community/vectorstores/voy";
import { VectorStoreAdapter } from "tinymemory-conformance/langchain";
import { engineId } from "tinymemory-conformance";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();

export default function makeStore() {
  // Voy answers each hit's place in the answer (0, 1, ...): `score: "rank"`.
  return new VectorStoreAdapter(() => new VoyVectorStore(new Voy(), embeddings), {
    driverId: engineId("@langchain/community", "VoyVectorStore", "langchain.js"),
    score: "rank",
    independentStores: true,
  });
}
