// The adapters against fixtures/adapter-encodings.json (the table the
// Python adapters are held to as well), and over doubles with the faults of
// real stores: every value a check judges is read back from the store, a
// filter the store ignored is a mapping limit, the ids a store returns are
// the ones deleted, and a put writes the whole value.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { LangGraphStore, namespaceLabel, namespaceOfLabel } from "../dist/adapters/langgraph.js";
import { VectorStoreAdapter, chromaFilter, documentId, functionFilter, libsqlFilter, objectFilter } from "../dist/adapters/langchain.js";
import { HashedEmbeddings } from "../dist/adapters/embedding.js";
import { DoubleVectorStore } from "./doubles/vector-store.js";

const table = JSON.parse(readFileSync(new URL("../../fixtures/adapter-encodings.json", import.meta.url), "utf8"));
const embeddings = new HashedEmbeddings();
const entry = (namespace, key, content = "comet tail") => ({ namespace, key, content, category: "core", session_id: null, taint: "internal" });

test("every row of the encodings table: label, its decoding, and the document id", () => {
  assert.equal(table.cases.length, 18);
  for (const c of table.cases) {
    assert.equal(namespaceLabel(c.namespace), c.label, JSON.stringify(c));
    assert.equal(namespaceOfLabel(c.label), c.namespace, JSON.stringify(c));
    assert.equal(documentId(c.namespace, c.key), c.document_id, JSON.stringify(c));
  }
});

test("labels the encoder cannot make are refused", () => {
  for (const label of table.labels_refused) assert.equal(namespaceOfLabel(label), null, JSON.stringify(label));
});

test("no label holds a character a BaseStore refuses (%, _, \\, ., :)", () => {
  for (const c of table.cases) assert.doesNotMatch(c.label, /[%_\\.:]/);
});

test("the LangGraph adapter writes each row at its label, and reads it back", async () => {
  const engine = new InMemoryStore();
  const puts = [];
  const put = engine.put.bind(engine);
  engine.put = (ns, key, value) => (puts.push([ns, key]), put(ns, key, value));
  const store = new LangGraphStore(engine);
  for (const c of table.cases) await store.store(entry(c.namespace, c.key));
  assert.deepEqual(puts, table.cases.map((c) => [[c.label], c.key]));
  const names = new Set(table.cases.map((c) => c.namespace));
  assert.deepEqual((await store.namespaces()).map((s) => s.namespace).sort(), [...names].sort());
  for (const c of table.cases) assert.equal((await store.get({ namespace: c.namespace, key: c.key }))?.key, c.key);
});

test("a LangGraph recall hit whose score is neither absent nor a finite number fails as the store's", async () => {
  // BaseStore's SearchItem.score is optional: without an index every hit
  // is unscored, which the suite judges as such. A score that is there but
  // not a finite number (a string, NaN) is the store's fault, never
  // unscored (a string was) nor dropped by min_score (NaN was).
  for (const [answered, shown] of [["0.5", '"0.5"'], [NaN, "NaN"], [-Infinity, "-Infinity"], [true, "true"]]) {
    const engine = new InMemoryStore();
    const search = engine.search.bind(engine);
    engine.search = async (...args) => (await search(...args)).map((item) => ({ ...item, score: answered }));
    const store = new LangGraphStore(engine);
    await store.store(entry("global", "a", "comet"));
    const message = `the store's search answered item "a" of namespace ["global"] with score ${shown}, not a finite number (a BaseStore's SearchItem.score is a number, or absent without an index)`;
    for (const min_score of [null, 0.5]) {
      const recall = { query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score };
      await assert.rejects(store.recall(recall), { name: "DriverError", kind: "backend", message });
    }
  }
  for (const answered of [undefined, null]) {
    const engine = new InMemoryStore();
    const search = engine.search.bind(engine);
    engine.search = async (...args) => (await search(...args)).map((item) => ({ ...item, score: answered }));
    const store = new LangGraphStore(engine);
    await store.store(entry("global", "a", "comet"));
    const hits = await store.recall({ query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score: null });
    assert.deepEqual(hits.map((h) => [h.key, h.score]), [["a", null]]);
  }
});

