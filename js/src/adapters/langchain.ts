/**
 * A tinymemory store over a LangChain.js `VectorStore` (MemoryVectorStore,
 * or any other), so the conformance suite validates its recall. A
 * VectorStore has no get, list or count, so the adapter keeps a catalog
 * of what it stored (in the adapter's memory) for get, list, namespaces,
 * export and import; recall is the engine's. The mapping
 * (docs/adapters.md, "JavaScript"):
 *
 * - an entry is one Document: `pageContent` the content, `metadata`
 *   `{ namespace, key, category, session_id, taint }`, `id` the entry's
 *   identity and a write generation (`["NS","KEY"]#7`), so each write is
 *   a new document;
 * - `store` (and each entry of `store_many`, and each imported record) is
 *   `addDocuments([doc], { ids: [id] })`, then `delete({ ids: [previous] })`
 *   for the document it replaces; `forget` is that delete. A store whose
 *   `delete` is not implemented (MemoryVectorStore's throws) keeps the old
 *   documents: the adapter's filter then drops every document that is not
 *   the current one of its key;
 * - `recall` is `similaritySearchWithScore(query, k, filter)` with k =
 *   min(limit, entries of the namespace), the filter keeping the namespace,
 *   the category and session asked and the current documents (a function
 *   `(doc) => boolean`, which is MemoryVectorStore's filter type; give
 *   `filter` to build another store's), the score the engine's, adjacent
 *   equal scores ordered by key (asking again for twice as many when the
 *   hits tied at the limit may go on past it), as the Python adapter does.
 *
 * Nothing else is re-sorted or re-scored: hits come in the engine's order
 * with its scores, so the suite judges the engine.
 */

import type { Entry, ExportPage, ExportPageRequest, ImportAnswer, ImportRequest, KeyRequest, ListRequest, MemoryRecord, NamespaceSummary, NewEntry, RecallRequest, Store, StoreManyRequest } from "../protocol/types.js";
import { GLOBAL_NAMESPACE, validateEntries, validateKey, validateMinScore, validateNamespace } from "../protocol/validate.js";
import { latestTimestamp, nowRfc3339 } from "../protocol/time.js";
import { sortBytewise } from "../protocol/order.js";
import { isBlank } from "../protocol/words.js";
import { entry } from "../protocol/wire.js";
import { bestWithTies, exportFrom, importEach } from "./common.js";

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
}

/** What a recall keeps, for `filter` to turn into the engine's filter type. */
export interface RecallConditions {
  namespace: string;
  category: string | null;
  session_id: string | null;
  /** True for the current document of its key (false for one an upsert replaced but could not delete). */
  isCurrent(documentId: string | undefined): boolean;
}

/** Options of VectorStoreAdapter. */
export interface VectorStoreAdapterOptions {
  /**
   * True when each process's engine is its own (an in-memory engine, or
   * one database per process): hello then declares independent stores and
   * `run --jobs N` may run checks at once. Default false.
   */
  independentStores?: boolean;
  /** The driver id reports name the store by (default "langchain-vectorstore"). */
  driverId?: string;
  /** Builds the engine's filter from a recall's conditions (default: a `(doc) => boolean` function). */
  filter?: (conditions: RecallConditions) => unknown;
}

interface Stored {
  entry: Entry;
  documentId: string;
}

/** The default filter: a function over Documents, as MemoryVectorStore takes it. */
export function functionFilter(c: RecallConditions): (doc: DocumentLike) => boolean {
  return (doc) =>
    doc.metadata.namespace === c.namespace &&
    (c.category === null || doc.metadata.category === c.category) &&
    (c.session_id === null || doc.metadata.session_id === c.session_id) &&
    c.isCurrent(doc.id);
}

/** The adapter. `make` makes a fresh, empty VectorStore: `reset` calls it. */
export class VectorStoreAdapter implements Store {
  readonly recallProfile = "semantic" as const;
  readonly driverId: string;
  readonly independentStores: boolean;
  private engine: VectorStoreLike | null = null;
  private catalog = new Map<string, Map<string, Stored>>();
  private current = new Set<string>();
  private generation = 0;
  /** Set once the engine's delete threw: replaced documents stay, filtered out. */
  deleteUnsupported = false;

  constructor(
    private readonly make: () => VectorStoreLike | Promise<VectorStoreLike>,
    private readonly options: VectorStoreAdapterOptions = {},
  ) {
    this.independentStores = options.independentStores ?? false;
    this.driverId = options.driverId ?? "langchain-vectorstore";
  }

  private async db(): Promise<VectorStoreLike> {
    this.engine ??= await this.make();
    return this.engine;
  }

  async reset(): Promise<void> {
    this.engine = await this.make();
    this.catalog = new Map();
    this.current = new Set();
  }

