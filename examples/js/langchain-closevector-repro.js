// LangChain.js's CloseVectorNode (@langchain/community 1.1.29,
// closevector-node 0.1.6, closevector-hnswlib-node 0.1.1) alone, without
// tinymemory: the faults behind every check its trial outside CI failed
// (docs/adapters.md, "Stores tried outside CI"). Each is asserted, so this
// script fails once a fault is gone. Not a row of the matrix: these
// packages are not in package.json.
// Run: npm install @langchain/community@1.1.29 @langchain/core@1.4.0 closevector-node@0.1.6
//      (then `npx node-gyp rebuild` in node_modules/closevector-hnswlib-node:
//      npm 11 runs no install script unasked)
//      node langchain-closevector-repro.js
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { CloseVectorNode } from "@langchain/community/vectorstores/closevector/node";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();
const fresh = () => new CloseVectorNode(embeddings, { space: "cosine", numDimensions: embeddings.dimensions });

// 1. delete takes a directory (it removes a saved index's files), not ids:
//    no document can be removed from the index, so no upsert or forget.
{
  const store = fresh();
  await store.addDocuments([{ pageContent: "comet", metadata: { namespace: "a" }, id: "d1" }]);
  await assert.rejects(store.delete({ ids: ["d1"] }), /Directory undefined does not contain a hnswlib\.index file\./);
  console.log("1. delete({ ids }) throws: Directory undefined does not contain a hnswlib.index file.");
}

// 2. A document's id is dropped: the filter is called with pageContent
//    and metadata only, and the search answers Documents without an id,
//    so a document added with one cannot be told by it.
{
  const store = fresh();
  await store.addDocuments([{ pageContent: "lobster", metadata: { namespace: "a" }, id: "d1" }], { ids: ["d1"] });
  const seen = [];
  const [[doc]] = await store.similaritySearchWithScore("lobster", 1, (d) => (seen.push(Object.keys(d).sort().join(",")), true));
  console.log(`2. added with id "d1": the filter saw a document of [${seen[0]}], the search answered id ${JSON.stringify(doc.id ?? null)}`);
  assert.equal(seen[0], "metadata,pageContent");
  assert.equal(doc.id, undefined);
}

// 3. A filter that throws (an object where a function is expected:
//    "filter is not a function") aborts the process inside the native
//    search (FATAL ERROR, SIGABRT), where any other store throws.
{
  const child = `
    import { CloseVectorNode } from "@langchain/community/vectorstores/closevector/node";
    import { HashedEmbeddings } from "tinymemory-conformance/embedding";
    const store = new CloseVectorNode(new HashedEmbeddings(), { space: "cosine", numDimensions: 256 });
    await store.addDocuments([{ pageContent: "comet", metadata: { namespace: "a" } }]);
    try { await store.similaritySearchWithScore("comet", 1, { namespace: "a" }); } catch (e) { console.log("threw", e.message); }`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", child], { cwd: import.meta.dirname, encoding: "utf8" });
  console.log(`3. a search given an object filter: the process ended by ${run.signal}, stderr: ${run.stderr.split("\n").find((l) => l.includes("FATAL"))}`);
  assert.equal(run.signal, "SIGABRT");
}
