/**
 * A tinymemory store over a LangGraph.js `BaseStore` (InMemoryStore,
 * PostgresStore, or any other), so the conformance suite validates the
 * BaseStore. The mapping (docs/adapters.md, "JavaScript"):
 *
 * - a tinymemory namespace `NS` is the one-label LangGraph namespace
 *   `[label(NS)]`, label(NS) being NS with ASCII letters and digits as
 *   they are and every other character written "-" and the two lowercase
 *   hex digits of its code (":" is "-3a", "." "-2e", "-" "-2d", "_"
 *   "-5f"), and the one name "langgraph" written "-6canggraph" (no root
 *   label may be "langgraph"): no label holds "%", "_", a backslash, "."
 *   or ":", which BaseStores refuse (PostgresStore "%", "_" and the
 *   backslash; InMemoryStore ":"; every one "."), and the label decodes
 *   back (fixtures/adapter-encodings.json, shared with the Python
 *   adapter); one label per namespace keeps a search's prefix exact in a
 *   store that compares labels whole (PostgresStore compares the joined
 *   path as a string, so learning:a's search also finds learning:a/b's
 *   items: docs/adapters.md); option `root` puts a label of your own
 *   before it;
 * - an entry is the item at (that namespace, key) whose value is the whole
 *   `{ content, category, session_id, taint, timestamp }`, the timestamp
 *   now for a store and the record's own for an import, so a put leaves
 *   nothing of the old value even in a store that merges values;
 * - `recall` is `search([root, label(NS)], { query, filter, limit })`,
 *   the filter being `{ category, session_id }` as given, the score the
 *   engine's (an index with embeddings is needed: without one every hit is
 *   unscored; a score there but not a finite number fails the recall as
 *   the store's), adjacent equal scores ordered by key (asking again for
 *   twice as many when the hits tied at the limit may go on past it); `list` and `namespaces` are `search` without a query and
 *   `listNamespaces({ prefix: [root] })`; `forget` is `get` then `delete`;
 *   `store_many` is one `batch` of puts; export and import page over `list`.
 *
 * Nothing else is re-sorted or re-scored: hits come in the engine's order
 * with its scores, so the suite judges the engine.
 */

import type { Entry, ExportPage, ExportPageRequest, ImportAnswer, ImportRequest, KeyRequest, ListRequest, MemoryRecord, NamespaceSummary, NewEntry, RecallRequest, Store, StoreManyRequest } from "../protocol/types.js";
import { DriverError } from "../protocol/errors.js";
import { GLOBAL_NAMESPACE, validateEntries, validateKey, validateMinScore, validateNamespace } from "../protocol/validate.js";
import { latestTimestamp, nowRfc3339 } from "../protocol/time.js";
import { compareBytes } from "../protocol/order.js";
import { isBlank } from "../protocol/words.js";
import { entry } from "../protocol/wire.js";
import { ENGINE_MAX_LIMIT, bestWithTies, exportFrom, importEach, shownScore } from "./common.js";
import { LANGGRAPH_INTERFACE, LANGGRAPH_SCENARIOS, langgraphScenario } from "./langgraph-interface.js";

/**
 * The score of a search's item: `null` when the store gives none
 * (`undefined` or `null`: SearchItem.score is optional, and a store
 * without an index ranks nothing), else the number it gave. One that is
 * there but not a finite number (a string, NaN) fails as the store's:
 * taken as unscored, or dropped by `min_score`, it would hide the fault.
 */
function scoreOf(item: ItemLike): number | null {
  const score: unknown = item.score;
  if (score === undefined || score === null) return null;
  if (typeof score === "number" && Number.isFinite(score)) return score;
  throw new DriverError(
    "backend",
    `the store's search answered item ${JSON.stringify(item.key)} of namespace ${JSON.stringify(item.namespace)} with score ${shownScore(score)}, ` +
      "not a finite number (a BaseStore's SearchItem.score is a number, or absent without an index)",
  );
}

