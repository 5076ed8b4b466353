// The Mastra adapter over a double of MastraVector: one upsert per write
// with the shared document ids, every read a filtered query whose results
// are read back, a filter the store ignored or a written vector it does
// not answer is a mapping limit, an index per reset; and the driver id
// the compatibility matrix reads (engineId).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { MastraVectorAdapter, mastraFilter } from "../dist/adapters/mastra.js";
import { engineId, packageVersion } from "../dist/adapters/engine-id.js";
import { HashedEmbeddings } from "../dist/adapters/embedding.js";
import { documentId } from "../dist/adapters/langchain.js";
import { DoubleMastraVector } from "./doubles/mastra-vector.js";

const table = JSON.parse(readFileSync(new URL("../../fixtures/adapter-encodings.json", import.meta.url), "utf8"));
const entry = (namespace, key, content = "comet tail", more = {}) => ({ namespace, key, content, category: "core", session_id: null, taint: "internal", ...more });
const embeddings = new HashedEmbeddings();

test("each row of the encodings table is upserted under its document id and read back by get", async () => {
  const engine = new DoubleMastraVector();
  const store = new MastraVectorAdapter(() => engine);
  await store.reset();
  for (const c of table.cases) await store.store(entry(c.namespace, c.key));
  const upserts = engine.calls.filter(([op]) => op === "upsert").map(([, , ids]) => ids);
  assert.deepEqual(upserts, table.cases.map((c) => [c.document_id]));
  for (const c of table.cases) assert.equal((await store.get({ namespace: c.namespace, key: c.key }))?.id, c.document_id);
});

test("a get or forget of a key the contract refuses is invalid, naming the rule, without asking the store", async () => {
  // key.empty, key.too_long (1025 bytes; 513 two-byte characters): refused
  // as store refuses them (contract sentence 12, key.invalid_refused). A key
  // with NUL is the contract's.
  const engine = new DoubleMastraVector();
  const store = new MastraVectorAdapter(() => engine);
  await store.reset();
  await store.store(entry("global", "a\0b"));
  const before = engine.calls.length;
  for (const [key, rule] of [["", "key.empty"], ["k".repeat(1025), "key.too_long"], ["\u00e9".repeat(513), "key.too_long"]]) {
    await assert.rejects(store.get({ namespace: "global", key }), { kind: "invalid", rule });
    await assert.rejects(store.forget({ namespace: "global", key }), { kind: "invalid", rule });
  }
  assert.deepEqual(engine.calls.slice(before), []);
  assert.equal((await store.get({ namespace: "global", key: "a\0b" }))?.key, "a\0b");
  assert.equal(await store.forget({ namespace: "global", key: "a\0b" }), true);
});

test("an index per reset, the old one deleted, cleanup called for it", async () => {
  const engine = new DoubleMastraVector();
  const cleaned = [];
  const store = new MastraVectorAdapter(() => engine, { cleanup: (v) => cleaned.push(v) });
  await store.reset();
  await store.reset();
  await store.close();
  const ops = engine.calls.map(([op, name]) => [op, name]);
  assert.equal(ops.length, 4);
  assert.deepEqual(ops.map(([op]) => op), ["createIndex", "deleteIndex", "createIndex", "deleteIndex"]);
  assert.equal(ops[0][1], ops[1][1]);
  assert.equal(ops[2][1], ops[3][1]);
  assert.notEqual(ops[0][1], ops[2][1]);
  assert.match(ops[0][1], /^tinymemory_[0-9a-f]{16}$/);
  assert.deepEqual(engine.calls[0].slice(2), [256, "cosine"]);
  assert.deepEqual(cleaned, [engine, engine]);
});

