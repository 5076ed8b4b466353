// LangChain.js's LanceDB (@langchain/community 1.1.29 over @lancedb/lancedb
// 0.19.1, a local directory per store) with the deterministic
// HashedEmbeddings (no model, no download), as a tinymemory store through
// the VectorStoreAdapter. Not a row of the matrix (its packages are not in
// package.json): its trial is a row of docs/adapters.md, "Stores tried
// outside CI", and langchain-lancedb-repro.js shows each of its faults
// with LanceDB alone.
// Run: npm install @langchain/community@1.1.29 @langchain/core@1.4.0 @lancedb/lancedb@0.19.1 apache-arrow@18.1.0
//      conformance({ driver: "./langchain-lancedb-store.js", corpus: false })
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LanceDB } from "@langchain/community/vectorstores/lancedb";
import { connect } from "@lancedb/lancedb";
import { Field, FixedSizeList, Float32, Float64, Schema, Utf8 } from "apache-arrow";
import { VectorStoreAdapter } from "tinymemory-conformance/langchain";
import { engineId } from "tinymemory-conformance";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";

const embeddings = new HashedEmbeddings();
// Each engine's directory, removed by the adapter's `cleanup` when a reset
// replaces the engine or the driver ends (a process the suite stops by
// signal never runs an "exit" handler).
const dirs = new Map();
const freshDir = () => mkdtempSync(join(tmpdir(), "tinymemory-lancedb-"));
const remember = (engine, dir) => (dirs.set(engine, dir), engine);
const cleanup = (engine) => {
  rmSync(dirs.get(engine), { recursive: true, force: true });
  dirs.delete(engine);
};

/** LanceDB as its docs make it: the table made by the first addDocuments, its schema inferred from those rows. */
export default function makeStore() {
  return new VectorStoreAdapter(
    () => {
      const dir = freshDir();
      return remember(new LanceDB(embeddings, { uri: dir, tableName: "docs", mode: "create" }), dir);
    },
    { driverId: engineId("@langchain/community", "LanceDB", "langchain.js"), score: "distance", independentStores: true, cleanup },
  );
}

/**
 * The same store over a table made first with an explicit schema (the
 * wrapper takes `table`), so a first document whose session is null is
 * taken; the schema holds the adapter's fields only.
 */
export function schema() {
  return new VectorStoreAdapter(
    async () => {
      const text = (name) => new Field(name, new Utf8(), true);
      const dir = freshDir();
      const table = await (await connect(dir)).createEmptyTable(
        "docs",
        new Schema([
          new Field("vector", new FixedSizeList(embeddings.dimensions, new Field("item", new Float32(), true)), true),
          ...["text", "namespace", "key", "category", "session_id", "taint", "timestamp"].map(text),
          new Field("revision", new Float64(), true),
        ]),
      );
      return remember(new LanceDB(embeddings, { table }), dir);
    },
    { driverId: engineId("@langchain/community", "LanceDB (an explicit schema)", "langchain.js"), score: "distance", independentStores: true, cleanup },
  );
}
