// LangChain.js's MemoryVectorStore through the VectorStoreAdapter: it
// fails exactly the checks langchain-store.js documents (a NaN cosine for
// a zero vector), and passes the others of the semantic profile; with its
// cosine guarded it passes every check, the corpus checks included (one
// test per check).
import { test } from "node:test";
import assert from "node:assert/strict";
import { EXPECTED_FAILURES } from "./langchain-store.js";
import { innerRun } from "./inner-run.js";
import { conformance } from "tinymemory-conformance/node-test";

test("MemoryVectorStore fails exactly its documented checks", () => {
  const { passed, failed, skipped, stderr } = innerRun("./langchain.conformance.js");
  assert.deepEqual([...failed.keys()], EXPECTED_FAILURES, stderr);
  assert.deepEqual(skipped, ["corpus.namespace_counts", "corpus.self_retrieval"]);
  // The semantic checks of this build (60) but the 8 failures and the 2 corpus checks.
  assert.equal(passed.length, 50);
  for (const [id, message] of failed) {
    assert.match(message, /has score nan: scores must be finite numbers/, `${id} fails for another reason: ${message}`);
  }
});

conformance({ driver: "./langchain-store.js#guarded", name: "MemoryVectorStore with a guarded cosine" });