test("the LangChain adapter gives each row's document id, and reads it back", async () => {
  const engine = new DoubleVectorStore();
  const store = new VectorStoreAdapter(() => engine);
  for (const c of table.cases) await store.store(entry(c.namespace, c.key));
  const added = engine.calls.filter(([op]) => op === "addDocuments");
  assert.deepEqual(added, table.cases.map((c) => ["addDocuments", [c.document_id], [c.document_id]]));
  for (const c of table.cases) assert.equal((await store.get({ namespace: c.namespace, key: c.key }))?.id, c.document_id);
});

test("a LangChain recall asks the store for the limit (at most 2^53 - 1), not for the keys the adapter wrote", async () => {
  // The catalog says which keys exist, not how many hits a store may be
  // asked for: sized from it, a recall of every hit never reached a store
  // that refuses a huge k, and recall.huge_limit passed over it.
  const engine = new DoubleVectorStore();
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("learning:a", "k"));
  for (const limit of [10, 2 ** 64 - 1]) {
    const hits = await store.recall({ query: "comet", limit, namespace: "learning:a", category: null, session_id: null, min_score: null });
    assert.deepEqual(hits.map((h) => h.key), ["k"]);
  }
  const asked = engine.calls.filter(([op, query]) => op === "similaritySearchWithScore" && query === "comet").map(([, , k]) => k);
  assert.deepEqual(asked, [10, Number.MAX_SAFE_INTEGER]);
});

// The keys the contract refuses, with the rule each refusal names
// (key.empty; key.too_long, over 1024 UTF-8 bytes, here also 513 two-byte
// characters): get and forget refuse them as store does (contract sentence
// 12, key.invalid_refused) without asking the store; a key with NUL is the
// contract's and is asked for.
const refusedKeys = [
  ["", "key.empty"],
  ["k".repeat(1025), "key.too_long"],
  ["\u00e9".repeat(513), "key.too_long"],
];

test("a LangChain get or forget of a key the contract refuses is invalid, naming the rule, without asking the store", async () => {
  const engine = new DoubleVectorStore();
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "a\0b"));
  const before = engine.calls.length;
  for (const [key, rule] of refusedKeys) {
    await assert.rejects(store.get({ namespace: "global", key }), { kind: "invalid", rule });
    await assert.rejects(store.forget({ namespace: "global", key }), { kind: "invalid", rule });
  }
  assert.deepEqual(engine.calls.slice(before), []);
  assert.equal((await store.get({ namespace: "global", key: "a\0b" }))?.key, "a\0b");
  assert.equal(await store.forget({ namespace: "global", key: "a\0b" }), true);
});

test("a LangGraph get or forget of a key the contract refuses is invalid, naming the rule, without asking the store", async () => {
  const engine = new InMemoryStore();
  const asked = [];
  for (const op of ["get", "delete", "search", "batch"]) {
    const call = engine[op].bind(engine);
    engine[op] = (...args) => (asked.push(op), call(...args));
  }
  const store = new LangGraphStore(engine);
  await store.store(entry("global", "a\0b"));
  asked.length = 0;
  for (const [key, rule] of refusedKeys) {
    await assert.rejects(store.get({ namespace: "global", key }), { kind: "invalid", rule });
    await assert.rejects(store.forget({ namespace: "global", key }), { kind: "invalid", rule });
  }
  assert.deepEqual(asked, []);
  assert.equal((await store.get({ namespace: "global", key: "a\0b" }))?.key, "a\0b");
  assert.equal(await store.forget({ namespace: "global", key: "a\0b" }), true);
});

test("a LangGraph store that merges a put into the old value cannot keep an imported timestamp", async () => {
  const inner = new InMemoryStore();
  const merged = async (ns, key, value) => ({ ...((await inner.get(ns, key))?.value ?? {}), ...value });
  const engine = {
    get: (ns, key) => inner.get(ns, key),
    search: (prefix, options) => inner.search(prefix, options),
    delete: (ns, key) => inner.delete(ns, key),
    listNamespaces: (options) => inner.listNamespaces(options),
    put: async (ns, key, value) => inner.put(ns, key, await merged(ns, key, value)),
    batch: async (ops) => {
      for (const op of ops) await inner.put(op.namespace, op.key, await merged(op.namespace, op.key, op.value));
      return ops.map(() => undefined);
    },
  };
  const store = new LangGraphStore(engine);
  const old = "2001-01-01T00:00:00Z";
  assert.deepEqual(await store.importRecords({ records: [{ ...entry("global", "k"), timestamp: old }] }), { imported: 1, failures: [] });
  assert.equal((await store.get({ namespace: "global", key: "k" })).timestamp, old);
  await store.store(entry("global", "k", "again"));
  const fresh = (await store.get({ namespace: "global", key: "k" })).timestamp;
  assert.notEqual(fresh, old);
  assert.ok(Date.parse(fresh) > Date.parse("2020-01-01T00:00:00Z"), fresh);
  await store.importRecords({ records: [{ ...entry("global", "k"), timestamp: old }] });
  await store.storeMany({ entries: [entry("global", "k", "third")] });
  assert.notEqual((await store.get({ namespace: "global", key: "k" })).timestamp, old);
});

