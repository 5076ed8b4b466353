// The interface family through the JavaScript adapters (docs/protocol.md,
// "The interface op"; docs/adapters.md, "The interface family"): each
// adapter declares its interface in hello and answers the op; the sync
// path, which LangChain.js and LangGraph.js lack, and a method a store
// lacks are not judged, naming why; and through the binary, each fault of
// test/doubles/interface-stores.js fails exactly the checks named here,
// while the faithful double, LangGraph.js's InMemoryStore and LangChain's
// MemoryVectorStore fail none.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { handle } from "../dist/protocol/index.js";
import { LangGraphStore } from "../dist/adapters/langgraph.js";
import { VectorStoreAdapter } from "../dist/adapters/langchain.js";
import { HashedEmbeddings } from "../dist/adapters/embedding.js";
import { LANGCHAIN_SCENARIOS } from "../dist/adapters/langchain-interface.js";
import { LANGGRAPH_SCENARIOS } from "../dist/adapters/langgraph-interface.js";
import { InterfaceVectorStore } from "./doubles/interface-stores.js";

const embeddings = new HashedEmbeddings();
// Inputs as the suite sends them (docs/protocol.md, "The interface op").
const MISSING = ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a11", "3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a12"];
const doc = (page_content, id) => ({ id: null, page_content, metadata: { id } });
const INPUTS = {
  "interface.langchain.delete_missing": {
    missing_ids: MISSING,
    given: [doc("meadow", 1)],
    given_ids: ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a01"],
    queries: { before: "meadow", after: "meadow" },
  },
  "interface.langchain.empty_store": { given: [doc("meadow", 1)], given_ids: ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a01"], queries: { search: "meadow", after_add: "meadow" } },
  "interface.langchain.add_documents": { given: [doc("copper", 1), doc("violin", 2)], queries: { search: "violin" } },
  "interface.langchain.get_by_ids": {
    given: [doc("copper", 1), doc("violin", 2)],
    given_ids: ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a01", "3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a02"],
    missing_ids: MISSING,
    mixed_ids: ["3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a02", MISSING[0], "3f0b1c9e-5d2a-4c1e-9b7a-0c8d6e4f2a01"],
  },
  "interface.langgraph.put_none_deletes": { namespace: ["meadow"], key: "lantern", value: { v: 41 } },
  "interface.langgraph.search_paging": {
    prefix: ["meadow"],
    inside: [[["meadow", "river"], "k0"], [["meadow", "copper"], "k1"]],
    outside: [["tulip"], "k9"],
  },
};
const op = (check, async) => ({ id: 2, op: "interface", check, async, inputs: INPUTS[check] ?? {} });

test("the VectorStore adapter declares langchain.vectorstore and answers the op; a plain store neither", async () => {
  const chain = new VectorStoreAdapter(() => new InterfaceVectorStore());
  const hello = await handle(chain, { id: 1, op: "hello", protocol: 1 });
  assert.equal(hello.result.interface, "langchain.vectorstore");
  await chain.reset();
  const answer = await handle(chain, op("interface.langchain.delete_missing", true));
  const inputs = INPUTS["interface.langchain.delete_missing"];
  assert.deepEqual(answer.result, {
    ...inputs,
    delete_one: { ok: null },
    delete_many: { ok: null },
    ids: { ok: inputs.given_ids },
    before: { ok: [{ ...inputs.given[0], id: inputs.given_ids[0] }] },
    delete_mixed: { ok: null },
    after: { ok: [] },
  });
  // The suite sends every scenario's inputs: a request without them is refused, naming the rule.
  const bare = await handle(chain, { id: 3, op: "interface", check: "interface.langchain.delete_missing", async: true });
  assert.deepEqual(bare.error, {
    kind: "backend",
    message:
      'the interface request for "interface.langchain.delete_missing" carries no `inputs` object (docs/protocol.md, "The interface op": ' +
      "the suite sends the inputs of every scenario; this adapter needs a suite of its release)",
  });
  const lacking = await handle(chain, { ...op("interface.langchain.delete", true), inputs: { given: [] } });
  assert.deepEqual(lacking.error, { kind: "backend", message: 'the inputs of "interface.langchain.delete" lack "given_ids" (docs/protocol.md, "The interface op")' });
  const unknown = await handle(chain, op("interface.nope", true));
  assert.equal(unknown.error.kind, "backend");
  assert.match(unknown.error.message, /^no scenario for check "interface\.nope" of langchain\.vectorstore: known are \["interface\.langchain\.add_documents",/);
  const plain = { reset() {}, store() {}, get() { return null; }, forget() { return false; }, list() { return []; }, namespaces() { return []; }, recall() { return []; } };
  assert.equal("interface" in (await handle(plain, { id: 1, op: "hello", protocol: 1 })).result, false);
  assert.deepEqual((await handle(plain, op("interface.langchain.delete", true))).error, { kind: "backend", message: 'unknown op "interface"' });
});

test("the sync path is not run: LangChain.js and LangGraph.js are async only", async () => {
  const chain = new VectorStoreAdapter(() => new InterfaceVectorStore());
  await chain.reset();
  assert.match((await handle(chain, op("interface.langchain.empty_store", false))).result.not_implemented, /^LangChain\.js's VectorStore has no sync methods/);
  const graph = new LangGraphStore(() => new InMemoryStore());
  assert.equal((await handle(graph, { id: 1, op: "hello", protocol: 1 })).result.interface, "langgraph.basestore");
  await graph.reset();
  assert.match((await handle(graph, op("interface.langgraph.put_none_deletes", false))).result.not_implemented, /^LangGraph\.js's BaseStore has no sync batch/);
  const observed = (await handle(graph, op("interface.langgraph.put_none_deletes", true))).result;
  const { before, ...after } = observed;
  const { namespace, key, value } = before.ok;
  assert.deepEqual({ namespace, key, value }, INPUTS["interface.langgraph.put_none_deletes"]);
  assert.deepEqual(after, {
    ...INPUTS["interface.langgraph.put_none_deletes"],
    put: { ok: null },
    delete: { ok: null },
    get: { ok: null },
    search: { ok: [] },
  });
});

test("a LangGraphStore over one BaseStore instance does not run the scenarios, naming why", async () => {
  const graph = new LangGraphStore(new InMemoryStore());
  const answer = await handle(graph, op("interface.langgraph.search_paging", true));
  assert.match(answer.result.not_implemented, /^LangGraphStore was given one BaseStore instance, which reset empties of the adapter's own namespaces only/);
  assert.equal((await handle(graph, op("interface.nope", true))).error.kind, "backend");
});

test("MemoryVectorStore: addDocuments resolving to void and the default delete are not judged, naming why", async () => {
  const chain = new VectorStoreAdapter(() => new MemoryVectorStore(embeddings));
  await chain.reset();
  const add = await handle(chain, op("interface.langchain.add_documents", true));
  assert.match(add.result.not_implemented, /^addDocuments resolved to undefined, not ids: LangChain\.js's VectorStore\.addDocuments "resolves to an array of document IDs or void, depending on implementation"/);
  await chain.reset();
  const missing = await handle(chain, op("interface.langchain.delete_missing", true));
  assert.equal(missing.result.not_implemented, "the store has no delete (Error: Not implemented.: VectorStore's default, which MemoryVectorStore keeps)");
});

test("a store without getByIds (LangChain.js's VectorStore declares none) is not asked", async () => {
  const chain = new VectorStoreAdapter(() => Object.assign(new InterfaceVectorStore(), { getByIds: undefined }));
  await chain.reset();
  const answer = await handle(chain, op("interface.langchain.get_by_ids", true));
  assert.match(answer.result.not_implemented, /^the store has no getByIds/);
});

test("the scenarios are the suite's: one per check of the interface family the binary lists", { skip: !process.env.TINYMEMORY_CONFORMANCE_BIN && "TINYMEMORY_CONFORMANCE_BIN is unset" }, () => {
  const listed = JSON.parse(spawnSync(process.env.TINYMEMORY_CONFORMANCE_BIN, ["list", "--format", "json"], { encoding: "utf8" }).stdout);
  const family = listed.checks.filter((c) => c.family === "interface").map((c) => c.id).sort();
  assert.deepEqual([...Object.keys(LANGCHAIN_SCENARIOS), ...Object.keys(LANGGRAPH_SCENARIOS)].sort(), family);
});

const binary = process.env.TINYMEMORY_CONFORMANCE_BIN;
const serve = fileURLToPath(new URL("../bin/tinymemory-serve.js", import.meta.url));
const doubles = fileURLToPath(new URL("./doubles/interface-stores.js", import.meta.url));

/** The interface family's outcomes ({ check: outcome }) of `module#exportName` with `fault` injected, and the failures' messages. */
function family(module, exportName, fault = "", checks = "interface.*") {
  const dir = mkdtempSync(join(tmpdir(), "tinymemory-interface-"));
  try {
    const report = join(dir, "report.json");
    const args = ["run", "--driver", `exec:${process.execPath} ${serve} ${module}#${exportName}`, "--no-corpus", "--check", checks, "--all-skipped", "pass", "--format", "json", "--output", report, "--quiet"];
    const done = spawnSync(binary, args, { encoding: "utf8", env: { ...process.env, TINYMEMORY_NO_RERUN: "1", TINYMEMORY_TEST_FAULT: fault } });
    assert.ok(done.status === 0 || done.status === 1, `exit ${done.status}: ${done.stderr}`);
    const checks_ = JSON.parse(readFileSync(report, "utf8")).checks;
    return {
      outcomes: Object.fromEntries(checks_.map((c) => [c.id, c.outcome])),
      failed: checks_.filter((c) => c.outcome === "fail").map((c) => c.id),
      messages: Object.fromEntries(checks_.filter((c) => c.outcome !== "pass").map((c) => [c.id, c.message ?? c.reason])),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const skipped = { skip: !binary && "TINYMEMORY_CONFORMANCE_BIN is unset" };

test("the faithful VectorStore double passes every LangChain check, on the async path", skipped, () => {
  const { outcomes } = family(doubles, "vectorStore", "", "interface.langchain.*");
  assert.deepEqual(Object.values(outcomes), Array(10).fill("pass"));
});

// Each fault of a real store and the checks it fails: its own, and where
// the same fault breaks another scenario's promise too, that one.
const VECTOR_FAULTS = {
  placeholder: [
    "interface.langchain.empty_store",
    "interface.langchain.add_documents",
    "interface.langchain.delete",
    "interface.langchain.delete_missing",
    "interface.langchain.upsert",
    "interface.langchain.string_ids",
    "interface.langchain.search_with_score",
  ],
  mutates_input: ["interface.langchain.add_documents"],
  one_id_per_delete: ["interface.langchain.delete"],
  delete_missing_throws: ["interface.langchain.delete_missing"],
  append_only: ["interface.langchain.upsert"],
  get_missing_throws: ["interface.langchain.get_by_ids"],
  unfindable_generated_ids: ["interface.langchain.add_documents", "interface.langchain.generated_ids", "interface.langchain.document_ids"],
  ignores_document_id: ["interface.langchain.document_ids"],
  uuid_ids_only: ["interface.langchain.string_ids"],
  scored_reversed: ["interface.langchain.search_with_score"],
  delete_takes_no_ids: ["interface.langchain.delete", "interface.langchain.delete_missing", "interface.langchain.string_ids"],
};

for (const [fault, expected] of Object.entries(VECTOR_FAULTS)) {
  test(`a VectorStore with the fault ${fault} fails ${expected.join(", ")}`, skipped, () => {
    const { failed, messages } = family(doubles, "vectorStore", fault, "interface.langchain.*");
    assert.deepEqual(failed, expected, JSON.stringify(messages));
    for (const check of expected) assert.match(messages[check], /^through the async methods /);
  });
}

test("the delete_missing fault's message quotes the store's error and LangChain's rule", skipped, () => {
  const { messages } = family(doubles, "vectorStore", "delete_missing_throws", "interface.langchain.delete_missing");
  assert.equal(
    messages["interface.langchain.delete_missing"],
    "through the async methods (aadd_documents, asimilarity_search, aget_by_ids, adelete): delete of one id the store does not hold raised " +
      `Error: Some specified ids do not exist in the current store. Ids not found: ${messages["interface.langchain.delete_missing"].match(/Ids not found: ([0-9a-f-]{36});/)?.[1]}; ` +
      '"Deleting missing content should not raise an exception"',
  );
});

test("a store whose delete takes no ids fails the checks that delete, saying so, as LangChain's standard tests fail it", skipped, () => {
  // VectorStoreIntegrationTests (langchain-tests 1.1.9) has no property
  // that skips its delete tests (has_sync, has_async and has_get_by_ids
  // only): test_deleting_documents calls delete(["1"]) and fails a store
  // whose delete raises. HNSWLib's and Voy's take no ids.
  const { messages } = family(doubles, "vectorStore", "delete_takes_no_ids", "interface.langchain.*");
  const why =
    "(the store's delete takes no ids: its source names no `ids` parameter (parameters: params), so delete({ ids }), " +
    "the call of LangChain's standard tests test_deleting_documents and test_delete_missing_content, which no property skips, fails on it: the store's limit)";
  assert.equal(
    messages["interface.langchain.delete"],
    "through the async methods (aadd_documents, asimilarity_search, aget_by_ids, adelete): delete([id of the first]) raised " +
      `Error: Directory undefined does not contain a hnswlib.index file. ${why}`,
  );
  for (const check of ["interface.langchain.delete_missing", "interface.langchain.string_ids"]) {
    assert.ok(messages[check].includes(`raised Error: Directory undefined does not contain a hnswlib.index file. ${why}`), messages[check]);
  }
});

test("the uuid_ids_only fault's message quotes the store's error and the ids LangChain's standard tests give", skipped, () => {
  const { messages } = family(doubles, "vectorStore", "uuid_ids_only", "interface.langchain.string_ids");
  // The ids are the suite's, drawn from the seed: two numbers from 1 to 99.
  const [, one, two] = messages["interface.langchain.string_ids"].match(/ids=\["(\d+)","(\d+)"\]\) raised/) ?? [];
  assert.equal(
    messages["interface.langchain.string_ids"],
    `through the async methods (aadd_documents, asimilarity_search, aget_by_ids, adelete): add_documents(documents, ids=["${one}","${two}"]) raised ` +
      `Error: Point id ${one} is not a valid UUID; LangChain's standard tests give ids that are plain strings ` +
      '(`add_documents(documents, ids=["1", "2"])`, then `assert ids == ["1", "2"]`, test_deleting_documents), as VectorStore.add_documents types them (`ids: list[str]`)',
  );
});

test("LangGraph.js's InMemoryStore passes every LangGraph check; the LangChain ones are not its interface's", skipped, () => {
  const { outcomes, messages } = family(doubles, "baseStore");
  assert.deepEqual(
    Object.entries(outcomes).filter(([id]) => id.startsWith("interface.langgraph.")),
    Object.keys(LANGGRAPH_SCENARIOS).map((id) => [id, "pass"]),
  );
  for (const id of Object.keys(LANGCHAIN_SCENARIOS)) {
    assert.equal(outcomes[id], "skip");
    assert.match(messages[id], /serves no framework interface, or not this check's/);
  }
});

const GRAPH_FAULTS = {
  created_at_rewritten: "interface.langgraph.item_timestamps",
  null_put_kept: "interface.langgraph.put_none_deletes",
  max_depth_ignored: "interface.langgraph.list_namespaces",
  offset_ignored: "interface.langgraph.search_paging",
};

for (const [fault, check] of Object.entries(GRAPH_FAULTS)) {
  test(`an InMemoryStore with the fault ${fault} fails ${check} only`, skipped, () => {
    const { failed, messages } = family(doubles, "baseStore", fault, "interface.langgraph.*");
    assert.deepEqual(failed, [check], JSON.stringify(messages));
    assert.match(messages[check], /^through abatch: /);
  });
}

test("a LangGraphStore over one instance skips the LangGraph checks, naming why", skipped, () => {
  const { outcomes, messages } = family(doubles, "baseStoreInstance", "", "interface.langgraph.*");
  assert.deepEqual(Object.values(outcomes), Array(4).fill("skip"));
  for (const message of Object.values(messages)) assert.match(message, /LangGraphStore was given one BaseStore instance/);
});

test("LangChain's MemoryVectorStore fails no check: two pass, the others are not judged, naming why", skipped, () => {
  const module = fileURLToPath(new URL("./doubles/memory-vector-store.js", import.meta.url));
  const { outcomes, messages } = family(module, "default", "", "interface.langchain.*");
  assert.deepEqual(outcomes, {
    "interface.langchain.empty_store": "pass",
    "interface.langchain.add_documents": "skip",
    "interface.langchain.delete": "skip",
    "interface.langchain.delete_missing": "skip",
    "interface.langchain.upsert": "skip",
    "interface.langchain.get_by_ids": "skip",
    "interface.langchain.generated_ids": "skip",
    "interface.langchain.document_ids": "skip",
    "interface.langchain.string_ids": "skip",
    "interface.langchain.search_with_score": "pass",
  });
  assert.match(messages["interface.langchain.string_ids"], /the store has no getByIds/);
  assert.match(messages["interface.langchain.delete_missing"], /the store has no delete \(Error: Not implemented\.: VectorStore's default, which MemoryVectorStore keeps\)/);
  assert.match(messages["interface.langchain.get_by_ids"], /the store has no getByIds/);
  assert.match(messages["interface.langchain.upsert"], /addDocuments resolved to undefined, not ids/);
});

test("a VectorStore whose addDocuments resolves to void is judged by the ids it was given, where the scenario gave them", skipped, () => {
  const { outcomes, messages } = family(doubles, "vectorStore", "resolves_void", "interface.langchain.*");
  assert.deepEqual(outcomes, {
    "interface.langchain.empty_store": "pass",
    "interface.langchain.add_documents": "skip",
    "interface.langchain.delete": "pass",
    "interface.langchain.delete_missing": "pass",
    "interface.langchain.upsert": "skip",
    "interface.langchain.get_by_ids": "pass",
    "interface.langchain.generated_ids": "skip",
    "interface.langchain.document_ids": "skip",
    "interface.langchain.string_ids": "pass",
    "interface.langchain.search_with_score": "pass",
  });
  for (const check of ["add_documents", "upsert", "generated_ids", "document_ids"]) {
    assert.match(messages[`interface.langchain.${check}`], /addDocuments resolved to undefined, not ids/);
  }
});

test("docs/adapters.md's JavaScript table has one row per check of the family the binary lists", skipped, () => {
  const docs = readFileSync(new URL("../../docs/adapters.md", import.meta.url), "utf8");
  const section = docs.split("### JavaScript: LangChain.js `VectorStore` and LangGraph.js `BaseStore`")[1]?.split("\n## ")[0] ?? "";
  const rows = [...section.matchAll(/^\| `(interface\.[\w.]+)` \|/gm)].map((m) => m[1]);
  const listed = JSON.parse(spawnSync(binary, ["list", "--format", "json"], { encoding: "utf8" }).stdout);
  assert.deepEqual(rows, listed.checks.filter((c) => c.family === "interface").map((c) => c.id));
});