test("store_many is one upsert, a repeated key's last entry kept; every field is read back from the store", async () => {
  const engine = new DoubleMastraVector();
  const store = new MastraVectorAdapter(() => engine);
  await store.reset();
  await store.storeMany({ entries: [entry("learning:a", "k", "first"), entry("learning:a", "j", "other"), entry("learning:a", "k", "second", { session_id: "s1" })] });
  assert.deepEqual(engine.calls.filter(([op]) => op === "upsert").map(([, , , keys]) => keys), [["j", "k"]]);
  // The store's copy changed behind the adapter: get shows the store's.
  const [, row] = [...engine.indexes.values()][0].entries().next().value;
  assert.equal(row.metadata.key, "j");
  row.metadata.text = "changed by the store";
  const got = await store.get({ namespace: "learning:a", key: "j" });
  assert.equal(got.content, "changed by the store");
  const k = await store.get({ namespace: "learning:a", key: "k" });
  assert.deepEqual([k.content, k.session_id, k.score], ["second", "s1", null]);
});

test("a lookup asks with the probe (the first unit vector), filtered on namespace and key, topK 2", async () => {
  const engine = new DoubleMastraVector();
  const store = new MastraVectorAdapter(() => engine);
  await store.reset();
  await store.get({ namespace: "learning:a", key: ";;;" });
  const [, , queryVector, topK, filter] = engine.calls.find(([op]) => op === "query");
  assert.deepEqual(queryVector, [1, ...new Array(255).fill(0)]);
  assert.equal(topK, 2);
  assert.deepEqual(filter, { namespace: "learning:a", key: ";;;" });
});

test("recall is one query with the query's embedding, the read's filter, and the store's scores; ties by key", async () => {
  const engine = new DoubleMastraVector();
  const store = new MastraVectorAdapter(() => engine);
  await store.reset();
  for (const key of ["b", "a", "c"]) await store.store(entry("learning:a", key, "comet"));
  await store.store(entry("learning:a", "d", "comet", { category: "other" }));
  const hits = await store.recall({ query: "comet", limit: 2, namespace: "learning:a", category: "core", session_id: null, min_score: null });
  assert.deepEqual(hits.map((h) => [h.key, h.score]), [["a", 1], ["b", 1]]);
  const queries = engine.calls.filter(([op]) => op === "query");
  assert.deepEqual(queries[0][2], embeddings.embed("comet"));
  assert.deepEqual(queries[0][4], { namespace: "learning:a", category: "core" });
  assert.deepEqual(mastraFilter("n", null, "c", "s"), { namespace: "n", category: "c", session_id: "s" });
});

test("recall asks the store for the limit (at most 2^53 - 1), not for the keys the adapter wrote", async () => {
  // The catalog says which keys exist, not how many hits a store may be
  // asked for: sized from it, a recall of every hit never reached a store
  // that refuses a huge topK (ChromaVector's n_results is a u32), and
  // recall.huge_limit passed over it.
  const engine = new DoubleMastraVector();
  const store = new MastraVectorAdapter(() => engine);
  await store.reset();
  await store.store(entry("learning:a", "k", "comet"));
  for (const limit of [10, 2 ** 64 - 1]) {
    const hits = await store.recall({ query: "comet", limit, namespace: "learning:a", category: null, session_id: null, min_score: null });
    assert.deepEqual(hits.map((h) => h.key), ["k"]);
  }
  assert.deepEqual(engine.calls.filter(([op]) => op === "query").map(([, , , topK]) => topK), [10, Number.MAX_SAFE_INTEGER]);
});

test("a recall hit whose score is not a finite number fails as the store's, never as an unscored hit", async () => {
  // MastraVector's query answers { id, score: number, metadata }: a hit
  // without one passed as unscored would keep recall.min_score and the
  // ranking checks from judging the store at all (LangChain.js's LanceDB
  // answers undefined; PgVector scores a zero query vector NaN).
  for (const [answered, shown] of [[undefined, "undefined"], [null, "null"], ["0.5", '"0.5"'], [NaN, "NaN"], [Infinity, "Infinity"]]) {
    const store = new MastraVectorAdapter(() => new DoubleMastraVector({ answers: () => answered }));
    await store.reset();
    await store.store(entry("global", "a", "comet"));
    const message =
      `the store's query answered vector "${documentId("global", "a")}" with score ${shown}, not a finite number ` +
      "(MastraVector's query answers { id, score, metadata }, the score a number)";
    for (const min_score of [null, 0.5, -1]) {
      const recall = { query: "comet", limit: 5, namespace: null, category: null, session_id: null, min_score };
      await assert.rejects(store.recall(recall), { name: "DriverError", kind: "backend", message });
    }
    // A lookup's query judges no score: it answers the entry unscored.
    const got = await store.get({ namespace: "global", key: "a" });
    assert.deepEqual([got.content, got.score], ["comet", null]);
  }
});

