// LangGraph.js's PostgresStore (pgvector index) through the LangGraphStore
// adapter: it fails exactly the checks langgraph-postgres-store.js
// documents, for the causes it names, which langgraph-postgres-repro.js
// and langgraph-postgres-list-namespaces-repro.js show with PostgresStore
// alone; the four LangGraph interface checks run on it (a factory of
// stores). Needs TINYMEMORY_PGVECTOR_URL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EXPECTED_FAILURES, SERVED_INTERFACE_CHECKS } from "./langgraph-postgres-store.js";
import { assertFailures, assertReproduces, needsServer } from "./postgres-examples.js";

test("PostgresStore's faults reproduce without tinymemory", needsServer, () => {
  const out = assertReproduces("./langgraph-postgres-repro.js");
  assert.match(out, /^1\. search\(\["a"\]\) answers namespaces \[\["ab?"\],\["ab?"\]\]$/m);
});

test("PostgresStore fails exactly its documented checks", needsServer, () => {
  assertFailures("./langgraph-postgres.conformance.js", EXPECTED_FAILURES, SERVED_INTERFACE_CHECKS);
});

test("PostgresStore's listNamespaces fault (interface.langgraph.list_namespaces) reproduces without tinymemory", needsServer, () => {
  const out = assertReproduces("./langgraph-postgres-list-namespaces-repro.js");
  assert.match(out, /^PostgresStore: /m);
});
