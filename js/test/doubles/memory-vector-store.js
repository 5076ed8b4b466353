// LangChain's MemoryVectorStore (@langchain/classic) over HashedEmbeddings,
// through the adapter: a correct store, for test/interface.test.js.
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { VectorStoreAdapter } from "../../dist/adapters/langchain.js";
import { HashedEmbeddings } from "../../dist/adapters/embedding.js";

const embeddings = new HashedEmbeddings();

export default function makeStore() {
  return new VectorStoreAdapter(() => new MemoryVectorStore(embeddings), { independentStores: true });
}
