// Compiled by `npm run typecheck` (never run): the adapters' structural
// interfaces accept the real LangGraph.js and LangChain.js classes, and
// HashedEmbeddings is an EmbeddingsInterface, at the pinned versions.
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import type { Embeddings, EmbeddingsInterface } from "@langchain/core/embeddings";
import type { VectorStore } from "@langchain/core/vectorstores";
import type { Store } from "../src/protocol/types.js";
import { LangGraphStore, type BaseStoreLike } from "../src/adapters/langgraph.js";
import { VectorStoreAdapter, type VectorStoreLike } from "../src/adapters/langchain.js";
import { HashedEmbeddings } from "../src/adapters/embedding.js";

const embeddings: EmbeddingsInterface = new HashedEmbeddings();
// LangGraph.js's IndexConfig types `embeddings` as the Embeddings class
// (with its AsyncCaller), not EmbeddingsInterface, though only
// embedDocuments and embedQuery are called: a cast is needed in TypeScript.
const engine: BaseStoreLike = new InMemoryStore({ index: { dims: 256, embeddings: embeddings as Embeddings } });
export const graph: Store = new LangGraphStore(() => engine);
declare const vectorStore: VectorStore;
const vectors: VectorStoreLike = vectorStore;
export const chain: Store = new VectorStoreAdapter(() => vectors);
