/**
 * The scenarios of the interface family for a LangGraph.js `BaseStore`
 * (docs/protocol.md, "The interface op"; docs/adapters.md, "The interface
 * family"), the same as the Python adapter's
 * (`tinymemory.adapters.langgraph_interface`), with the same ops, so the
 * suite judges both by one rule.
 *
 * LangGraph.js's `batch` returns a Promise: it is the async path (Python's
 * `abatch`); the sync path, which LangGraph.js has not, answers
 * `{ not_implemented }`. Each op is one `batch([op])` with
 * @langchain/langgraph-checkpoint's operation objects (`{ namespace, key,
 * value }` a PutOperation, `{ namespacePrefix, limit, offset }` a
 * SearchOperation, ...). An item is observed as `{ namespace, key, value,
 * created_at, updated_at }`, the times as seconds since the epoch; a call
 * as `{ ok }` or `{ error }`.
 */

import type { BaseStoreLike, ItemLike } from "./langgraph.js";
import { type Observed, errorText, jsonOf, observe } from "./interface-common.js";

/** The interface a LangGraphStore declares in hello. */
export const LANGGRAPH_INTERFACE = "langgraph.basestore";

/** Why the sync path is not run. */
const SYNC = "LangGraph.js's BaseStore has no sync batch (its batch returns a Promise, Python's abatch): the scenario runs on the async path only";

/** An item (or null) as the observation carries it. */
export function observedItem(item: ItemLike | null | undefined): Record<string, unknown> | null {
  if (item === null || item === undefined) return null;
  return {
    namespace: [...item.namespace],
    key: item.key,
    value: jsonOf(item.value),
    created_at: new Date(item.createdAt).getTime() / 1000,
    updated_at: new Date(item.updatedAt).getTime() / 1000,
  };
}

function isItem(value: unknown): value is ItemLike {
  return value !== null && typeof value === "object" && "key" in value;
}

/** One op at a time through `batch`, as `{ ok }` or `{ error }`. */
export class BatchCalls {
  constructor(private readonly store: BaseStoreLike) {}

  async one(op: Record<string, unknown>): Promise<Observed> {
    let result: unknown;
    try {
      [result] = await this.store.batch([op]);
    } catch (e) {
      return { error: errorText(e) };
    }
    if (Array.isArray(result)) return { ok: result.map((r) => (isItem(r) ? observedItem(r) : jsonOf(r))) };
    return { ok: isItem(result) || result === null || result === undefined ? observedItem(result as ItemLike | null) : jsonOf(result) };
  }

  put(namespace: string[], key: string, value: Record<string, unknown> | null): Promise<Observed> {
    return this.one({ namespace, key, value, index: false });
  }

  get(namespace: string[], key: string): Promise<Observed> {
    return this.one({ namespace, key });
  }

  search(namespacePrefix: string[], limit: number, offset: number): Promise<Observed> {
    return this.one({ namespacePrefix, limit, offset });
  }

  namespaces(options: { prefix?: string[]; suffix?: string[]; maxDepth?: number }): Promise<Observed> {
    const matchConditions = [];
    if (options.prefix) matchConditions.push({ matchType: "prefix", path: options.prefix });
    if (options.suffix) matchConditions.push({ matchType: "suffix", path: options.suffix });
    return this.one({ matchConditions: matchConditions.length > 0 ? matchConditions : undefined, maxDepth: options.maxDepth, limit: 100, offset: 0 });
  }
}

/** The namespaces of list_namespaces' docstring example. */
export const EXAMPLE_NAMESPACES = [["a", "b", "c"], ["a", "b", "d", "e"], ["a", "b", "d", "i"], ["a", "b", "f"], ["a", "c", "f"]];

/** Past the resolution of every clock a store reads (SQLite's CURRENT_TIMESTAMP counts whole seconds), as the Python scenario waits. */
const UPDATE_AFTER_MS = 1100;

/** The scenarios by check id, each the Python scenario of that name. */
export const LANGGRAPH_SCENARIOS: Record<string, (b: BatchCalls) => Promise<Record<string, unknown>>> = {
  /** An update keeps createdAt and moves updatedAt. */
  "interface.langgraph.item_timestamps": async (b) => {
    const out: Record<string, unknown> = { first_put: await b.put(["docs"], "k", { v: 1 }) };
    out.first = await b.get(["docs"], "k");
    await new Promise((resolve) => setTimeout(resolve, UPDATE_AFTER_MS));
    out.second_put = await b.put(["docs"], "k", { v: 2 });
    out.second = await b.get(["docs"], "k");
    return out;
  },

  /** A PutOperation with value null deletes the item. */
  "interface.langgraph.put_none_deletes": async (b) => {
    const out: Record<string, unknown> = { put: await b.put(["docs"], "k", { v: 1 }), delete: await b.put(["docs"], "k", null) };
    out.get = await b.get(["docs"], "k");
    out.search = await b.search(["docs"], 10, 0);
    return out;
  },

  /** listNamespaces with a prefix and maxDepth (the docstring's example), a suffix, and a maxDepth alone. */
  "interface.langgraph.list_namespaces": async (b) => {
    const out: Record<string, unknown> = { namespaces: EXAMPLE_NAMESPACES };
    const puts = [];
    for (const ns of EXAMPLE_NAMESPACES) puts.push(await b.put(ns, "k", { v: 1 }));
    out.puts = puts;
    out.prefix_depth = await b.namespaces({ prefix: ["a", "b"], maxDepth: 3 });
    out.suffix = await b.namespaces({ suffix: ["f"] });
    out.depth = await b.namespaces({ maxDepth: 2 });
    return out;
  },

  /** search with a namespace prefix, paged by limit and offset. */
  "interface.langgraph.search_paging": async (b) => {
    const spaces = [["docs", "a"], ["docs", "a"], ["docs", "a"], ["docs", "b"], ["docs", "b"]];
    const inside = spaces.map((ns, i) => [ns, `k${i}`] as [string[], string]);
    const outside: [string[], string] = [["other"], "k9"];
    const puts = [];
    for (const [i, [ns, key]] of inside.entries()) puts.push(await b.put(ns, key, { n: i }));
    puts.push(await b.put(outside[0], outside[1], { n: 9 }));
    const pages = [];
    for (const offset of [0, 2, 4]) pages.push(await b.search(["docs"], 2, offset));
    return { inside, outside, puts, pages, whole: await b.search(["docs"], 10, 0) };
  },
};

/**
 * The observation of `check`'s scenario on `store` (fresh and empty):
 * `{ not_implemented }` for the sync path, which LangGraph.js has not.
 * An unknown check is a `backend` DriverError naming the known ones.
 */
export function langgraphScenario(store: BaseStoreLike, check: string, useAsync: boolean): Promise<Record<string, unknown>> {
  return observe(LANGGRAPH_SCENARIOS, LANGGRAPH_INTERFACE, check, useAsync, SYNC, () => new BatchCalls(store));
}
