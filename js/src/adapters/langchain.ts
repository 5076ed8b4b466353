/**
 * A tinymemory store over a LangChain.js `VectorStore` (MemoryVectorStore,
 * PGVectorStore, or any other), so the conformance suite validates it.
 * Every value a check judges is read back from the store: content,
 * metadata, timestamp and score come from the documents its searches
 * return. A VectorStore has no get, list or count, so the adapter keeps a
 * catalog of the keys it wrote, with the id of each one's document, and of
 * the namespaces it wrote to: the catalog says only which keys and
 * namespaces to ask the store for. The mapping (docs/adapters.md,
 * "JavaScript"):
 *
 * - an entry is one Document: `pageContent` the content, `metadata`
 *   `{ namespace, key, category, session_id, taint, timestamp, revision }`
 *   (`revision` the adapter's count of writes, which tells the current
 *   document of a key from a replaced one a store could not delete), `id`
 *   the UUID 5 of `[namespace, key]` (`documentId`,
 *   fixtures/adapter-encodings.json), the form every store accepts
 *   (PGVectorStore's id column is a uuid); the entry id is the id the
 *   store's `addDocuments` returns (LibSQL makes its own), else that one;
 * - `store` and `store_many` (a repeated key: its last entry), and each
 *   imported record, are one `delete({ ids })` of the documents they
 *   replace, when there are any, then one `addDocuments(docs, { ids })`
 *   (PGVectorStore does not upsert);
 *   a store whose `delete` is not implemented (MemoryVectorStore's throws)
 *   keeps the old document, which the function filter then drops; a
 *   `delete` whose source does not name `ids` (Voy's takes `deleteAll`
 *   only) that throws is a mapping limit quoting its error;
 * - every read is `similaritySearchWithScore(query, k, filter)`, the filter
 *   keeping what the read asks (`namespace`, and `key`, `category`,
 *   `session_id` when given) in the form the store documents: an object of
 *   metadata equalities (`objectFilter`: PGVectorStore's, and the
 *   default), for MemoryVectorStore (`_vectorstoreType()` "memory"),
 *   HNSWLib ("hnswlib") and CloseVectorNode ("closevector") a function
 *   `(doc) => boolean` (`functionFilter`),
 *   for LibSQLVectorStore
 *   ("libsql") `{ field: { operator: "=", value } }` (`libsqlFilter`), for
 *   Chroma ("chroma") `{ field: value }` or `{ $and: [...] }`
 *   (`chromaFilter`); option `filter` builds another.
 *   `get` asks for the key (the key as query, k = 2); `list` and
 *   `namespaces` ask for each namespace of the catalog (k = its keys) and
 *   then for each key of it the answer missed; a lookup that misses a key
 *   the catalog holds fails as a mapping limit (the store lost the
 *   document, or filters after its nearest k), never as an absent entry;
 *   `recall` asks with the query, k = min(limit, 2^53 - 1), adjacent
 *   equal scores
 *   ordered by key (asking again for twice as many when the hits tied at
 *   the limit may go on past it), as the Python adapter does. A document
 *   outside the filter (a store that ignored it) fails the request as a
 *   mapping limit naming the option to set, not as the store's fault, or,
 *   when the store's `similaritySearchVectorWithScore` declares no filter
 *   parameter (Voy's `(query, k)`), saying it cannot be served.
 *
 * Nothing else is re-sorted, re-scored or re-filtered: hits come in the
 * engine's order with its scores (a distance or a rank, declared with
 * option `score`, negated: the same order), so the suite judges the
 * engine.
 */

import { createHash } from "node:crypto";
import type { Entry, ExportPage, ExportPageRequest, ImportAnswer, ImportRequest, KeyRequest, ListRequest, MemoryRecord, NamespaceSummary, NewEntry, RecallRequest, Store, StoreManyRequest } from "../protocol/types.js";
import { DriverError } from "../protocol/errors.js";
import { GLOBAL_NAMESPACE, validateEntries, validateKey, validateMinScore, validateNamespace } from "../protocol/validate.js";
import { latestTimestamp, nowRfc3339 } from "../protocol/time.js";
import { compareBytes, sortBytewise } from "../protocol/order.js";
import { isBlank } from "../protocol/words.js";
import { entry } from "../protocol/wire.js";
import { ENGINE_MAX_LIMIT, bestWithTies, exportFrom, importEach, mappingLimit, shownScore } from "./common.js";
import { type InterfaceVectorStore, LANGCHAIN_INTERFACE, langchainScenario } from "./langchain-interface.js";
import { deletesByIds, parametersOf } from "./source.js";

