/**
 * The scenarios of the interface family for a LangGraph.js `BaseStore`
 * (docs/protocol.md, "The interface op"; docs/adapters.md, "The interface
 * family"), the same as the Python adapter's
 * (`tinymemory.adapters.langgraph_interface`), with the same ops, run
 * with the inputs the suite sends (namespaces, keys, values:
 * docs/protocol.md gives each check's) and echoing them, so the suite
 * judges both by one rule.
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
import { type Inputs, type Observed, errorText, jsonOf, observe } from "./interface-common.js";

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

/** Past the resolution of every clock a store reads (SQLite's CURRENT_TIMESTAMP counts whole seconds), as the Python scenario waits. */
const UPDATE_AFTER_MS = 1100;

/** The scenarios by check id, each the Python scenario of that name, run with the suite's inputs. */
export const LANGGRAPH_SCENARIOS: Record<string, (b: BatchCalls, i: Inputs) => Promise<Record<string, unknown>>> = {
  /** An update keeps createdAt and moves updatedAt. */
  "interface.langgraph.item_timestamps": async (b, i) => {
    const [first, second] = i.values;
    const out: Record<string, unknown> = { namespace: i.namespace, key: i.key, values: i.values };
    out.first_put = await b.put(i.namespace, i.key, first);
    out.first = await b.get(i.namespace, i.key);
    await new Promise((resolve) => setTimeout(resolve, UPDATE_AFTER_MS));
    out.second_put = await b.put(i.namespace, i.key, second);
    out.second = await b.get(i.namespace, i.key);
    return out;
  },

  /** A PutOperation with value null deletes the item read back after its put. */
  "interface.langgraph.put_none_deletes": async (b, i) => {
    const out: Record<string, unknown> = { namespace: i.namespace, key: i.key, value: i.value };
    out.put = await b.put(i.namespace, i.key, i.value);
    out.before = await b.get(i.namespace, i.key);
    out.delete = await b.put(i.namespace, i.key, null);
    out.get = await b.get(i.namespace, i.key);
    out.search = await b.search(i.namespace, 10, 0);
    return out;
  },

  /** listNamespaces with a prefix and maxDepth (the docstring's example, its labels the suite's words), a suffix, and a maxDepth alone. */
  "interface.langgraph.list_namespaces": async (b, i) => {
    const namespaces: string[][] = i.namespaces;
    const out: Record<string, unknown> = { namespaces, with_prefix: i.with_prefix, with_suffix: i.with_suffix };
    const puts = [];
    for (const ns of namespaces) puts.push(await b.put(ns, "k", { v: 1 }));
    out.puts = puts;
    out.prefix_depth = await b.namespaces({ prefix: i.with_prefix, maxDepth: 3 });
    out.suffix = await b.namespaces({ suffix: i.with_suffix });
    out.depth = await b.namespaces({ maxDepth: 2 });
    return out;
  },

  /** search with a namespace prefix, paged by limit and offset. */
  "interface.langgraph.search_paging": async (b, i) => {
    const inside: [string[], string][] = i.inside;
    const outside: [string[], string] = i.outside;
    const puts = [];
    for (const [n, [ns, key]] of inside.entries()) puts.push(await b.put(ns, key, { n }));
    puts.push(await b.put(outside[0], outside[1], { n: inside.length }));
    const pages = [];
    for (const offset of [0, 2, 4]) pages.push(await b.search(i.prefix, 2, offset));
    return { prefix: i.prefix, inside, outside, puts, pages, whole: await b.search(i.prefix, 10, 0) };
  },
};

/**
 * The observation of `check`'s scenario on `store` (fresh and empty):
 * `{ not_implemented }` for the sync path, which LangGraph.js has not.
 * An unknown check is a `backend` DriverError naming the known ones.
 */
export function langgraphScenario(
  store: BaseStoreLike,
  check: string,
  useAsync: boolean,
  inputs: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return observe(LANGGRAPH_SCENARIOS, LANGGRAPH_INTERFACE, check, useAsync, inputs, SYNC, () => new BatchCalls(store));
}
