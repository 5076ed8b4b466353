/**
 * A tinymemory store over a Mastra vector store (`MastraVector` of
 * `@mastra/core`: LibSQLVector, PgVector, DuckDBVector, or any other), so
 * the conformance suite validates it. Every value a check judges is read
 * back from the store: content, metadata, timestamp and score come from
 * the results of its `query`. A MastraVector has no lookup by id and no
 * listing, so the adapter keeps a catalog of the keys it wrote and the
 * namespaces it wrote to, with each key's vector id: the catalog says only
 * which keys and namespaces to ask the store for. The mapping
 * (docs/adapters.md, "Mastra"):
 *
 * - each store (each `reset`) is one index of its own,
 *   `createIndex({ indexName, dimension, metric: "cosine" })`, the name
 *   `tinymemory_` and 16 random hex digits; `deleteIndex` when the next
 *   reset or the driver's end replaces it;
 * - an entry is one vector: the embedding of its content, id the UUID 5 of
 *   `[namespace, key]` (`documentId`, the LangChain adapters' id), the
 *   metadata `{ namespace, key, text, category, session_id, taint,
 *   timestamp }` (`text` the content, where Mastra's own RAG helpers keep
 *   a chunk's text); `store` and `store_many` (a repeated key: its last
 *   entry), and each imported record, are one `upsert`, which replaces the
 *   vector and the metadata of an id the index holds;
 * - every read is `query({ indexName, queryVector, topK, filter })`, the
 *   filter the metadata equalities the read asks (`namespace`, and `key`,
 *   `category`, `session_id` when given) in Mastra's filter language
 *   (`{ field: value }`), the query vector the embedding of a recall's
 *   query, and for a lookup or a listing the first unit vector
 *   (LibSQLVector and DuckDBVector refuse a query without one, and the
 *   embedding of a key without words would be the zero vector, whose
 *   cosine is undefined); `get` asks for the key
 *   (topK 2), `forget` is that lookup then `deleteVector({ indexName, id
 *   })`, `list` and `namespaces` ask for each namespace of the catalog
 *   (topK its keys) then for each key of it the answer missed; a lookup
 *   that misses a key the catalog holds fails as a mapping limit (the
 *   store lost the vector, or drops it from a query), never as an absent
 *   entry; `recall` asks with the query, topK min(limit, 2^53 - 1),
 *   adjacent equal scores ordered by key (asking
 *   again for twice as many when the hits tied at the limit may go on past
 *   it), as the other adapters do. A result outside the filter fails the
 *   request as a mapping limit (the store ignored the filter); a recall's
 *   hit whose score is not a finite number fails it as the store's, never
 *   as an unscored hit, which no ranking check could judge.
 *
 * Nothing else is re-sorted, re-scored or re-filtered: hits come in the
 * engine's order with its scores, so the suite judges the engine.
 * `updateVector` and `deleteVectors` are not called: `upsert` writes an
 * entry whole (an update would merge into the old metadata), and a
 * forget deletes one id.
 */

import { randomBytes } from "node:crypto";
import type { Entry, ExportPage, ExportPageRequest, ImportAnswer, ImportRequest, KeyRequest, ListRequest, MemoryRecord, NamespaceSummary, NewEntry, RecallRequest, Store, StoreManyRequest } from "../protocol/types.js";
import { DriverError } from "../protocol/errors.js";
import { GLOBAL_NAMESPACE, validateEntries, validateKey, validateMinScore, validateNamespace } from "../protocol/validate.js";
import { latestTimestamp, nowRfc3339 } from "../protocol/time.js";
import { compareBytes, sortBytewise } from "../protocol/order.js";
import { isBlank } from "../protocol/words.js";
import { entry } from "../protocol/wire.js";
import { ENGINE_MAX_LIMIT, bestWithTies, exportFrom, importEach, mappingLimit, shownScore } from "./common.js";
import { HashedEmbeddings } from "./embedding.js";
import { documentId } from "./langchain.js";
import { engineId } from "./engine-id.js";

/** A result of MastraVector's `query`. */
export interface QueryResultLike {
  id: string;
  score: number;
  metadata?: Record<string, any>;
}

/** The part of `@mastra/core`'s MastraVector the adapter calls. */
export interface MastraVectorLike {
  createIndex(params: { indexName: string; dimension: number; metric?: "cosine" | "euclidean" | "dotproduct" }): Promise<void>;
  upsert(params: { indexName: string; vectors: number[][]; metadata?: Record<string, any>[]; ids?: string[] }): Promise<string[]>;
  query(params: { indexName: string; queryVector?: number[]; topK?: number; filter?: any; includeVector?: boolean }): Promise<QueryResultLike[]>;
  deleteVector(params: { indexName: string; id: string }): Promise<void>;
  deleteIndex(params: { indexName: string }): Promise<void>;
}

