// LangChain.js's PGVectorStore (@langchain/community) over the
// deterministic HashedEmbeddings, as a tinymemory store through the
// VectorStoreAdapter (docs/adapters.md, "JavaScript"): a table (and a
// connection pool) of its own per reset, dropped when the next reset or the
// driver's end replaces it.
// `scoreNormalization: "similarity"` makes its score a similarity, higher
// better (the default is the cosine distance, lower better). Needs
// TINYMEMORY_PGVECTOR_URL (pgvector.js); langchain-pgvector.test.js
// asserts what it fails, each shown with PGVectorStore alone by
// langchain-pgvector-repro.js.
import { PGVectorStore } from "@langchain/community/vectorstores/pgvector";
import { VectorStoreAdapter } from "tinymemory-conformance/langchain";
import { engineId } from "tinymemory-conformance";
import { HashedEmbeddings } from "tinymemory-conformance/embedding";
import { freshSchema, pgvectorUrl } from "./pgvector.js";

const embeddings = new HashedEmbeddings();

/**
 * The checks PGVectorStore fails (@langchain/community 1.1.29, PostgreSQL
 * 16, pgvector; no corpus, 8 cases), in run order, each with its cause,
 * all three shown by langchain-pgvector-repro.js:
 *
 * - "stripped": addVectors removes U+0000 from the content and says
 *   nothing (`pageContent.replace(/\0/g, "")`);
 * - "nul": metadata holding U+0000 (a key) is an error (jsonb holds no NUL);
 * - "nan": a query with no word (its embedding the zero vector) scores NaN
 *   (pgvector's cosine distance over a zero norm).
 */
export const EXPECTED_FAILURES = [
  ["recall.plain_text_query", "nan"],
  ["store.hostile_text_round_trip", "nul"],
  ["store.big_content_round_trip", "stripped"],
  ["recall.hostile_queries", "nan"],
  ["portability.round_trip", "nul"],
  ["portability.import_hostile", "nul"],
  ["properties.across_ordering", "nan"],
  ["properties.truncation", "nan"],
  ["properties.concurrent_equals_sequential", "nan"],
  ["model.differential", "nan"],
];

/**
 * The interface family's checks PGVectorStore is asked (the others are
 * skipped, each with its reason): it has no getByIds and its addDocuments
 * resolves no ids, so the scenarios that need either do not run. All four
 * pass.
 */
export const SERVED_INTERFACE_CHECKS = [
  "interface.langchain.empty_store",
  "interface.langchain.delete",
  "interface.langchain.delete_missing",
  "interface.langchain.search_with_score",
];

export default function makeStore() {
  return new VectorStoreAdapter(
    () =>
      PGVectorStore.initialize(embeddings, {
        postgresConnectionOptions: { connectionString: pgvectorUrl(), max: 2 },
        tableName: freshSchema(),
        dimensions: embeddings.dimensions,
        distanceStrategy: "cosine",
        scoreNormalization: "similarity",
      }),
    {
      driverId: engineId("@langchain/community", "PGVectorStore (PostgreSQL 16, pgvector)", "langchain.js"),
      independentStores: true,
      cleanup: async (store) => {
        await store.pool.query(`DROP TABLE IF EXISTS ${store.computedTableName}`);
        await store.end();
      },
    },
  );
}
