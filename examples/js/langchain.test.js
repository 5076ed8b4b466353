// LangChain.js's MemoryVectorStore through the VectorStoreAdapter: it
// fails exactly the checks langchain-store.js documents (a NaN cosine for
// a zero vector), and passes the others of the semantic profile; with its
// cosine guarded it passes every check, the corpus checks included (one
// test per check).
import { test } from "node:test";
import assert from "node:assert/strict";
import { EXPECTED_FAILURES, SERVED_INTERFACE_CHECKS } from "./langchain-store.js";
import { innerRun } from "./inner-run.js";
import { checkedBinary, listChecks } from "tinymemory-conformance";
import { conformance } from "tinymemory-conformance/node-test";

test("MemoryVectorStore fails exactly its documented checks", () => {
  const { passed, failed, skipped, stderr } = innerRun("./langchain.conformance.js");
  assert.deepEqual([...failed.keys()], EXPECTED_FAILURES, stderr);
  // Every semantic check of this build is one test: the corpus ones skipped
  // (no corpus), the documented failures failed, every other passed.
  const semantic = listChecks(checkedBinary(), "semantic");
  // Skipped: the corpus checks (no corpus) and the interface family's checks
  // this store is not asked (LangGraph's, and LangChain's it lacks the methods for).
  const corpus = semantic
    .filter((c) => c.family === "corpus" || (c.needsInterface && !SERVED_INTERFACE_CHECKS.includes(c.id)))
    .map((c) => c.id);
  assert.deepEqual(skipped, corpus);
  assert.deepEqual(
    passed,
    semantic.map((c) => c.id).filter((id) => !corpus.includes(id) && !failed.has(id)),
  );
  for (const [id, message] of failed) {
    assert.match(message, /with score NaN, not a finite number/, `${id} fails for another reason: ${message}`);
  }
});

conformance({ driver: "./langchain-store.js#guarded", name: "MemoryVectorStore with a guarded cosine" });