/** What the adapter embeds with: LangChain.js's EmbeddingsInterface (HashedEmbeddings is one). */
export interface EmbedderLike {
  embedDocuments(documents: string[]): Promise<number[][]>;
  embedQuery(document: string): Promise<number[]>;
}

/** Options of MastraVectorAdapter. */
export interface MastraVectorAdapterOptions {
  /** The embedding of contents and queries (default `new HashedEmbeddings()`, no model). */
  embeddings?: EmbedderLike;
  /** The index's dimension (default the embeddings' `dimensions`, else 256). */
  dimension?: number;
  /**
   * The npm package of the vector store ("@mastra/libsql"): the driver id
   * is then `PACKAGE==VERSION CLASS via tinymemory.adapters.mastra`
   * (engineId), the form the compatibility matrix reads.
   */
  package?: string;
  /** What the driver id names the engine by (default: the class name of the first store `make` returns, known at the first reset). */
  engine?: string;
  /** The driver id, whole (overrides `package` and `engine`; default "mastra-vector"). */
  driverId?: string;
  /**
   * True when each process's store is its own (a database file per
   * process, an index per reset on a server): hello then declares
   * independent stores and `run --jobs N` may run checks at once. Default false.
   */
  independentStores?: boolean;
  /**
   * Called with the store after its index is deleted, at each reset and
   * when the driver ends: close here a pool or file `make` opened for that
   * store (a store `make` returns every time stays open).
   */
  cleanup?: (vector: MastraVectorLike) => void | Promise<void>;
}

/** The metadata fields a result must carry for the adapter to read an entry from it. */
const ENTRY_FIELDS = ["namespace", "key", "text", "category", "taint", "timestamp"] as const;

/** The metadata equalities a read asks for, in Mastra's filter language (`null` conditions left out). */
export function mastraFilter(namespace: string, key: string | null, category: string | null, sessionId: string | null): Record<string, string> {
  const filter: Record<string, string> = { namespace };
  if (key !== null) filter.key = key;
  if (category !== null) filter.category = category;
  if (sessionId !== null) filter.session_id = sessionId;
  return filter;
}

/** The adapter. `make` returns the vector store for a fresh store (a new one, or the same one: each reset makes an index of its own). */
export class MastraVectorAdapter implements Store {
  readonly recallProfile = "semantic" as const;
  readonly independentStores: boolean;
  private readonly embeddings: EmbedderLike;
  private readonly dimension: number;
  /**
   * The query vector of a lookup or a listing, whose answer the filter
   * alone decides: the first unit vector, never the zero vector (whose
   * cosine is undefined: LibSQLVector answers a zero query vector with
   * nothing, PgVector scores it NaN), whatever the key or namespace.
   */
  private readonly probe: number[];
  private vector: MastraVectorLike | null = null;
  private indexName = "";
  private named: string | null;
  /** Namespace -> key -> the key's vector id; a namespace stays once written (its keys may all be forgotten). */
  private catalog = new Map<string, Map<string, string>>();

  constructor(
    private readonly make: () => MastraVectorLike | Promise<MastraVectorLike>,
    private readonly options: MastraVectorAdapterOptions = {},
  ) {
    this.independentStores = options.independentStores ?? false;
    this.embeddings = options.embeddings ?? new HashedEmbeddings();
    this.dimension = options.dimension ?? (this.embeddings as { dimensions?: number }).dimensions ?? 256;
    this.named = options.engine ?? null;
    this.probe = Array.from({ length: this.dimension }, (_, i) => (i === 0 ? 1 : 0));
  }

  /** The driver id: option `driverId`, else `engineId(package, engine, "mastra")` when `package` is given, else "mastra-vector". */
  get driverId(): string {
    if (this.options.driverId !== undefined) return this.options.driverId;
    if (this.options.package === undefined) return "mastra-vector";
    return engineId(this.options.package, this.named ?? "MastraVector", "mastra");
  }

  private async db(): Promise<MastraVectorLike> {
    if (this.vector === null) await this.open();
    return this.vector as MastraVectorLike;
  }

  /** A store of `make`'s with a fresh index. */
  private async open(): Promise<void> {
    const vector = await this.make();
    this.named ??= vector.constructor?.name ?? null;
    const indexName = `tinymemory_${randomBytes(8).toString("hex")}`;
    await vector.createIndex({ indexName, dimension: this.dimension, metric: "cosine" });
    this.vector = vector;
    this.indexName = indexName;
    this.catalog = new Map();
  }