/** An item as a BaseStore returns it. */
export interface ItemLike {
  value: Record<string, any>;
  key: string;
  namespace: string[];
  createdAt: Date;
  updatedAt: Date;
  score?: number;
}

/** The part of LangGraph.js's BaseStore the adapter calls. */
export interface BaseStoreLike {
  get(namespace: string[], key: string): Promise<ItemLike | null>;
  search(namespacePrefix: string[], options?: { filter?: Record<string, any>; limit?: number; offset?: number; query?: string }): Promise<ItemLike[]>;
  put(namespace: string[], key: string, value: Record<string, any>, index?: false | string[]): Promise<void>;
  delete(namespace: string[], key: string): Promise<void>;
  listNamespaces(options?: { prefix?: string[]; suffix?: string[]; maxDepth?: number; limit?: number; offset?: number }): Promise<string[][]>;
  batch(operations: any[]): Promise<any[]>;
}

/** Options of LangGraphStore. */
export interface LangGraphStoreOptions {
  /**
   * True when each process's engine is its own (an in-memory engine, or
   * one database per process): hello then declares independent stores and
   * `run --jobs N` may run checks at once. Default false.
   */
  independentStores?: boolean;
  /** A label put before every namespace's label (default: none, as the Python adapter). */
  root?: string;
  /** The driver id reports name the store by (default "langgraph-basestore"). */
  driverId?: string;
  /**
   * Called once for an engine no longer used (with a factory, the one a
   * reset replaces; and the one in use when the driver ends): stop its
   * pool, drop its schema.
   */
  cleanup?: (engine: BaseStoreLike) => void | Promise<void>;
}

const RESERVED_ROOT = "langgraph";
const RESERVED_ROOT_LABEL = "-6c" + RESERVED_ROOT.slice(1);
const KEPT = /^[A-Za-z0-9]$/;

/**
 * label(NS): NS with ASCII letters and digits as they are and every other
 * character (a namespace holds ASCII only) written "-" and the two
 * lowercase hex digits of its code, and the one name "langgraph" written
 * "-6canggraph" (no root label may be "langgraph"). No label holds "%",
 * "_", a backslash, "." or ":", which some BaseStores refuse
 * (PostgresStore: "%", "_" and the backslash, its LIKE wildcards and
 * escape; InMemoryStore: ":"; every one: ".").
 * fixtures/adapter-encodings.json holds both languages' adapters to it.
 */
export function namespaceLabel(namespace: string): string {
  let label = "";
  for (const c of namespace) label += KEPT.test(c) ? c : "-" + (c.codePointAt(0) as number).toString(16).padStart(2, "0");
  return label === RESERVED_ROOT ? RESERVED_ROOT_LABEL : label;
}

