// Mastra's DuckDBVector (@mastra/duckdb) over a local database file, with
// the deterministic HashedEmbeddings (no model, no download), as a
// tinymemory store through the MastraVectorAdapter (docs/adapters.md,
// "Mastra"): a file of its own per driver process (deleted when the
// process exits), an index of its own per reset. mastra.test.js asserts what it fails; mastra-duckdb-repro.js
// shows each cause with DuckDBVector alone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBVector } from "@mastra/duckdb";
import { MastraVectorAdapter } from "tinymemory-conformance/mastra";

export default function makeStore() {
  const dir = mkdtempSync(join(tmpdir(), "tinymemory-mastra-duckdb-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const vector = new DuckDBVector({ id: "tinymemory", path: join(dir, "vectors.duckdb") });
  return new MastraVectorAdapter(() => vector, {
    package: "@mastra/duckdb",
    engine: "DuckDBVector (a local file)",
    independentStores: true,
  });
}