  private async release(): Promise<void> {
    const vector = this.vector;
    this.vector = null;
    if (vector === null) return;
    try {
      await vector.deleteIndex({ indexName: this.indexName });
    } finally {
      if (this.options.cleanup) await this.options.cleanup(vector);
    }
  }

  async reset(): Promise<void> {
    await this.release();
    await this.open();
  }

  /** Called when the driver ends: the index in use deleted, then `cleanup`. */
  async close(): Promise<void> {
    await this.release();
  }

  /** One `upsert` of `entries` (a repeated key: its last entry) stamped `timestamp`. */
  private async write(entries: readonly NewEntry[], timestamp: string): Promise<void> {
    const db = await this.db();
    const last = new Map<string, NewEntry>();
    for (const e of entries) {
      const position = JSON.stringify([e.namespace, e.key]);
      last.delete(position);
      last.set(position, e);
    }
    const batch = [...last.values()];
    const ids = batch.map((e) => documentId(e.namespace, e.key));
    const vectors = await this.embeddings.embedDocuments(batch.map((e) => e.content));
    const metadata = batch.map((e) => ({ namespace: e.namespace, key: e.key, text: e.content, category: e.category, session_id: e.session_id, taint: e.taint, timestamp }));
    const returned = await db.upsert({ indexName: this.indexName, vectors, metadata, ids });
    batch.forEach((e, i) => {
      let space = this.catalog.get(e.namespace);
      if (space === undefined) this.catalog.set(e.namespace, (space = new Map()));
      // The id the store returns is the one a later delete must name.
      const own = Array.isArray(returned) ? returned[i] : undefined;
      space.set(e.key, typeof own === "string" ? own : (ids[i] as string));
    });
  }

  async store(e: NewEntry): Promise<void> {
    validateNamespace(e.namespace);
    validateKey(e.key);
    await this.write([e], nowRfc3339());
  }

  async storeMany({ entries }: StoreManyRequest): Promise<void> {
    validateEntries(entries);
    if (entries.length > 0) await this.write(entries, nowRfc3339());
  }

  /**
   * `query` with `queryVector` (the embedding of the recall's query, or
   * the probe), `topK`, and `filter`, each result read as an entry; a
   * result outside the filter fails the read as a mapping limit (the store
   * ignored it), one without the entry's fields as the store's fault, and,
   * when `scored` (a recall's), one whose score is not a finite number as
   * the store's too; unscored, the entries carry no score (a lookup's).
   */
  private async search(queryVector: number[], topK: number, filter: Record<string, string>, scored = false): Promise<Entry[]> {
    const db = await this.db();
    const found = await db.query({ indexName: this.indexName, queryVector, topK, filter, includeVector: false });
    return found.map((r) => {
      const outside = Object.entries(filter).find(([name, value]) => r.metadata?.[name] !== value);
      if (outside !== undefined) {
        const [name, value] = outside;
        throw mappingLimit(
          `the store answered vector ${JSON.stringify(r.id)} with metadata.${name} ${JSON.stringify(r.metadata?.[name] ?? null)} ` +
            `to a query filtered on ${name} ${JSON.stringify(value)}: it ignored the filter`,
        );
      }
      // A hit without a finite score must not pass as an unscored one:
      // recall.min_score and the ranking checks would judge nothing.
      if (scored && !Number.isFinite(r.score)) {
        throw new DriverError(
          "backend",
          `the store's query answered vector ${JSON.stringify(r.id)} with score ${shownScore(r.score)}, not a finite number ` +
            "(MastraVector's query answers { id, score, metadata }, the score a number)",
        );
      }
      return this.entryOf(r, scored ? r.score : null);
    });
  }

  /** The entry a query result holds, every field as the store returned it, scored `score`. */
  private entryOf(r: QueryResultLike, score: number | null): Entry {
    const m = r.metadata ?? {};
    const missing = ENTRY_FIELDS.filter((name) => !(name in m));
    if (missing.length > 0) {
      throw new DriverError("backend", `the store returned vector ${JSON.stringify(r.id)} without metadata ${missing.join(", ")}, which the adapter wrote`);
    }
    return entry({ id: r.id, namespace: m.namespace, key: m.key, content: m.text, category: m.category, timestamp: m.timestamp, session_id: m.session_id ?? null, taint: m.taint, score });
  }