test("recall hits, get, list and export are read from the store: a store stripping NUL shows it", async () => {
  const store = new VectorStoreAdapter(() => new DoubleVectorStore({ stripNul: true }));
  await store.store(entry("global", "k", "comet\0tail"));
  assert.equal((await store.get({ namespace: "global", key: "k" })).content, "comettail");
  assert.deepEqual((await store.recall({ query: "comettail", limit: 5, namespace: null, category: null, session_id: null, min_score: null })).map((h) => h.content), ["comettail"]);
  assert.deepEqual((await store.list({ namespace: null, category: null, session_id: null })).map((e) => e.content), ["comettail"]);
  assert.deepEqual((await store.exportPage({ cursor: null, limit: 10 })).records.map((r) => r.content), ["comettail"]);
});

test("metadata is read from the store: a store stripping NUL from metadata shows it", async () => {
  const store = new VectorStoreAdapter(() => new DoubleVectorStore({ stripNul: "metadata" }));
  await store.store({ ...entry("global", "k"), session_id: "s\u00001" });
  assert.equal((await store.list({ namespace: "global", category: null, session_id: null }))[0].session_id, "s1");
});

test("a store that ignores the filter is a mapping limit naming the option, in recall and get", async () => {
  const store = new VectorStoreAdapter(() => new DoubleVectorStore({ ignoresFilter: true }));
  // Equal scores come in insertion order: the other namespace's first.
  await store.store(entry("other", "b", "comet"));
  await store.store(entry("global", "a", "comet"));
  const recall = { query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score: null };
  const limit = { name: "DriverError", kind: "backend", message: /^mapping limit \(docs\/adapters\.md\): the store answered document "[0-9a-f-]{36}" with metadata\.namespace "other" to a search filtered on namespace "global": it ignored the filter; give VectorStoreAdapter the option `filter`/ };
  await assert.rejects(store.recall(recall), limit);
  await assert.rejects(store.get({ namespace: "global", key: "a" }), { kind: "backend", message: /^mapping limit \(docs\/adapters\.md\): .* it ignored the filter/ });
});

test("the default filter is an object, a function for a store of type memory, LibSQL's form for libsql; option filter wins", async () => {
  const seen = [];
  for (const type of ["double", "memory", "libsql"]) {
    const engine = new DoubleVectorStore({ functionFilter: type === "memory" });
    engine._vectorstoreType = () => type;
    engine.matches = () => true;
    const search = engine.similaritySearchWithScore.bind(engine);
    engine.similaritySearchWithScore = (q, k, f) => (seen.push(f), search(q, k, f));
    const store = new VectorStoreAdapter(() => engine);
    await store.store(entry("global", "k"));
    // limit 2 over one document: one answer short of the limit, so one search (at the limit, a tie could go on past it).
    await store.recall({ query: "comet", limit: 2, namespace: null, category: "core", session_id: null, min_score: null });
  }
  assert.deepEqual(seen[0], { namespace: "global", category: "core" });
  assert.equal(typeof seen[1], "function");
  assert.deepEqual(seen[2], { namespace: { operator: "=", value: "global" }, category: { operator: "=", value: "core" } });
  assert.deepEqual(objectFilter({ namespace: "n", key: "k", category: null, session_id: "s", isCurrent: () => true }), { namespace: "n", key: "k", session_id: "s" });
  assert.deepEqual(libsqlFilter({ namespace: "n", key: "k", category: null, session_id: null, isCurrent: () => true }), { namespace: { operator: "=", value: "n" }, key: { operator: "=", value: "k" } });
  const f = functionFilter({ namespace: "n", key: null, category: null, session_id: null, isCurrent: () => true });
  assert.equal(f({ metadata: { namespace: "n" } }), true);
  assert.equal(f({ metadata: { namespace: "m" } }), false);
  const mine = [];
  const store = new VectorStoreAdapter(() => new DoubleVectorStore(), { filter: (c) => (mine.push(c.namespace), objectFilter(c)) });
  await store.store(entry("global", "k"));
  await store.get({ namespace: "global", key: "k" });
  assert.deepEqual(mine, ["global"]);
});

