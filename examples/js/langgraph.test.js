// LangGraph.js's InMemoryStore through the LangGraphStore adapter, with
// the bundled corpus: every check of the semantic profile is one test.
import { conformance } from "tinymemory-conformance/node-test";

conformance({ driver: "./langgraph-store.js" });