test("forget deletes the id the store returned (a store making its own ids)", async () => {
  const engine = new DoubleMastraVector({ ownIds: true });
  const store = new MastraVectorAdapter(() => engine);
  await store.reset();
  await store.store(entry("learning:a", "k"));
  assert.equal(await store.forget({ namespace: "learning:a", key: "k" }), true);
  assert.deepEqual(engine.calls.filter(([op]) => op === "deleteVector").map(([, , id]) => id), ["own-1"]);
  assert.equal(await store.forget({ namespace: "learning:a", key: "k" }), false);
});

test("a forget whose deleteVector throws leaves the catalog as it was: list still reads every vector the store holds", async () => {
  // The catalog dropped the key before the delete: list then asked for one
  // vector fewer and never looked the key up, answering without an entry
  // the store still held.
  const store = new MastraVectorAdapter(() => new DoubleMastraVector({ deleteFails: "connection reset" }));
  await store.reset();
  await store.store(entry("learning:a", "a", "comet"));
  await store.store(entry("learning:a", "b", "comet"));
  for (const key of ["a", "b"]) {
    await assert.rejects(store.forget({ namespace: "learning:a", key }), /connection reset/);
    const listed = await store.list({ namespace: "learning:a", category: null, session_id: null });
    assert.deepEqual(listed.map((e) => e.key), ["a", "b"], `after the failed forget of ${key}`);
  }
});

test("a store answering outside the filter is a mapping limit", async () => {
  const store = new MastraVectorAdapter(() => new DoubleMastraVector({ ignoresFilter: true }));
  await store.reset();
  await store.store(entry("learning:a", "k", "dust"));
  await store.store(entry("learning:b", "k", "comet"));
  await assert.rejects(store.recall({ query: "comet", limit: 5, namespace: "learning:a", category: null, session_id: null, min_score: null }), (e) => {
    assert.equal(e.kind, "backend");
    assert.match(e.message, /^mapping limit \(docs\/adapters\.md\): the store answered vector "[0-9a-f-]+" with metadata\.namespace "learning:b" to a query filtered on namespace "learning:a": it ignored the filter$/);
    return true;
  });
});

