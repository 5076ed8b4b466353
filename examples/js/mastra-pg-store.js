// Mastra's PgVector (@mastra/pg) on PostgreSQL 16 with pgvector, with the
// deterministic HashedEmbeddings (no model, no download), as a tinymemory
// store through the MastraVectorAdapter (docs/adapters.md, "Mastra"): one
// PgVector (one pool) per driver process, an index (a table) of its own
// per reset, dropped when the next reset or the driver's end replaces it. Needs TINYMEMORY_PGVECTOR_URL (pgvector.js);
// mastra.test.js asserts what it fails, mastra-pg-repro.js shows each
// cause with PgVector alone.
import { PgVector } from "@mastra/pg";
import { MastraVectorAdapter } from "tinymemory-conformance/mastra";
import { pgvectorUrl } from "./pgvector.js";

export default function makeStore() {
  let vector = null;
  return new MastraVectorAdapter(() => (vector ??= new PgVector({ id: "tinymemory", connectionString: pgvectorUrl(), max: 2 })), {
    package: "@mastra/pg",
    engine: "PgVector (PostgreSQL 16, pgvector)",
    independentStores: true,
  });
}
