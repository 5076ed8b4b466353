// LangGraph.js's InMemoryStore, with a vector index over the entries'
// content (the deterministic HashedEmbeddings: no model, no download),
// as a tinymemory store through the LangGraphStore adapter
// (docs/adapters.md, "JavaScript", gives the mapping). It passes every
// check of the semantic profile, the corpus checks included
// (langgraph.test.js). InMemoryStore's search answers equal scores in
// insertion order, which the adapter orders by key, as the contract wants.
import { InMemoryStore } from "@langchain/langgraph";
import { LangGraphStore } from "tinymemory-conformance/langgraph";
import { engineId } from "tinymemory-conformance";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();

export default function makeStore() {
  // A factory: each reset starts a new, empty InMemoryStore.
  return new LangGraphStore(
    () => new InMemoryStore({ index: { dims: embeddings.dimensions, embeddings, fields: ["content"] } }),
    { driverId: engineId("@langchain/langgraph-checkpoint", "InMemoryStore", "langgraph.js"), independentStores: true },
  );
}