for (const type of ["hnswlib", "closevector"]) test(`the filter of a store of type ${type} (HNSWLib, CloseVectorNode) is a function (doc) => boolean: given an object, its native search aborts the process`, async () => {
  // HNSWLib and CloseVectorNode (@langchain/community 1.1.29) call the
  // filter on each candidate inside hnswlib-node's (closevector-hnswlib-node's)
  // searchKnn, where a TypeError ("filter is not a function") is a FATAL
  // ERROR (SIGABRT), not an exception: the double calls it as they do and
  // throws where the process would die.
  const engine = new DoubleVectorStore({ functionFilter: true });
  engine._vectorstoreType = () => type;
  const seen = [];
  const search = engine.similaritySearchWithScore.bind(engine);
  engine.similaritySearchWithScore = (q, k, f) => (seen.push(typeof f), search(q, k, f));
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "k", "comet"));
  await store.store(entry("other", "k", "comet"));
  const hits = await store.recall({ query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score: null });
  assert.deepEqual(hits.map((h) => [h.namespace, h.key]), [["global", "k"]]);
  assert.equal((await store.get({ namespace: "other", key: "k" })).namespace, "other");
  assert.deepEqual([...new Set(seen)], ["function"]);
});

test("a function filter keeps the current document by its revision, not its id: a store may hand the filter a document without one", async () => {
  // CloseVectorNode (@langchain/community 1.1.29) calls the filter with
  // { pageContent, metadata } and answers Documents without their ids:
  // asking the filter for the id kept nothing, and every read answered
  // no hit, which the checks took for the store's loss.
  const engine = new DoubleVectorStore({ functionFilter: true, dropsIds: true });
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "k", "comet"));
  await store.store(entry("global", "k", "comet tail"));
  await store.store(entry("other", "k", "comet"));
  const hits = await store.recall({ query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score: null });
  assert.deepEqual(hits.map((h) => [h.namespace, h.key, h.content]), [["global", "k", "comet tail"]]);
  assert.equal((await store.get({ namespace: "other", key: "k" })).content, "comet");
  assert.equal(await store.forget({ namespace: "global", key: "k" }), true);
  assert.equal(await store.get({ namespace: "global", key: "k" }), null);
  assert.deepEqual(engine.rows.map((r) => [r.metadata.namespace, r.pageContent]), [["other", "comet"]]);
});

test("Chroma's filter is one equality alone, several under $and (its where refuses an object of two fields)", async () => {
  const seen = [];
  const engine = new DoubleVectorStore();
  engine._vectorstoreType = () => "chroma";
  engine.matches = () => true;
  const search = engine.similaritySearchWithScore.bind(engine);
  engine.similaritySearchWithScore = (q, k, f) => (seen.push(f), search(q, k, f));
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "k"));
  await store.recall({ query: "comet", limit: 2, namespace: null, category: null, session_id: null, min_score: null });
  await store.get({ namespace: "global", key: "k" });
  assert.deepEqual(seen, [{ namespace: "global" }, { $and: [{ namespace: "global" }, { key: "k" }] }]);
  assert.deepEqual(chromaFilter({ namespace: "n", key: null, category: "core", session_id: "s", isCurrent: () => true }), {
    $and: [{ namespace: "n" }, { category: "core" }, { session_id: "s" }],
  });
});

test("the ids a store returns are the ones deleted (a store making its own ids)", async () => {
  const engine = new DoubleVectorStore({ ownIds: true });
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "k", "first"));
  await store.store(entry("global", "k", "second"));
  assert.deepEqual(engine.rows.map((r) => [r.id, r.pageContent]), [["own-2", "second"]]);
  assert.equal((await store.get({ namespace: "global", key: "k" })).id, "own-2");
  assert.equal(await store.forget({ namespace: "global", key: "k" }), true);
  assert.deepEqual(engine.rows, []);
  assert.equal(await store.forget({ namespace: "global", key: "k" }), false);
});

