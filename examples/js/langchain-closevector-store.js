// LangChain.js's CloseVectorNode (@langchain/community 1.1.29 over
// closevector-node 0.1.6 and closevector-hnswlib-node 0.1.1, in memory,
// cosine space) with the deterministic HashedEmbeddings (no model, no
// download), as a tinymemory store through the VectorStoreAdapter. Not a
// row of the matrix (its packages are not in package.json): its trial is a
// row of docs/adapters.md, "Stores tried outside CI", and
// langchain-closevector-repro.js shows each of its faults with
// CloseVectorNode alone.
// Run: npm install @langchain/community@1.1.29 @langchain/core@1.4.0 closevector-node@0.1.6
//      (npm 11 runs no install script unasked: build closevector-hnswlib-node
//      with `npx node-gyp rebuild` in its directory)
//      conformance({ driver: "./langchain-closevector-store.js", corpus: false })
import { CloseVectorNode } from "@langchain/community/vectorstores/closevector/node";
import { VectorStoreAdapter } from "tinymemory-conformance/langchain";
import { engineId } from "tinymemory-conformance";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();

export default function makeStore() {
  // CloseVector answers 1 - the cosine distance, a similarity: the default score.
  return new VectorStoreAdapter(() => new CloseVectorNode(embeddings, { space: "cosine", numDimensions: embeddings.dimensions }), {
    driverId: engineId("@langchain/community", "CloseVectorNode", "langchain.js"),
    independentStores: true,
  });
}
