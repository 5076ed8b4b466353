// LangChain.js's HNSWLib (@langchain/community 1.1.29, hnswlib-node 3.0.0)
// alone, without tinymemory: the faults behind every check its trial
// outside CI failed (docs/adapters.md, "Stores tried outside CI"). Each is
// asserted, so this script fails once a fault is gone. Not a row of the
// matrix: these packages are not in package.json.
// Run: npm install @langchain/community@1.1.29 @langchain/core@1.4.0 hnswlib-node@3.0.0
//      node langchain-hnswlib-repro.js
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { HNSWLib } from "@langchain/community/vectorstores/hnswlib";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();
const fresh = () => new HNSWLib(embeddings, { space: "cosine", numDimensions: embeddings.dimensions });
const inNamespace = (ns) => (doc) => doc.metadata.namespace === ns;

// 1. delete takes a directory (it removes a saved index's files), not ids:
//    no document can be removed from the index, so no upsert or forget.
{
  const store = fresh();
  await store.addDocuments([{ pageContent: "comet", metadata: { namespace: "a" } }]);
  await assert.rejects(store.delete({ ids: ["0"] }), /Directory undefined does not contain a hnswlib\.index file\./);
  console.log("1. delete({ ids }) throws: Directory undefined does not contain a hnswlib.index file.");
}

// 2. A filtered search loses every document the filter allows once 3000
//    others of three repeated texts are added (recall.namespace_isolation's
//    data): hnswlib's searchKnn applies the filter while it walks a graph
//    those duplicates crowd.
{
  const store = fresh();
  const tenant = [
    "comet tail over the harbour", "comet dust and comet light", "harbour lights at dawn",
    "a long walk along the northern harbour wall past the comet museum at dusk", "granite quarry",
    "dawn chorus in the valley", "comet", "light rain on the quarry road", "彗星 over the 港口", "港口 港口 dawn",
  ];
  const docs = (namespace) => tenant.map((pageContent) => ({ pageContent, metadata: { namespace } }));
  await store.addDocuments([...docs("tenant"), ...docs("global")]);
  const query = await embeddings.embedQuery("comet");
  const before = await store.similaritySearchVectorWithScore(query, 10, inNamespace("tenant"));
  const bulk = ["comet harbour dawn", "彗星 港口 quarry light", "museum of the northern valley"];
  await store.addDocuments(Array.from({ length: 3000 }, (_, i) => ({ pageContent: bulk[i % 3], metadata: { namespace: `bulk-${i % 10}` } })));
  const after = await store.similaritySearchVectorWithScore(query, 10, inNamespace("tenant"));
  const unfiltered = await store.similaritySearchVectorWithScore(query, 10);
  console.log(
    `2. a search for "comet" filtered on the tenant's 10 documents answers ${before.length} of them, and ${after.length} once 3000 others ` +
      `are added (unfiltered: ${unfiltered.length} hits)`,
  );
  assert.equal(before.length, 10);
  assert.ok(after.length < 10);
  assert.equal(unfiltered.length, 10);
}

// 3. A filter that throws (an object where a function is expected:
//    "filter is not a function") aborts the process inside the native
//    search (FATAL ERROR, SIGABRT), where any other store throws.
{
  const child = `
    import { HNSWLib } from "@langchain/community/vectorstores/hnswlib";
    import { HashedEmbeddings } from "tinymemory-conformance/embedding";
    const store = new HNSWLib(new HashedEmbeddings(), { space: "cosine", numDimensions: 256 });
    await store.addDocuments([{ pageContent: "comet", metadata: { namespace: "a" } }]);
    try { await store.similaritySearchWithScore("comet", 1, { namespace: "a" }); } catch (e) { console.log("threw", e.message); }`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", child], { cwd: import.meta.dirname, encoding: "utf8" });
  console.log(`3. a search given an object filter: the process ended by ${run.signal}, stderr: ${run.stderr.split("\n").find((l) => l.includes("FATAL"))}`);
  assert.equal(run.signal, "SIGABRT");
}