test("a store that does not upsert gets the old document deleted before the new one is added", async () => {
  const engine = new DoubleVectorStore();
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "k", "first"));
  await store.store(entry("global", "k", "second"));
  const id = documentId("global", "k");
  assert.deepEqual(engine.calls, [["addDocuments", [id], [id]], ["delete", [id]], ["addDocuments", [id], [id]]]);
  assert.equal((await store.get({ namespace: "global", key: "k" })).content, "second");
});

test("a store without delete keeps replaced documents, which the function filter drops", async () => {
  const engine = new DoubleVectorStore({ functionFilter: true, noDelete: true });
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "k", "comet"));
  await store.store(entry("global", "k", "stone"));
  assert.equal(engine.rows.length, 2);
  assert.equal((await store.get({ namespace: "global", key: "k" })).content, "stone");
  const hits = await store.recall({ query: "comet stone", limit: 5, namespace: null, category: null, session_id: null, min_score: null });
  assert.deepEqual(hits.map((h) => h.content), ["stone"]);
  assert.equal(await store.forget({ namespace: "global", key: "k" }), true);
  assert.equal(await store.get({ namespace: "global", key: "k" }), null);
  assert.deepEqual(await store.namespaces(), []);
});

test("a store without delete whose filter keeps replaced documents: a read answering one is a mapping limit, never the store's fault", async () => {
  // LangChain.js's LanceDB (@langchain/community 1.1.29): VectorStore's
  // default delete, and a search honouring no function filter.
  const engine = new DoubleVectorStore({ noDelete: true });
  const store = new VectorStoreAdapter(() => engine);
  const id = documentId("global", "k");
  const stale = (revision) =>
    `mapping limit (docs/adapters.md): the store has no delete (VectorStore's default throws "Not implemented."), so a document ` +
    `a write replaced or a forget removed stays in it, and its search answered one: document "${id}" of namespace "global", key "k", ` +
    `revision ${revision}; only a filter dropping such documents (functionFilter, which isCurrent drives) serves a store without delete`;
  await store.store(entry("global", "k", "comet"));
  await store.store(entry("global", "k", "stone"));
  assert.equal(engine.rows.length, 2);
  await assert.rejects(store.get({ namespace: "global", key: "k" }), { name: "DriverError", kind: "backend", message: stale(1) });
  const recall = { query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score: null };
  await assert.rejects(store.recall(recall), { name: "DriverError", kind: "backend", message: stale(1) });
  const other = new VectorStoreAdapter(() => new DoubleVectorStore({ noDelete: true }));
  await other.store(entry("global", "k", "comet"));
  assert.equal(await other.forget({ namespace: "global", key: "k" }), true);
  await assert.rejects(other.get({ namespace: "global", key: "k" }), { name: "DriverError", kind: "backend", message: stale(1) });
});

// The suite's verdict on the doubles, through the binary.
const binary = process.env.TINYMEMORY_CONFORMANCE_BIN;
const serve = fileURLToPath(new URL("../bin/tinymemory-serve.js", import.meta.url));
const doubles = fileURLToPath(new URL("./doubles/vector-store.js", import.meta.url));

function runCheck(exportName, check) {
  const args = ["run", "--driver", `exec:${process.execPath} ${serve} ${doubles}#${exportName}`, "--no-corpus", "--cases", "8", "--check", check];
  return spawnSync(binary, args, { encoding: "utf8", env: { ...process.env, TINYMEMORY_NO_RERUN: "1" } });
}

test("a store stripping NUL from content fails store.big_content_round_trip through the adapter", { skip: !binary && "TINYMEMORY_CONFORMANCE_BIN is unset" }, () => {
  const done = runCheck("stripsNul", "store.big_content_round_trip");
  assert.equal(done.status, 1, done.stdout + done.stderr);
  assert.match(done.stdout, /FAIL  store\.big_content_round_trip \(contract, [^)]*\): a 1048606 byte content did not come back byte for byte from get \(got 1014780 bytes\)/, done.stdout);
  assert.equal(runCheck("plain", "store.big_content_round_trip").status, 0);
});

