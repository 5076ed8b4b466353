// LangGraph.js's PostgresStore (@langchain/langgraph-checkpoint-postgres)
// with a pgvector index over the entries' content (the deterministic
// HashedEmbeddings: no model, no download), as a tinymemory store through
// the LangGraphStore adapter (docs/adapters.md, "JavaScript"). Each store
// (a fresh one at every reset) has a schema of its own, dropped when the
// next reset or the driver's end replaces it. Needs
// TINYMEMORY_PGVECTOR_URL (pgvector.js); langgraph-postgres.test.js
// asserts what it fails, each shown with PostgresStore alone by
// langgraph-postgres-repro.js and
// langgraph-postgres-list-namespaces-repro.js.
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { LangGraphStore } from "tinymemory-conformance/langgraph";
import { engineId } from "tinymemory-conformance";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";
import { freshSchema, pgvectorUrl, sql } from "./pgvector.js";

const embeddings = new HashedEmbeddings();

/**
 * The checks PostgresStore fails (@langchain/langgraph-checkpoint-postgres
 * 1.0.5, PostgreSQL 16, pgvector; no corpus, 8 cases), in run order, each
 * with its cause, shown by langgraph-postgres-repro.js ("depth" by
 * langgraph-postgres-list-namespaces-repro.js):
 *
 * - "prefix": its search matches a namespace prefix as a string
 *   (`namespace_path LIKE 'prefix%'`), not label by label, so the
 *   namespace ["learning-3aa"] (learning:a) also answers the items of
 *   ["learning-3aa-2fb"] (learning:a/b): a list, count or recall of one
 *   namespace holds another's entries;
 * - "nul": a value or key holding U+0000 is an error (jsonb and text hold
 *   no NUL);
 * - "nan": a query with no word (its embedding the zero vector) scores NaN
 *   (pgvector's cosine distance over a zero norm);
 * - "depth": listNamespaces with a maxDepth drops the namespaces deeper
 *   than it (`ns.length <= maxDepth`) where the docs truncate them.
 */
export const EXPECTED_FAILURES = [
  ["recall.limit", "prefix"],
  ["recall.plain_text_query", "nan"],
  ["recall.namespace_isolation", "prefix"],
  ["store.distinct_identities", "prefix"],
  ["store.hostile_text_round_trip", "nul"],
  ["store.big_content_round_trip", "nul"],
  ["recall.hostile_queries", "nul"],
  ["namespace.reserved_words", "prefix"],
  ["sections.pinned_hits_only", "prefix"],
  ["interface.langgraph.list_namespaces", "depth"],
  ["portability.pages_partition", "prefix"],
  ["portability.end_of_export", "prefix"],
  ["portability.cursor_stable", "prefix"],
  ["portability.round_trip", "prefix"],
  ["portability.import_hostile", "nul"],
  ["properties.across_ordering", "nan"],
  ["properties.cap_determinism", "prefix"],
  ["properties.truncation", "nan"],
  ["properties.concurrent_equals_sequential", "nan"],
  ["properties.export_partition", "prefix"],
  ["properties.export_round_trip", "prefix"],
  ["model.differential", "nan"],
];

/**
 * The interface family's checks PostgresStore is asked: LangGraph's four
 * (the store is given as a factory); LangChain's are skipped, as for any
 * store serving another interface.
 */
export const SERVED_INTERFACE_CHECKS = [
  "interface.langgraph.item_timestamps",
  "interface.langgraph.put_none_deletes",
  "interface.langgraph.list_namespaces",
  "interface.langgraph.search_paging",
];

export default function makeStore() {
  // A factory: each reset starts a PostgresStore in a schema of its own
  // (its tables made on first use) and drops the one before it, so the
  // interface family's scenarios, whose namespaces are not the adapter's,
  // each start on an empty store.
  const schemas = new WeakMap();
  return new LangGraphStore(
    () => {
      const schema = freshSchema();
      const engine = new PostgresStore({
        connectionOptions: pgvectorUrl(),
        schema,
        index: { dims: embeddings.dimensions, embed: embeddings, fields: ["content"] },
      });
      schemas.set(engine, schema);
      return engine;
    },
    {
      driverId: engineId("@langchain/langgraph-checkpoint-postgres", "PostgresStore (PostgreSQL 16, pgvector)", "langgraph.js"),
      independentStores: true,
      cleanup: async (store) => {
        await store.stop();
        await sql(`DROP SCHEMA IF EXISTS "${schemas.get(store)}" CASCADE`);
      },
    },
  );
}
