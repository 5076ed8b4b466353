// PostgresStore (@langchain/langgraph-checkpoint-postgres 1.0.5) alone,
// without tinymemory: listNamespaces with a prefix and maxDepth drops the
// namespaces it should truncate to (interface.langgraph.list_namespaces,
// docs/adapters.md). With the namespaces of the docstring example of
// LangGraph's list_namespaces (and of LangGraph.js's own InMemoryStore
// test, namespace.test.ts), prefix ["a", "b"] and maxDepth 3 must answer
// ["a", "b", "c"], ["a", "b", "d"] (["a", "b", "d", "e"] and ["a", "b", "d",
// "i"] truncated, listed once) and ["a", "b", "f"]; InMemoryStore does,
// PostgresStore leaves ["a", "b", "d"] out: its listNamespaces drops the
// namespaces deeper than maxDepth (`namespaces.filter((ns) => ns.length <=
// maxDepth)`, dist/store/index.js) where it should cut them. Asserted, so this script fails
// once the fault is gone. Run: TINYMEMORY_PGVECTOR_URL=...
// node langgraph-postgres-list-namespaces-repro.js
import assert from "node:assert/strict";
import { InMemoryStore } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { freshSchema, pgvectorUrl, sql } from "./pgvector.js";

const namespaces = [["a", "b", "c"], ["a", "b", "d", "e"], ["a", "b", "d", "i"], ["a", "b", "f"], ["a", "c", "f"]];
const expected = [["a", "b", "c"], ["a", "b", "d"], ["a", "b", "f"]];
const sorted = (list) => list.map((ns) => JSON.stringify(ns)).sort();

const memory = new InMemoryStore();
for (const ns of namespaces) await memory.put(ns, "k", { v: 1 });
const fromMemory = await memory.listNamespaces({ prefix: ["a", "b"], maxDepth: 3 });
console.log("InMemoryStore:", JSON.stringify(fromMemory));
assert.deepEqual(sorted(fromMemory), sorted(expected));

const schema = freshSchema();
const store = new PostgresStore({ connectionOptions: pgvectorUrl(), schema });
try {
  for (const ns of namespaces) await store.put(ns, "k", { v: 1 });
  const listed = await store.listNamespaces({ prefix: ["a", "b"], maxDepth: 3 });
  console.log("PostgresStore:", JSON.stringify(listed));
  assert.deepEqual(sorted(listed), sorted([["a", "b", "c"], ["a", "b", "f"]]));
} finally {
  await store.stop();
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