test("a store answering distances fails recall.ranking_higher_better, and passes every check with score: \"distance\"", { skip: !binary && "TINYMEMORY_CONFORMANCE_BIN is unset" }, () => {
  const silent = runCheck("distances", "recall.ranking_higher_better");
  assert.equal(silent.status, 1, silent.stdout + silent.stderr);
  assert.match(silent.stdout, /FAIL  recall\.ranking_higher_better \(contract, [^)]*\): hits for "alpha beta gamma delta" are \[exact \(0\.0\), three \([0-9.]+\), two \([0-9.]+\), one \([0-9.]+\)\]: a score rises down the list, so scores are not higher-is-better/, silent.stdout);
  // The whole suite, as the same store answering similarities passes it.
  const args = ["run", "--driver", `exec:${process.execPath} ${serve} ${doubles}#distancesDeclared`, "--no-corpus", "--cases", "8", "--quiet", "--format", "json"];
  const declared = spawnSync(binary, args, { encoding: "utf8", env: { ...process.env, TINYMEMORY_NO_RERUN: "1" } });
  assert.equal(declared.status, 0, declared.stdout + declared.stderr);
  // Skipped: the 2 corpus checks, the 4 LangGraph checks of the interface
  // family (not this adapter's interface), and the 10 LangChain ones: the
  // double has no similaritySearch or getByIds, which every scenario reads
  // by (delete_missing finds the document it adds by similaritySearch);
  // those skips keep the interface family from passing.
  const report = JSON.parse(declared.stdout);
  assert.deepEqual([report.counts.pass, report.counts.fail, report.counts.skip], [62, 0, 16]);
  assert.equal(report.conformance.level, "partial");
  assert.deepEqual(
    report.conformance.families.filter((f) => f.status === "pass").map((f) => f.family),
    ["contract", "sections", "portability", "property"],
  );
});

test("option score turns a distance or a rank into a higher-is-better score, order and ties kept", async () => {
  const recall = (store) => store.recall({ query: "comet tail", limit: 5, namespace: null, category: null, session_id: null, min_score: null });
  const fill = async (store) => {
    await store.store(entry("global", "a", "comet tail"));
    await store.store(entry("global", "b", "comet"));
    await store.store(entry("global", "c", "comet"));
    await store.store(entry("global", "d", "stone"));
  };
  const similar = new VectorStoreAdapter(() => new DoubleVectorStore());
  const far = new VectorStoreAdapter(() => new DoubleVectorStore({ scores: "distance" }), { score: "distance" });
  const ranked = new VectorStoreAdapter(() => new DoubleVectorStore({ scores: "rank" }), { score: "rank" });
  for (const s of [similar, far, ranked]) await fill(s);
  const bySimilarity = await recall(similar);
  const byDistance = await recall(far);
  assert.deepEqual(byDistance.map((h) => h.key), bySimilarity.map((h) => h.key));
  // 0 - distance: exact, so equal distances stay equal scores (b and c).
  assert.deepEqual(byDistance.map((h) => h.score), bySimilarity.map((h) => 0 - (1 - h.score)));
  assert.equal(byDistance[1].score, byDistance[2].score);
  assert.equal(Object.is(byDistance[0].score, -0), false, "a distance of 0 scores 0, not -0");
  const byRank = await recall(ranked);
  assert.deepEqual(byRank.map((h) => h.key), ["a", "b", "c", "d"]);
  assert.deepEqual(byRank.map((h) => h.score), [0, -1, -2, -3]);
  // min_score compares the score the adapter answers.
  const kept = await far.recall({ query: "comet tail", limit: 5, namespace: null, category: null, session_id: null, min_score: byDistance[1].score });
  assert.deepEqual(kept.map((h) => h.key), ["a", "b", "c"]);
});