  private async remove(documentId: string): Promise<void> {
    this.current.delete(documentId);
    if (this.deleteUnsupported) return;
    try {
      await (await this.db()).delete({ ids: [documentId] });
    } catch (e) {
      // VectorStore's default delete throws "Not implemented."
      if (!/not implemented/i.test(String((e as Error)?.message))) throw e;
      this.deleteUnsupported = true;
    }
  }

  private async write(e: NewEntry, timestamp: string): Promise<void> {
    const documentId = `${JSON.stringify([e.namespace, e.key])}#${++this.generation}`;
    const doc: DocumentLike = {
      pageContent: e.content,
      metadata: { namespace: e.namespace, key: e.key, category: e.category, session_id: e.session_id, taint: e.taint },
      id: documentId,
    };
    await (await this.db()).addDocuments([doc], { ids: [documentId] });
    let space = this.catalog.get(e.namespace);
    if (space === undefined) this.catalog.set(e.namespace, (space = new Map()));
    const previous = space.get(e.key);
    const stored = entry({ id: documentId, ...e, timestamp });
    space.set(e.key, { entry: stored, documentId });
    this.current.add(documentId);
    if (previous) await this.remove(previous.documentId);
  }

  async store(e: NewEntry): Promise<void> {
    validateNamespace(e.namespace);
    validateKey(e.key);
    await this.write(e, nowRfc3339());
  }

  async storeMany({ entries }: StoreManyRequest): Promise<void> {
    validateEntries(entries);
    const timestamp = nowRfc3339();
    for (const e of entries) await this.write(e, timestamp);
  }

  async get({ namespace, key }: KeyRequest): Promise<Entry | null> {
    validateNamespace(namespace);
    const found = this.catalog.get(namespace)?.get(key);
    return found ? { ...found.entry } : null;
  }

  async forget({ namespace, key }: KeyRequest): Promise<boolean> {
    validateNamespace(namespace);
    const space = this.catalog.get(namespace);
    const found = space?.get(key);
    if (!space || !found) return false;
    space.delete(key);
    if (space.size === 0) this.catalog.delete(namespace);
    await this.remove(found.documentId);
    return true;
  }

  async list({ namespace, category, session_id }: ListRequest): Promise<Entry[]> {
    if (namespace !== null) validateNamespace(namespace);
    const out: Entry[] = [];
    for (const ns of namespace !== null ? [namespace] : sortBytewise(this.catalog.keys())) {
      const space = this.catalog.get(ns);
      if (!space) continue;
      for (const key of sortBytewise(space.keys())) {
        const e = (space.get(key) as Stored).entry;
        if ((category === null || e.category === category) && (session_id === null || e.session_id === session_id)) out.push({ ...e });
      }
    }
    return out;
  }

  async namespaces(): Promise<NamespaceSummary[]> {
    return sortBytewise(this.catalog.keys()).map((ns) => {
      const space = this.catalog.get(ns) as Map<string, Stored>;
      return { namespace: ns, count: space.size, last_updated: latestTimestamp(Array.from(space.values(), (s) => s.entry.timestamp)) };
    });
  }

  async recall({ query, limit, namespace, category, session_id, min_score }: RecallRequest): Promise<Entry[]> {
    namespace ??= GLOBAL_NAMESPACE;
    validateNamespace(namespace);
    validateMinScore(min_score);
    const space = this.catalog.get(namespace);
    if (limit === 0 || isBlank(query) || !space) return [];
    const conditions: RecallConditions = {
      namespace,
      category,
      session_id,
      isCurrent: (id) => id !== undefined && this.current.has(id),
    };
    const filter = (this.options.filter ?? functionFilter)(conditions);
    const db = await this.db();
    const hits = await bestWithTies(limit, space.size, async (k) => {
      const found = await db.similaritySearchWithScore(query, k, filter);
      return found.map(([doc, score]) => ({ ...this.answered(space, doc), score }));
    });
    return min_score === null ? hits : hits.filter((h) => h.score !== null && h.score >= min_score);
  }

  /** The entry a document found stands for; a document of another namespace, or a replaced one (a filter the engine ignored), as the engine gave it. */
  private answered(space: Map<string, Stored>, doc: DocumentLike): Entry {
    const stored = space.get(doc.metadata.key);
    if (stored && stored.documentId === doc.id) return stored.entry;
    return entry({
      id: doc.id ?? "",
      namespace: doc.metadata.namespace,
      key: doc.metadata.key,
      content: doc.pageContent,
      category: doc.metadata.category,
      timestamp: stored?.entry.timestamp ?? nowRfc3339(),
      session_id: doc.metadata.session_id ?? null,
      taint: doc.metadata.taint,
    });
  }

  async exportPage({ cursor, limit }: ExportPageRequest): Promise<ExportPage> {
    return exportFrom(await this.list({ namespace: null, category: null, session_id: null }), cursor, limit);
  }

  async importRecords({ records }: ImportRequest): Promise<ImportAnswer> {
    return importEach(records, (r: MemoryRecord) => this.write(r, r.timestamp));
  }
}