/** A Document as LangChain.js has it. */
export interface DocumentLike {
  pageContent: string;
  metadata: Record<string, any>;
  id?: string;
}

/** The part of LangChain.js's VectorStore the adapter calls. */
export interface VectorStoreLike {
  addDocuments(documents: DocumentLike[], options?: { ids?: string[] } & Record<string, any>): Promise<string[] | void>;
  delete(params?: Record<string, any>): Promise<void>;
  similaritySearchWithScore(query: string, k?: number, filter?: any): Promise<[DocumentLike, number][]>;
  /** The vector search `similaritySearchWithScore` calls: read only to tell a store whose search takes no filter. */
  similaritySearchVectorWithScore?(query: number[], k: number, filter?: any): Promise<[DocumentLike, number][]>;
  /** VectorStore's name of its kind ("memory", "pgvector", ...): picks the default filter form. */
  _vectorstoreType?(): string;
}

/** What a read keeps, for `filter` to turn into the engine's filter type. */
export interface RecallConditions {
  namespace: string;
  /** The one key a lookup asks for, or `null` (a recall, a namespace's listing). */
  key: string | null;
  category: string | null;
  session_id: string | null;
  /**
   * True for the current document of a key the catalog holds (false for
   * one a write replaced, or a forget removed, when the store could not
   * delete it); only a function filter can ask it.
   */
  isCurrent(doc: DocumentLike): boolean;
}

/**
 * What a store's `similaritySearchWithScore` answers as a document's score
 * (option `score`, the Python adapter's option of that name): a
 * "similarity" is higher-is-better, as the contract's score; a "distance"
 * is lower-is-better (LibSQLVectorStore's `vector_distance_cos`, Chroma's);
 * a "rank" is the hit's place in the answer, lower first
 * (VoyVectorStore's, from 0).
 */
export type ScoreKind = "similarity" | "distance" | "rank";

const SCORE_KINDS: readonly ScoreKind[] = ["similarity", "distance", "rank"];

/**
 * The contract's score (higher is better) of a score of `kind`: a
 * similarity as it is, a distance or a rank `0 - x`. Negation is exact
 * and reverses the order, so the hits keep the store's order, equal
 * scores stay equal and unequal ones unequal (no tie made or broken), and
 * `0 - 0` is 0, not -0; NaN stays NaN, for the suite to see.
 */
export function contractScore(kind: ScoreKind, score: number): number {
  return kind === "similarity" ? score : 0 - score;
}

/** Options of VectorStoreAdapter. */
export interface VectorStoreAdapterOptions {
  /**
   * What the store answers as the score ({@link ScoreKind}): "similarity"
   * (the default) is passed through; a "distance" or a "rank" becomes
   * `0 - x` ({@link contractScore}). A store answering a distance, left
   * at the default, fails the recall checks that judge the order of
   * scores (`recall.ranking_higher_better`).
   */
  score?: ScoreKind;
  /**
   * True when each process's engine is its own (an in-memory engine, or
   * one database per process): hello then declares independent stores and
   * `run --jobs N` may run checks at once. Default false.
   */
  independentStores?: boolean;
  /** The driver id reports name the store by (default "langchain-vectorstore"). */
  driverId?: string;
  /**
   * Builds the engine's filter from a read's conditions (default:
   * `functionFilter` for a store whose `_vectorstoreType()` is "memory",
   * "hnswlib" or "closevector", `libsqlFilter` for "libsql", `chromaFilter` for "chroma", else
   * `objectFilter`).
   */
  filter?: (conditions: RecallConditions) => unknown;
  /**
   * Called once when the engine a reset made is no longer used (the next
   * reset, or the driver's close): drop a table or collection here.
   */
  cleanup?: (engine: VectorStoreLike) => void | Promise<void>;
}