test("a store answering a hit without a finite numeric score fails the recall as the store's, never as an unscored hit", async () => {
  // LangChain.js's LanceDB (@langchain/community 1.1.29) reads `item.score`,
  // which @lancedb/lancedb 0.19.1 does not answer (its distance is
  // `_distance`): every hit comes with score undefined. LibSQL's, over a
  // zero vector, is null. NaN and the infinities are numbers to
  // `typeof`, and a recall with min_score dropped a NaN hit unseen.
  for (const answered of [undefined, null, "0.5", NaN, Infinity, -Infinity]) {
    const engine = new DoubleVectorStore();
    const search = engine.similaritySearchWithScore.bind(engine);
    engine.similaritySearchWithScore = async (...args) => (await search(...args)).map(([doc]) => [doc, answered]);
    const store = new VectorStoreAdapter(() => engine);
    await store.store(entry("global", "a", "comet"));
    const shown = typeof answered === "number" || answered === undefined ? String(answered) : JSON.stringify(answered);
    const message =
      `the store's similaritySearchWithScore answered document "${documentId("global", "a")}" with score ${shown}, not a finite number ` +
      "(LangChain.js's VectorStore answers [Document, number] pairs)";
    for (const min_score of [null, 0.5, -1]) {
      const recall = { query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score };
      await assert.rejects(store.recall(recall), { name: "DriverError", kind: "backend", message });
    }
    // A lookup's search judges no score: it answers the entry unscored.
    assert.equal((await store.get({ namespace: "global", key: "a" })).content, "comet");
  }
});

test("option score must be similarity, distance or rank", () => {
  assert.throws(() => new VectorStoreAdapter(() => new DoubleVectorStore(), { score: "relevance" }), {
    name: "TypeError",
    message: 'VectorStoreAdapter option score is "relevance"; expected "similarity" (the default), "distance" or "rank"',
  });
});

test("store_many is one delete of the documents it replaces and one addDocuments, a repeated key's last entry kept", async () => {
  const engine = new DoubleVectorStore({ ownIds: true });
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "a", "first"));
  engine.calls = [];
  await store.storeMany({ entries: [entry("global", "a", "second"), entry("global", "b", "one"), entry("global", "b", "two")] });
  const ids = [documentId("global", "a"), documentId("global", "b")];
  assert.deepEqual(engine.calls, [["delete", ["own-1"]], ["addDocuments", ids, ids]]);
  assert.deepEqual((await store.list({ namespace: "global", category: null, session_id: null })).map((e) => [e.key, e.content, e.id]), [["a", "second", "own-2"], ["b", "two", "own-3"]]);
});

test("option cleanup gets each engine a reset replaces, and the last one at close", async () => {
  const made = [];
  const cleaned = [];
  const graph = new LangGraphStore(() => (made.push(new InMemoryStore()), made.at(-1)), { cleanup: (e) => cleaned.push(made.indexOf(e)) });
  await graph.reset();
  await graph.reset();
  await graph.close();
  assert.deepEqual(cleaned, [0, 1]);
  const engines = [];
  const vectors = new VectorStoreAdapter(() => (engines.push(new DoubleVectorStore()), engines.at(-1)), { cleanup: (e) => cleaned.push(engines.indexOf(e) + 10) });
  await vectors.reset();
  await vectors.store(entry("global", "k"));
  await vectors.reset();
  await vectors.close();
  assert.deepEqual(cleaned, [0, 1, 10, 11]);
});

test("recall asks the store even for a namespace the adapter has not written since the reset", async () => {
  const engine = new DoubleVectorStore();
  // A factory handing back the same engine: a reset that empties nothing.
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "k", "comet"));
  await store.reset();
  const hits = await store.recall({ query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score: null });
  assert.deepEqual(hits.map((h) => h.key), ["k"]);
  assert.equal((await store.get({ namespace: "global", key: "k" }))?.content, "comet");
});

test("a stored entry a filtered search misses is a mapping limit, not a miss (a store filtering after its nearest k)", async () => {
  const engine = new DoubleVectorStore({ filterAfterTopK: true });
  const store = new VectorStoreAdapter(() => engine);
  // "c" as the query ranks the other namespace's "c c" above global's "c".
  await store.store(entry("global", "c", "comet tail"));
  await store.store(entry("other", "c", "c c"));
  await store.store(entry("other", "d", "c"));
  const id = documentId("global", "c");
  const limit = {
    name: "DriverError",
    kind: "backend",
    message:
      `mapping limit (docs/adapters.md): the store's search filtered on namespace "global" and key "c" did not return document "${id}", ` +
      "which the adapter wrote and did not delete (get is a filtered search: LangChain.js has no lookup by id): " +
      "either the store lost it or it applies its filter after its nearest k (recall.limit shows which)",
  };
  assert.equal(engine.rows.some((r) => r.id === id), true);
  await assert.rejects(store.get({ namespace: "global", key: "c" }), limit);
  await assert.rejects(store.list({ namespace: "global", category: null, session_id: null }), limit);
  await assert.rejects(store.exportPage({ cursor: null, limit: 10 }), limit);
  await assert.rejects(store.forget({ namespace: "global", key: "c" }), limit);
  // A key the adapter never wrote stays a plain miss.
  assert.equal(await store.get({ namespace: "global", key: "absent" }), null);
});

