// Stores for the interface family's tests (test/interface.test.js): a
// LangChain.js VectorStore double that keeps every promise the family
// checks (ids returned, made or taken from Document.id; upsert by id;
// getByIds; delete of any ids; both searches alike), and LangGraph.js's
// InMemoryStore; each with one fault of a real store injected by name,
// from TINYMEMORY_TEST_FAULT (the driver process inherits it from the
// binary):
//
// VectorStore: "placeholder" (a store made with a placeholder text, as
// `HNSWLib.fromTexts(["placeholder"], ...)` is), "mutates_input" (the id
// written onto the caller's Document), "one_id_per_delete" (delete removes
// the first id it is given only), "delete_missing_throws" (FAISS's "Some
// specified ids do not exist"), "append_only" (an add of a held id keeps
// both documents), "get_missing_throws" (getByIds throws for an id not
// found), "unfindable_generated_ids" (ids it makes are returned but not
// kept: getByIds cannot find them), "ignores_document_id" (Document.id
// replaced by a made id), "scored_reversed" (similaritySearchWithScore
// answers worst first), "uuid_ids_only" (an id given that is not a UUID
// refused, as Qdrant's "Point id 1 is not a valid UUID"),
// "delete_takes_no_ids" (HNSWLib's delete, whose one parameter is a
// directory of saved index files: given { ids } it throws); and
// "resolves_void", no fault in LangChain.js (addDocuments resolving to
// void, as PGVectorStore's does).
//
// BaseStore: "created_at_rewritten" (a put replaces the row, createdAt
// with it), "null_put_kept" (a put of null ignored), "max_depth_ignored"
// (listNamespaces answers whole namespaces), "offset_ignored" (search
// pages always start at 0).
import { randomUUID } from "node:crypto";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { HashedEmbeddings } from "../../dist/adapters/embedding.js";
import { VectorStoreAdapter } from "../../dist/adapters/langchain.js";
import { LangGraphStore } from "../../dist/adapters/langgraph.js";

const embeddings = new HashedEmbeddings();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const fault = process.env.TINYMEMORY_TEST_FAULT ?? "";

function cosine(a, b) {
  let p = 0;
  let p2 = 0;
  let q2 = 0;
  for (let i = 0; i < a.length; i++) {
    p += a[i] * b[i];
    p2 += a[i] * a[i];
    q2 += b[i] * b[i];
  }
  return p2 === 0 || q2 === 0 ? 0 : p / (Math.sqrt(p2) * Math.sqrt(q2));
}

/** A VectorStore keeping LangChain's promises, but for `fault`. */
export class InterfaceVectorStore {
  constructor(fault = "") {
    this.fault = fault;
    /** Documents in insertion order: { id, pageContent, metadata, vector }. */
    this.rows = [];
  }

  async addDocuments(documents, options = {}) {
    if (this.fault === "uuid_ids_only") {
      const notUuid = documents.map((d, i) => options.ids?.[i] ?? d.id).find((id) => id !== undefined && !UUID.test(id));
      if (notUuid !== undefined) throw new Error(`Point id ${notUuid} is not a valid UUID`);
    }
    const vectors = await embeddings.embedDocuments(documents.map((d) => d.pageContent));
    const ids = [];
    documents.forEach((doc, i) => {
      const own = this.fault === "ignores_document_id" ? undefined : doc.id;
      const given = options.ids?.[i] ?? own;
      const id = given ?? randomUUID();
      ids.push(id);
      if (this.fault === "mutates_input") doc.id = id;
      const row = { id: given === undefined && this.fault === "unfindable_generated_ids" ? randomUUID() : id, pageContent: doc.pageContent, metadata: structuredClone(doc.metadata ?? {}), vector: vectors[i] };
      const at = this.rows.findIndex((r) => r.id === row.id);
      if (at >= 0 && this.fault !== "append_only") this.rows.splice(at, 1);
      this.rows.push(row);
    });
    // PGVectorStore's and MemoryVectorStore's addDocuments resolve to void.
    return this.fault === "resolves_void" ? undefined : ids;
  }

  async delete({ ids } = {}) {
    const wanted = this.fault === "one_id_per_delete" ? ids.slice(0, 1) : ids;
    const missing = wanted.filter((id) => !this.rows.some((r) => r.id === id));
    if (this.fault === "delete_missing_throws" && missing.length > 0) throw new Error(`Some specified ids do not exist in the current store. Ids not found: ${missing.join(", ")}`);
    this.rows = this.rows.filter((r) => !wanted.includes(r.id));
  }

  document(r) {
    return { id: r.id, pageContent: r.pageContent, metadata: structuredClone(r.metadata) };
  }

  async similaritySearchWithScore(query, k = 4) {
    const vector = await embeddings.embedQuery(query);
    const hits = this.rows.map((r) => [this.document(r), cosine(vector, r.vector)]).sort((a, b) => b[1] - a[1]).slice(0, k);
    return this.fault === "scored_reversed" ? hits.reverse() : hits;
  }

  async similaritySearch(query, k = 4) {
    const vector = await embeddings.embedQuery(query);
    return this.rows.map((r) => [this.document(r), cosine(vector, r.vector)]).sort((a, b) => b[1] - a[1]).slice(0, k).map(([d]) => d);
  }

  async getByIds(ids) {
    const out = [];
    for (const id of new Set(ids)) {
      const row = this.rows.find((r) => r.id === id);
      if (row) out.push(this.document(row));
      else if (this.fault === "get_missing_throws") throw new Error(`Document ${id} not found`);
    }
    return out;
  }
}

// HNSWLib's delete (@langchain/community 1.1.29): it removes a saved
// index's files, and its source names no other parameter.
async function deleteDirectory(params) {
  throw new Error(`Directory ${params.directory} does not contain a hnswlib.index file.`);
}

/** The VectorStore double with TINYMEMORY_TEST_FAULT's fault, through the adapter. */
export function vectorStore() {
  return new VectorStoreAdapter(
    async () => {
      const store = new InterfaceVectorStore(fault);
      if (fault === "delete_takes_no_ids") store.delete = deleteDirectory;
      if (fault === "placeholder") await store.addDocuments([{ pageContent: "placeholder", metadata: {} }]);
      return store;
    },
    { independentStores: true },
  );
}

/** InMemoryStore with TINYMEMORY_TEST_FAULT's fault in its batch. */
class FaultyStore extends InMemoryStore {
  async batch(operations) {
    const ops = [];
    for (const op of operations) {
      if ("value" in op && op.value === null && fault === "null_put_kept") continue;
      if ("value" in op && op.value !== null && fault === "created_at_rewritten") await super.batch([{ namespace: op.namespace, key: op.key, value: null }]);
      if ("matchConditions" in op && fault === "max_depth_ignored") ops.push({ ...op, maxDepth: undefined });
      else if ("namespacePrefix" in op && fault === "offset_ignored") ops.push({ ...op, offset: 0 });
      else ops.push(op);
    }
    const results = await super.batch(ops);
    // A dropped op answers what a put answers.
    return operations.map((op) => ("value" in op && op.value === null && fault === "null_put_kept" ? undefined : results.shift()));
  }
}

/** InMemoryStore with TINYMEMORY_TEST_FAULT's fault, through the adapter (a factory: each reset a new one). */
export function baseStore() {
  return new LangGraphStore(() => new FaultyStore(), { independentStores: true });
}

/** The same InMemoryStore given as one instance: the adapter cannot empty the scenarios' namespaces. */
export function baseStoreInstance() {
  return new LangGraphStore(new InMemoryStore(), { independentStores: true });
}
