// Mastra's LibSQLVector (@mastra/libsql) over a local database file, with
// the deterministic HashedEmbeddings (no model, no download), as a
// tinymemory store through the MastraVectorAdapter (docs/adapters.md,
// "Mastra"): a file of its own per driver process, an index of its own
// per reset, the file deleted when the driver ends. mastra.test.js
// asserts what it fails; mastra-libsql-repro.js shows each cause with
// LibSQLVector alone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LibSQLVector } from "@mastra/libsql";
import { MastraVectorAdapter } from "tinymemory-conformance/mastra";

export default function makeStore() {
  const dir = mkdtempSync(join(tmpdir(), "tinymemory-mastra-libsql-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const vector = new LibSQLVector({ id: "tinymemory", url: `file:${join(dir, "vectors.db")}` });
  return new MastraVectorAdapter(() => vector, { package: "@mastra/libsql", engine: "LibSQLVector (a local file)", independentStores: true });
}