test("a store that cannot delete by ids is a mapping limit naming it; another delete error stays the store's", async () => {
  const engine = new DoubleVectorStore({ deleteAllOnly: true });
  const store = new VectorStoreAdapter(() => engine);
  await store.store(entry("global", "k", "first"));
  await assert.rejects(store.store(entry("global", "k", "second")), {
    name: "DriverError",
    kind: "backend",
    message: 'mapping limit (docs/adapters.md): the store cannot delete by ids: You must provide a "deleteAll" parameter.',
  });
  const failing = new VectorStoreAdapter(() => new DoubleVectorStore({ deleteFails: "Connection terminated unexpectedly" }));
  await failing.store(entry("global", "k", "first"));
  await assert.rejects(failing.store(entry("global", "k", "second")), { name: "Error", message: "Connection terminated unexpectedly" });
});

test("a write or forget whose delete failed leaves the catalog as it was: the key's document is still read from the store", async () => {
  // The catalog dropped the key before the delete: with a function filter
  // (HNSWLib, CloseVectorNode, whose delete takes a directory) the
  // document the store still held was filtered out, and get answered
  // null, an entry gone from a store that never removed it.
  for (const options of [{ deleteAllOnly: true }, { deleteFails: "Connection terminated unexpectedly" }]) {
    for (const functionFilter of [true, false]) {
      const store = new VectorStoreAdapter(() => new DoubleVectorStore({ ...options, functionFilter }));
      await store.store(entry("global", "k", "first"));
      await assert.rejects(store.store(entry("global", "k", "second")));
      assert.equal((await store.get({ namespace: "global", key: "k" }))?.content, "first", JSON.stringify({ options, functionFilter }));
      await assert.rejects(store.forget({ namespace: "global", key: "k" }));
      assert.equal((await store.get({ namespace: "global", key: "k" }))?.content, "first", JSON.stringify({ options, functionFilter }));
      assert.deepEqual(
        (await store.list({ namespace: "global", category: null, session_id: null })).map((e) => [e.key, e.content]),
        [["k", "first"]],
      );
    }
  }
});

test("a store whose search takes no filter is a mapping limit saying so, not advising the option", async () => {
  const store = new VectorStoreAdapter(() => new DoubleVectorStore({ noFilterParameter: true }));
  await store.store(entry("other", "b", "comet"));
  await store.store(entry("global", "a", "comet"));
  const recall = { query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score: null };
  const message =
    /^mapping limit \(docs\/adapters\.md\): the store answered document "[0-9a-f-]{36}" with metadata\.namespace "other" to a search filtered on namespace "global": it ignored the filter; its similaritySearchVectorWithScore takes no filter \(parameters query, k\), so no `filter` option helps: this store cannot be served for recalls pinned to a namespace, key, category or session$/;
  await assert.rejects(store.recall(recall), { name: "DriverError", kind: "backend", message });
  await assert.rejects(store.get({ namespace: "global", key: "a" }), { kind: "backend", message });
});

test("a store filtering after its nearest k fails store.bulk as a mapping limit, not as a missing entry", { skip: !binary && "TINYMEMORY_CONFORMANCE_BIN is unset" }, () => {
  const done = runCheck("filtersAfterTopK", "store.bulk");
  assert.equal(done.status, 1, done.stdout + done.stderr);
  assert.match(
    done.stdout,
    /FAIL  store\.bulk \(contract, [^)]*\): unexpected driver error: backend failure: mapping limit \(docs\/adapters\.md\): the store's search filtered on namespace "global" and key "c" did not return document "[0-9a-f-]{36}", which the adapter wrote and did not delete/,
    done.stdout,
  );
});
