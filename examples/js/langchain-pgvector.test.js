// LangChain.js's PGVectorStore through the VectorStoreAdapter: it fails
// exactly the checks langchain-pgvector-store.js documents, for the causes
// it names, which langchain-pgvector-repro.js shows with PGVectorStore
// alone. Needs TINYMEMORY_PGVECTOR_URL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EXPECTED_FAILURES, SERVED_INTERFACE_CHECKS } from "./langchain-pgvector-store.js";
import { assertFailures, assertReproduces, needsServer } from "./postgres-examples.js";

test("PGVectorStore's faults reproduce without tinymemory", needsServer, () => {
  const out = assertReproduces("./langchain-pgvector-repro.js");
  assert.match(out, /^1\. pageContent written "comet\\0tail", read "comettail"$/m);
});

test("PGVectorStore fails exactly its documented checks", needsServer, () => {
  assertFailures("./langchain-pgvector.conformance.js", EXPECTED_FAILURES, SERVED_INTERFACE_CHECKS);
});