test("a written vector the store does not answer is a mapping limit; a key never written is a miss", async () => {
  const store = new MastraVectorAdapter(() => new DoubleMastraVector({ dropsZero: true }));
  await store.reset();
  await store.store(entry("learning:a", "k", ";;;"));
  await assert.rejects(store.get({ namespace: "learning:a", key: "k" }), /^DriverError: mapping limit \(docs\/adapters\.md\): the store's query filtered on namespace "learning:a" and key "k" did not return vector "[0-9a-f-]+", which the adapter upserted and did not delete/);
  assert.equal(await store.get({ namespace: "learning:a", key: "other" }), null);
});

test("the driver id is PACKAGE==VERSION ENGINE via tinymemory.adapters.mastra, the version the installed one", async () => {
  const dir = mkdtempSync(join(tmpdir(), "engine-id-"));
  try {
    mkdirSync(join(dir, "node_modules", "@scope", "pkg"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "@scope", "pkg", "package.json"), JSON.stringify({ name: "@scope/pkg", version: "1.2.3" }));
    mkdirSync(join(dir, "deeper"));
    assert.equal(packageVersion("@scope/pkg", join(dir, "deeper")), "1.2.3");
    assert.equal(packageVersion("@scope/not-installed", join(dir, "deeper")), "unknown");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(engineId("@mastra/libsql", "LibSQLVector", "mastra", "1.23.1"), "@mastra/libsql==1.23.1 LibSQLVector via tinymemory.adapters.mastra");
  assert.throws(() => engineId("a b", "X", "mastra", "1"), /package "a b" is not an npm package name/);
  const store = new MastraVectorAdapter(() => new DoubleMastraVector(), { package: "@scope/missing" });
  assert.equal(store.driverId, "@scope/missing==unknown MastraVector via tinymemory.adapters.mastra");
  await store.reset();
  assert.equal(store.driverId, "@scope/missing==unknown DoubleMastraVector via tinymemory.adapters.mastra");
  assert.equal(new MastraVectorAdapter(() => new DoubleMastraVector()).driverId, "mastra-vector");
  // The matrix's pattern (python/tinymemory/matrix.py, _ID) reads it back.
  const id = /^(?<package>[^\s=]+)==(?<version>\S+) (?<what>.+?)(?: via tinymemory\.adapters\.(?<adapter>.+))?$/.exec(engineId("@mastra/pg", "PgVector (PostgreSQL 16, pgvector)", "mastra", "1.27.1"));
  assert.deepEqual({ ...id.groups }, { package: "@mastra/pg", version: "1.27.1", what: "PgVector (PostgreSQL 16, pgvector)", adapter: "mastra" });
});

// The suite's verdict through the binary: the adapter over a conforming
// double passes every check the run makes; over LibSQLVector's fault it
// fails the three checks its matrix row lists, as mapping limits.
const binary = process.env.TINYMEMORY_CONFORMANCE_BIN;
const serve = fileURLToPath(new URL("../bin/tinymemory-serve.js", import.meta.url));
const stores = fileURLToPath(new URL("./doubles/mastra-stores.js", import.meta.url));
/** The failing checks of a run of the double `name` serves, and the run's exit status. */
function run(name) {
  const dir = mkdtempSync(join(tmpdir(), "mastra-double-"));
  try {
    const output = join(dir, "report.json");
    const args = ["run", "--driver", `exec:${process.execPath} ${serve} ${stores}#${name}`, "--no-corpus", "--cases", "8", "--format", "json", "--output", output, "--quiet"];
    const done = spawnSync(binary, args, { encoding: "utf8", env: { ...process.env, TINYMEMORY_NO_RERUN: "1" } });
    const failed = JSON.parse(readFileSync(output, "utf8")).checks.filter((c) => c.outcome === "fail");
    return { status: done.status, shown: done.stdout + done.stderr, failed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("over a conforming double the adapter passes every check but the corpus ones", { skip: !binary && "TINYMEMORY_CONFORMANCE_BIN is unset" }, () => {
  const done = run("plain");
  assert.deepEqual(done.failed, [], done.shown);
  assert.equal(done.status, 0, done.shown);
});

test("a store that never answers a zero vector fails LibSQLVector's three checks, as mapping limits", { skip: !binary && "TINYMEMORY_CONFORMANCE_BIN is unset" }, () => {
  const done = run("dropsZero");
  assert.equal(done.status, 1, done.shown);
  const failed = done.failed;
  assert.deepEqual(failed.map((c) => c.id), ["store.hostile_text_round_trip", "portability.round_trip", "portability.import_hostile"]);
  for (const c of failed) assert.match(c.message, /mapping limit \(docs\/adapters\.md\): the store's query filtered on namespace/);
});

test("a store answering hits without a score fails recall.min_score and the ranking checks as the store's", { skip: !binary && "TINYMEMORY_CONFORMANCE_BIN is unset" }, () => {
  // Taken as unscored hits, the same store passed both (recall.min_score
  // judges unscored hits by asking for none above a threshold).
  const done = run("unscored");
  assert.equal(done.status, 1, done.shown);
  const failed = done.failed.map((c) => c.id);
  for (const id of ["recall.min_score", "recall.ranking_higher_better", "recall.self_retrieval"]) assert.ok(failed.includes(id), `${id} is not among the failures ${failed.join(", ")}`);
  for (const c of done.failed) assert.match(c.message, /the store's query answered vector \\?"[0-9a-f-]+\\?" with score undefined, not a finite number \(MastraVector's query answers/, c.id);
});