/** The UUID namespace of document ids (the Python adapter's too). */
export const ID_NAMESPACE = "5a0c3b9e-7f0f-4c55-9a53-1f0e2b9d4e61";

/**
 * The document id of an entry: the UUID 5 (RFC 9562, SHA-1) in
 * ID_NAMESPACE of the JSON text of `[namespace, key]` as Python's
 * `json.dumps(..., ensure_ascii=False)` writes it (", " between the two
 * strings), so (learning:a/b, c) and (learning:a, b/c) are two ids and
 * both languages' adapters give one id to one entry.
 */
export function documentId(namespace: string, key: string): string {
  const name = `[${JSON.stringify(namespace)}, ${JSON.stringify(key)}]`;
  const hash = createHash("sha1").update(Buffer.from(ID_NAMESPACE.replaceAll("-", ""), "hex")).update(name, "utf8").digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The metadata equalities a read asks for, field by field (`null` conditions left out). */
function equalities(c: RecallConditions): Record<string, string> {
  const fields: Record<string, string> = { namespace: c.namespace };
  if (c.key !== null) fields.key = c.key;
  if (c.category !== null) fields.category = c.category;
  if (c.session_id !== null) fields.session_id = c.session_id;
  return fields;
}

/** An object of metadata equalities, `{ namespace, key?, category?, session_id? }`: PGVectorStore's filter form, and the default. */
export function objectFilter(c: RecallConditions): Record<string, string> {
  return equalities(c);
}

/** LibSQLVectorStore's filter form, `{ field: { operator: "=", value } }` (its SqliteWhereBuilder), for the same equalities. */
export function libsqlFilter(c: RecallConditions): Record<string, { operator: "="; value: string }> {
  return Object.fromEntries(Object.entries(equalities(c)).map(([name, value]) => [name, { operator: "=" as const, value }]));
}

/**
 * Chroma's `where` form (the Chroma vector store hands the filter to
 * `collection.query({ where })`): one equality `{ field: value }` alone,
 * several as `{ $and: [{ field: value }, ...] }`, since Chroma refuses an
 * object of two fields ("Expected 'where' to have exactly one operator").
 */
export function chromaFilter(c: RecallConditions): Record<string, unknown> {
  const each = Object.entries(equalities(c)).map(([name, value]) => ({ [name]: value }));
  return each.length === 1 ? each[0]! : { $and: each };
}

/** A function over Documents, as MemoryVectorStore takes it: the equalities, and the current document of its key only. */
export function functionFilter(c: RecallConditions): (doc: DocumentLike) => boolean {
  const fields = Object.entries(equalities(c));
  return (doc) => fields.every(([name, value]) => doc.metadata?.[name] === value) && c.isCurrent(doc);
}

/** The filter form of each store type (`_vectorstoreType()`) whose form is not `objectFilter`'s. */
const DIALECTS: Record<string, (c: RecallConditions) => unknown> = {
  memory: functionFilter,
  hnswlib: functionFilter,
  // CloseVectorNode calls the filter inside closevector-hnswlib-node's
  // searchKnn, as HNSWLib does: an object there aborts the process.
  closevector: functionFilter,
  libsql: libsqlFilter,
  chroma: chromaFilter,
};

/**
 * The parameters of the store's `similaritySearchVectorWithScore` (the
 * search every VectorStore implements, which `similaritySearchWithScore`
 * hands the filter to) when it declares fewer than three, so takes no
 * filter (VoyVectorStore's `(query, k)`), else null. Read from its source,
 * not its `length`, which stops at the first default (`k = 4`).
 */
function filterlessParameters(db: VectorStoreLike): string[] | null {
  const search = db.similaritySearchVectorWithScore;
  if (typeof search !== "function") return null;
  const names = parametersOf(search);
  return names !== null && names.length < 3 ? names : null;
}

/** What the catalog holds of a key the adapter wrote: its document's id and the write's revision. */
interface Written {
  documentId: string;
  revision: number;
}

/** The metadata fields a Document must carry for the adapter to read an entry from it. */
const ENTRY_FIELDS = ["namespace", "key", "category", "taint", "timestamp"] as const;

/** The adapter. `make` makes a fresh, empty VectorStore: `reset` calls it. */
export class VectorStoreAdapter implements Store {
  readonly recallProfile = "semantic" as const;
  /** Declared in hello: the interface family's scenarios run through `interface` (langchain-interface.ts). */
  readonly interfaceName = LANGCHAIN_INTERFACE;
  readonly driverId: string;
  readonly independentStores: boolean;
  private engine: VectorStoreLike | null = null;
  /** Namespace -> key -> the key's document; a namespace stays once written (its keys may all be forgotten). */
  private catalog = new Map<string, Map<string, Written>>();
  private revision = 0;
  /** Set once the engine's delete threw "not implemented": replaced documents stay, filtered out by `functionFilter`; a search answering one is a mapping limit. */
  deleteUnsupported = false;
  /** What the store answers as the score (option `score`). */
  private readonly scoreKind: ScoreKind;

  constructor(
    private readonly make: () => VectorStoreLike | Promise<VectorStoreLike>,
    private readonly options: VectorStoreAdapterOptions = {},
  ) {
    this.independentStores = options.independentStores ?? false;
    this.driverId = options.driverId ?? "langchain-vectorstore";
    if (options.score !== undefined && !SCORE_KINDS.includes(options.score)) {
      throw new TypeError(`VectorStoreAdapter option score is ${JSON.stringify(options.score)}; expected "similarity" (the default), "distance" or "rank"`);
    }
    this.scoreKind = options.score ?? "similarity";
  }

  private async db(): Promise<VectorStoreLike> {
    this.engine ??= await this.make();
    return this.engine;
  }

  private async release(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    if (engine !== null && this.options.cleanup) await this.options.cleanup(engine);
  }

  async reset(): Promise<void> {
    await this.release();
    this.engine = await this.make();
    this.catalog = new Map();
    this.deleteUnsupported = false;
  }

  /** Called when the driver ends: `cleanup` for the engine in use. */
  async close(): Promise<void> {
    await this.release();
  }

  /**
   * The observation of the interface family's scenario `check`
   * (langchain-interface.ts) on the engine the suite has just reset,
   * through the store's own methods: the adapter's catalog, mapping and
   * filters take no part.
   */
  async interface(check: string, useAsync: boolean, inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
    return langchainScenario((await this.db()) as InterfaceVectorStore, check, useAsync, inputs);
  }

  private written(namespace: string, key: string): Written | undefined {
    return this.catalog.get(namespace)?.get(key);
  }

  private async remove(documentIds: string[]): Promise<void> {
    if (this.deleteUnsupported) return;
    const db = await this.db();
    try {
      await db.delete({ ids: documentIds });
    } catch (e) {
      const message = String((e as Error)?.message);
      // VectorStore's default delete throws "Not implemented."
      if (/not implemented/i.test(message)) {
        this.deleteUnsupported = true;
        return;
      }
      if (!deletesByIds(db)) throw mappingLimit(`the store cannot delete by ids: ${message}`);
      throw e;
    }
  }

  /**
   * Writes `entries` (a repeated key: its last entry) stamped `timestamp`:
   * one `delete` of the documents they replace, then one `addDocuments`.
   */
  private async write(entries: readonly NewEntry[], timestamp: string): Promise<void> {
    const db = await this.db();
    const last = new Map<string, NewEntry>();
    for (const e of entries) {
      const position = JSON.stringify([e.namespace, e.key]);
      last.delete(position);
      last.set(position, e);
    }
    const batch = [...last.values()];
    const replaced: string[] = [];
    for (const e of batch) {
      const previous = this.written(e.namespace, e.key);
      if (previous) replaced.push(previous.documentId);
    }
    // The catalog changes only once the delete is done: a delete that
    // throws leaves the old documents in the store, and the catalog must
    // keep them current, or the function filter would hide them.
    if (replaced.length > 0) await this.remove(replaced);
    for (const e of batch) this.catalog.get(e.namespace)?.delete(e.key);
    const ids = batch.map((e) => documentId(e.namespace, e.key));
    const revisions = batch.map(() => ++this.revision);
    const docs: DocumentLike[] = batch.map((e, i) => ({
      pageContent: e.content,
      metadata: { namespace: e.namespace, key: e.key, category: e.category, session_id: e.session_id, taint: e.taint, timestamp, revision: revisions[i] },
      id: ids[i],
    }));
    const returned = await db.addDocuments(docs, { ids });
    batch.forEach((e, i) => {
      let space = this.catalog.get(e.namespace);
      if (space === undefined) this.catalog.set(e.namespace, (space = new Map()));
      // A store may make its own ids (LibSQL ignores those given): the one
      // it returns is the one a later delete must name.
      const own = Array.isArray(returned) ? returned[i] : undefined;
      space.set(e.key, { documentId: typeof own === "string" ? own : (ids[i] as string), revision: revisions[i] as number });
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

  private conditions(namespace: string, key: string | null, category: string | null, sessionId: string | null): RecallConditions {
    return {
      namespace,
      key,
      category,
      session_id: sessionId,
      // The revision alone tells the current document of a key (each
      // write has its own): a store need not hand its filter the id
      // (CloseVectorNode gives it pageContent and metadata only).
      isCurrent: (doc) => {
        const written = this.written(doc.metadata?.namespace, doc.metadata?.key);
        return written !== undefined && written.revision === doc.metadata?.revision;
      },
    };
  }

  private filterOf(conditions: RecallConditions, db: VectorStoreLike): unknown {
    return (this.options.filter ?? DIALECTS[db._vectorstoreType?.() ?? ""] ?? objectFilter)(conditions);
  }

  /**
   * `similaritySearchWithScore(query, k, filter of c)`, each document read
   * as an entry; a document outside `c` fails the read as a mapping limit
   * (the store ignored the filter), one without the entry fields as the
   * store's fault, and, when `scored` (a recall's), one whose score is not
   * a number as the store's too.
   */
  private async search(query: string, k: number, c: RecallConditions, scored = false): Promise<Entry[]> {
    const db = await this.db();
    const found = await db.similaritySearchWithScore(query, k, this.filterOf(c, db));
    return found.map(([doc, score]) => {
      const outside = Object.entries(equalities(c)).find(([name, value]) => doc.metadata?.[name] !== value);
      if (outside !== undefined) {
        const [name, value] = outside;
        const parameters = filterlessParameters(db);
        const remedy =
          parameters === null
            ? "give VectorStoreAdapter the option `filter`, a function from the conditions to the filter form this store documents (objectFilter, functionFilter, libsqlFilter and chromaFilter are four)"
            : `its similaritySearchVectorWithScore takes no filter (parameters ${parameters.join(", ")}), so no \`filter\` option helps: ` +
              "this store cannot be served for recalls pinned to a namespace, key, category or session";
        throw mappingLimit(
          `the store answered document ${JSON.stringify(doc.id ?? null)} with metadata.${name} ${JSON.stringify(doc.metadata?.[name] ?? null)} ` +
            `to a search filtered on ${name} ${JSON.stringify(value)}: it ignored the filter; ${remedy}`,
        );
      }
      // Without a delete the replaced and forgotten documents stay: a
      // filter other than functionFilter lets them through, and answering
      // one would blame the store for what the adapter could not remove.
      const written = this.written(doc.metadata?.namespace, doc.metadata?.key);
      if (this.deleteUnsupported && written?.revision !== doc.metadata?.revision) {
        throw mappingLimit(
          `the store has no delete (VectorStore's default throws "Not implemented."), so a document a write replaced or a forget removed stays in it, ` +
            `and its search answered one: document ${JSON.stringify(doc.id ?? null)} of namespace ${JSON.stringify(doc.metadata?.namespace ?? null)}, ` +
            `key ${JSON.stringify(doc.metadata?.key ?? null)}, revision ${JSON.stringify(doc.metadata?.revision ?? null)}; ` +
            "only a filter dropping such documents (functionFilter, which isCurrent drives) serves a store without delete",
        );
      }
      // A missing score must not pass as an unscored hit: it would keep
      // the ranking checks from judging the store's ranking at all. NaN is
      // a number to `typeof`, and min_score would drop it unseen.
      if (scored && !Number.isFinite(score)) {
        throw new DriverError(
          "backend",
          `the store's similaritySearchWithScore answered document ${JSON.stringify(doc.id ?? null)} with score ${shownScore(score)}, ` +
            "not a finite number (LangChain.js's VectorStore answers [Document, number] pairs)",
        );
      }
      return this.entryOf(doc, typeof score === "number" ? contractScore(this.scoreKind, score) : null);
    });
  }

  /** The entry a document holds, every field as the store returned it. */
  private entryOf(doc: DocumentLike, score: number | null): Entry {
    const m = doc.metadata ?? {};
    const missing = ENTRY_FIELDS.filter((name) => !(name in m));
    if (missing.length > 0) {
      throw new DriverError("backend", `the store returned document ${JSON.stringify(doc.id ?? null)} without metadata ${missing.join(", ")}, which the adapter wrote`);
    }
    return entry({ id: doc.id ?? "", namespace: m.namespace, key: m.key, content: doc.pageContent, category: m.category, timestamp: m.timestamp, session_id: m.session_id ?? null, taint: m.taint, score });
  }

  /**
   * The entry at (namespace, key) as the store has it, or null: a search
   * filtered on the key. A miss of a key the catalog holds (written, not
   * forgotten, through the adapter) is a mapping limit, not an absent
   * entry: the search cannot tell a lost document from one a store's
   * filter, applied after its nearest k (LibSQL's `vector_top_k`), dropped.
   */
  private async lookup(namespace: string, key: string): Promise<Entry | null> {
    const found = await this.search(key, 2, this.conditions(namespace, key, null, null));
    if (found.length > 1) {
      throw new DriverError("backend", `the store holds ${found.length} documents for namespace ${JSON.stringify(namespace)}, key ${JSON.stringify(key)} (ids ${found.map((e) => e.id).join(", ")}): a replaced or forgotten document was not deleted`);
    }
    const written = this.written(namespace, key);
    if (found[0] === undefined && written !== undefined) {
      throw mappingLimit(
        `the store's search filtered on namespace ${JSON.stringify(namespace)} and key ${JSON.stringify(key)} did not return document ${JSON.stringify(written.documentId)}, ` +
          "which the adapter wrote and did not delete (get is a filtered search: LangChain.js has no lookup by id): " +
          "either the store lost it or it applies its filter after its nearest k (recall.limit shows which)",
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
    const written = this.written(namespace, key);
    await this.remove([found.id || (written?.documentId ?? documentId(namespace, key))]);
    this.catalog.get(namespace)?.delete(key);
    return true;
  }

  /**
   * The entries of `namespace` the store holds, by key: one search
   * filtered on the namespace for as many documents as the catalog has
   * keys there, then a lookup of each catalog key that answer missed (an
   * engine's search may answer fewer than k).
   */
  private async entriesOf(namespace: string): Promise<Entry[]> {
    const space = this.catalog.get(namespace) ?? new Map<string, Written>();
    const byKey = new Map<string, Entry>();
    for (const e of await this.search(namespace, Math.max(space.size, 1), this.conditions(namespace, null, null, null))) {
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
    const conditions = this.conditions(namespace, null, category, session_id);
    // k is the limit as the store can take it, never sized from the
    // catalog: a store refusing a huge k fails recall.huge_limit here as
    // it does through the Python adapters.
    const hits = await bestWithTies(limit, ENGINE_MAX_LIMIT, (k) => this.search(query, k, conditions, true));
    return min_score === null ? hits : hits.filter((h) => h.score !== null && h.score >= min_score);
  }

  async exportPage({ cursor, limit }: ExportPageRequest): Promise<ExportPage> {
    return exportFrom(await this.list({ namespace: null, category: null, session_id: null }), cursor, limit);
  }

  async importRecords({ records }: ImportRequest): Promise<ImportAnswer> {
    return importEach(records, (r: MemoryRecord) => this.write([r], r.timestamp));
  }
}