/** The tinymemory namespace of a label namespaceLabel made, or `null` for any other label. */
export function namespaceOfLabel(label: string): string | null {
  if (!/^(?:[A-Za-z0-9]|-[0-9a-f]{2})+$/.test(label)) return null;
  const namespace = label.replace(/-([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  try {
    validateNamespace(namespace);
  } catch {
    return null;
  }
  return namespaceLabel(namespace) === label ? namespace : null;
}

/**
 * The adapter. `engine` is a BaseStore, or a function making a fresh
 * one: with a function, `reset` makes a new engine; with an instance,
 * `reset` deletes every item under the root through the engine.
 */
export class LangGraphStore implements Store {
  readonly recallProfile = "semantic" as const;
  /** Declared in hello: the interface family's scenarios run through `interface` (langgraph-interface.ts). */
  readonly interfaceName = LANGGRAPH_INTERFACE;
  readonly driverId: string;
  readonly independentStores: boolean;
  readonly root: string | null;
  private engine: BaseStoreLike | null = null;
  private readonly cleanup: ((engine: BaseStoreLike) => void | Promise<void>) | null;

  constructor(
    private readonly source: BaseStoreLike | (() => BaseStoreLike | Promise<BaseStoreLike>),
    options: LangGraphStoreOptions = {},
  ) {
    this.cleanup = options.cleanup ?? null;
    this.root = options.root ?? null;
    this.independentStores = options.independentStores ?? false;
    this.driverId = options.driverId ?? "langgraph-basestore";
  }

  private async db(): Promise<BaseStoreLike> {
    this.engine ??= typeof this.source === "function" ? await this.source() : this.source;
    return this.engine;
  }

  private path(namespace: string): string[] {
    return this.root === null ? [namespaceLabel(namespace)] : [this.root, namespaceLabel(namespace)];
  }

  /** The tinymemory namespace of an engine namespace the adapter wrote, or `null` for another. */
  private namespaceOf(path: string[]): string | null {
    const depth = this.root === null ? 1 : 2;
    if (path.length !== depth || (this.root !== null && path[0] !== this.root)) return null;
    return namespaceOfLabel(path[depth - 1] as string);
  }

  /**
   * The whole value of an entry, `timestamp` included (now for a store,
   * the record's own for an import): a put always writes every field, so
   * an engine that merges a put into the old value keeps nothing of it.
   */
  private value(e: NewEntry, timestamp: string): Record<string, unknown> {
    return { content: e.content, category: e.category, session_id: e.session_id, taint: e.taint, timestamp };
  }

  private toEntry(item: ItemLike, namespace: string, score: number | null = null): Entry {
    const v = item.value;
    return entry({
      id: JSON.stringify([namespace, item.key]),
      namespace,
      key: item.key,
      content: v.content,
      category: v.category,
      timestamp: typeof v.timestamp === "string" ? v.timestamp : item.updatedAt.toISOString(),
      session_id: v.session_id ?? null,
      taint: v.taint,
      score,
    });
  }

  /** Called when the driver ends: `cleanup` for the engine in use. */
  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    if (engine !== null && this.cleanup !== null) await this.cleanup(engine);
  }

  async reset(): Promise<void> {
    if (typeof this.source === "function") {
      await this.close();
      this.engine = await this.source();
      return;
    }
    const db = await this.db();
    for (const path of await db.listNamespaces(this.listOptions())) {
      if (this.namespaceOf(path) === null) continue;
      for (const item of await db.search(path, { limit: ENGINE_MAX_LIMIT })) {
        if (item.namespace.length === path.length) await db.delete(item.namespace, item.key);
      }
    }
  }

  /**
   * The observation of the interface family's scenario `check`
   * (langgraph-interface.ts) on the engine the suite has just reset. With
   * one engine instance rather than a factory, `reset` empties only the
   * adapter's own namespaces, not the scenarios' (the suite's words):
   * the scenario is not run, and says so, rather than judged on
   * a store holding an earlier check's items.
   */
  async interface(check: string, useAsync: boolean, inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (typeof this.source !== "function" && useAsync && Object.hasOwn(LANGGRAPH_SCENARIOS, check)) {
      return {
        not_implemented:
          "LangGraphStore was given one BaseStore instance, which reset empties of the adapter's own namespaces only: " +
          "give it a function making a fresh store to run the interface family",
      };
    }
    return langgraphScenario(await this.db(), check, useAsync, inputs);
  }

  async store(e: NewEntry): Promise<void> {
    validateNamespace(e.namespace);
    validateKey(e.key);
    await (await this.db()).put(this.path(e.namespace), e.key, this.value(e, nowRfc3339()));
  }

  async storeMany({ entries }: StoreManyRequest): Promise<void> {
    validateEntries(entries);
    if (entries.length === 0) return;
    const timestamp = nowRfc3339();
    const ops = entries.map((e) => ({ namespace: this.path(e.namespace), key: e.key, value: this.value(e, timestamp) }));
    await (await this.db()).batch(ops);
  }

  async get({ namespace, key }: KeyRequest): Promise<Entry | null> {
    validateNamespace(namespace);
    validateKey(key);
    const item = await (await this.db()).get(this.path(namespace), key);
    return item === null ? null : this.toEntry(item, namespace);
  }

  async forget({ namespace, key }: KeyRequest): Promise<boolean> {
    validateNamespace(namespace);
    validateKey(key);
    const db = await this.db();
    if ((await db.get(this.path(namespace), key)) === null) return false;
    await db.delete(this.path(namespace), key);
    return true;
  }

  private filter(category: string | null, sessionId: string | null): Record<string, unknown> | undefined {
    const filter: Record<string, unknown> = {};
    if (category !== null) filter.category = category;
    if (sessionId !== null) filter.session_id = sessionId;
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  private listOptions(): { prefix?: string[]; limit: number } {
    return this.root === null ? { limit: ENGINE_MAX_LIMIT } : { prefix: [this.root], limit: ENGINE_MAX_LIMIT };
  }

  /** Every tinymemory namespace the engine lists (those the adapter can have written), bytewise. */
  private async names(): Promise<string[]> {
    const listed = await (await this.db()).listNamespaces(this.listOptions());
    return listed
      .map((path) => this.namespaceOf(path))
      .filter((ns): ns is string => ns !== null)
      .sort(compareBytes);
  }

  private async entriesOf(namespace: string, category: string | null, sessionId: string | null): Promise<Entry[]> {
    const filter = this.filter(category, sessionId);
    const items = await (await this.db()).search(this.path(namespace), { limit: ENGINE_MAX_LIMIT, ...(filter ? { filter } : {}) });
    return items
      .filter((item) => item.namespace.length === (this.root === null ? 1 : 2))
      .map((item) => this.toEntry(item, namespace))
      .sort((a, b) => compareBytes(a.key, b.key));
  }

  async list({ namespace, category, session_id }: ListRequest): Promise<Entry[]> {
    if (namespace !== null) validateNamespace(namespace);
    const out: Entry[] = [];
    for (const ns of namespace !== null ? [namespace] : await this.names()) out.push(...(await this.entriesOf(ns, category, session_id)));
    return out;
  }

  async namespaces(): Promise<NamespaceSummary[]> {
    const out: NamespaceSummary[] = [];
    for (const ns of await this.names()) {
      const entries = await this.entriesOf(ns, null, null);
      // InMemoryStore keeps listing a namespace after its last item is
      // deleted; a namespace summary is for a non-empty namespace only.
      if (entries.length === 0) continue;
      out.push({ namespace: ns, count: entries.length, last_updated: latestTimestamp(entries.map((e) => e.timestamp)) });
    }
    return out;
  }

  async recall({ query, limit, namespace, category, session_id, min_score }: RecallRequest): Promise<Entry[]> {
    namespace ??= GLOBAL_NAMESPACE;
    validateNamespace(namespace);
    validateMinScore(min_score);
    if (limit === 0 || isBlank(query)) return [];
    const filter = this.filter(category, session_id);
    const db = await this.db();
    const pinned = namespace;
    const hits = await bestWithTies(limit, ENGINE_MAX_LIMIT, async (n) => {
      const items = await db.search(this.path(pinned), { query, limit: n, ...(filter ? { filter } : {}) });
      return items.map((item) => this.toEntry(item, pinned, scoreOf(item)));
    });
    return min_score === null ? hits : hits.filter((h) => h.score !== null && h.score >= min_score);
  }

  async exportPage({ cursor, limit }: ExportPageRequest): Promise<ExportPage> {
    return exportFrom(await this.list({ namespace: null, category: null, session_id: null }), cursor, limit);
  }

  async importRecords({ records }: ImportRequest): Promise<ImportAnswer> {
    const db = await this.db();
    return importEach(records, (r: MemoryRecord) => db.put(this.path(r.namespace), r.key, this.value(r, r.timestamp)));
  }
}