  /**
   * The entry at (namespace, key) as the store has it, or null: a query
   * filtered on the key. A miss of a key the catalog holds is a mapping
   * limit, not an absent entry: a query cannot tell a lost vector from one
   * the store leaves out of its answers.
   */
  private async lookup(namespace: string, key: string): Promise<Entry | null> {
    const found = await this.search(this.probe, 2, mastraFilter(namespace, key, null, null));
    if (found.length > 1) {
      throw new DriverError("backend", `the store holds ${found.length} vectors for namespace ${JSON.stringify(namespace)}, key ${JSON.stringify(key)} (ids ${found.map((e) => e.id).join(", ")}): an upsert did not replace the one before`);
    }
    const written = this.catalog.get(namespace)?.get(key);
    if (found[0] === undefined && written !== undefined) {
      throw mappingLimit(
        `the store's query filtered on namespace ${JSON.stringify(namespace)} and key ${JSON.stringify(key)} did not return vector ${JSON.stringify(written)}, ` +
          "which the adapter upserted and did not delete (get is a filtered query: MastraVector has no lookup by id): " +
          "the store lost it or leaves it out of its answers",
      );
    }
    return found[0] === undefined ? null : { ...found[0], score: null };
  }

  async get({ namespace, key }: KeyRequest): Promise<Entry | null> {
    validateNamespace(namespace);
    validateKey(key);
    return this.lookup(namespace, key);
  }

  async forget({ namespace, key }: KeyRequest): Promise<boolean> {
    validateNamespace(namespace);
    validateKey(key);
    const found = await this.lookup(namespace, key);
    if (found === null) return false;
    // The catalog changes only once the delete is done: a deleteVector
    // that throws leaves the vector in the store, which list must still read.
    await (await this.db()).deleteVector({ indexName: this.indexName, id: found.id });
    this.catalog.get(namespace)?.delete(key);
    return true;
  }

  /** The entries of `namespace` the store holds, by key: one query for the catalog's keys there, then a lookup of each one it missed. */
  private async entriesOf(namespace: string): Promise<Entry[]> {
    const space = this.catalog.get(namespace) ?? new Map<string, string>();
    const byKey = new Map<string, Entry>();
    for (const e of await this.search(this.probe, Math.max(space.size, 1), mastraFilter(namespace, null, null, null))) {
      if (!byKey.has(e.key)) byKey.set(e.key, { ...e, score: null });
    }
    for (const key of space.keys()) {
      if (byKey.has(key)) continue;
      const e = await this.lookup(namespace, key);
      if (e !== null) byKey.set(key, e);
    }
    return Array.from(byKey.values()).sort((a, b) => compareBytes(a.key, b.key));
  }

  async list({ namespace, category, session_id }: ListRequest): Promise<Entry[]> {
    if (namespace !== null) validateNamespace(namespace);
    const out: Entry[] = [];
    for (const ns of namespace !== null ? [namespace] : sortBytewise(this.catalog.keys())) {
      for (const e of await this.entriesOf(ns)) {
        if ((category === null || e.category === category) && (session_id === null || e.session_id === session_id)) out.push(e);
      }
    }
    return out;
  }

  async namespaces(): Promise<NamespaceSummary[]> {
    const out: NamespaceSummary[] = [];
    for (const ns of sortBytewise(this.catalog.keys())) {
      const entries = await this.entriesOf(ns);
      if (entries.length > 0) out.push({ namespace: ns, count: entries.length, last_updated: latestTimestamp(entries.map((e) => e.timestamp)) });
    }
    return out;
  }

  async recall({ query, limit, namespace, category, session_id, min_score }: RecallRequest): Promise<Entry[]> {
    namespace ??= GLOBAL_NAMESPACE;
    validateNamespace(namespace);
    validateMinScore(min_score);
    if (limit === 0 || isBlank(query)) return [];
    const filter = mastraFilter(namespace, null, category, session_id);
    const queryVector = await this.embeddings.embedQuery(query);
    // topK is the limit as the store can take it, never sized from the
    // catalog: a store refusing a huge topK fails recall.huge_limit here
    // as it does through the Python adapters.
    const hits = await bestWithTies(limit, ENGINE_MAX_LIMIT, (k) => this.search(queryVector, k, filter, true));
    return min_score === null ? hits : hits.filter((h) => h.score !== null && h.score >= min_score);
  }

  async exportPage({ cursor, limit }: ExportPageRequest): Promise<ExportPage> {
    return exportFrom(await this.list({ namespace: null, category: null, session_id: null }), cursor, limit);
  }

  async importRecords({ records }: ImportRequest): Promise<ImportAnswer> {
    return importEach(records, (r: MemoryRecord) => this.write([r], r.timestamp));
  }
}
