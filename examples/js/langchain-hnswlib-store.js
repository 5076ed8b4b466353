// LangChain.js's HNSWLib (@langchain/community 1.1.29 over hnswlib-node
// 3.0.0, in memory, cosine space) with the deterministic HashedEmbeddings
// (no model, no download), as a tinymemory store through the
// VectorStoreAdapter. Not a row of the matrix (its packages are not in
// package.json): its trial is a row of docs/adapters.md, "Stores tried
// outside CI", and langchain-hnswlib-repro.js shows each of its faults
// with HNSWLib alone.
// Run: npm install @langchain/community@1.1.29 @langchain/core@1.4.0 hnswlib-node@3.0.0
//      conformance({ driver: "./langchain-hnswlib-store.js", corpus: false })
import { HNSWLib } from "@langchain/community/vectorstores/hnswlib";
import { VectorStoreAdapter } from "tinymemory-conformance/langchain";
import { engineId } from "tinymemory-conformance";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();

export default function makeStore() {
  // HNSWLib answers the cosine distance (lower is nearer): `score: "distance"`.
  return new VectorStoreAdapter(() => new HNSWLib(embeddings, { space: "cosine", numDimensions: embeddings.dimensions }), {
    driverId: engineId("@langchain/community", "HNSWLib", "langchain.js"),
    score: "distance",
    independentStores: true,
  });
}
