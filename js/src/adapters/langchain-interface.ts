/**
 * The scenarios of the interface family for a LangChain.js `VectorStore`
 * (docs/protocol.md, "The interface op"; docs/adapters.md, "The interface
 * family"), the same as the Python adapter's
 * (`tinymemory.adapters.langchain_interface`), with the same inputs, so
 * the suite judges both by one rule.
 *
 * LangChain.js's VectorStore is async only: the sync path answers
 * `{ not_implemented }` and each scenario runs on the async path through
 * `addDocuments`, `similaritySearch`, `similaritySearchWithScore`,
 * `getByIds` and `delete({ ids })`. Where LangChain.js promises less than
 * Python's LangChain, the path is not judged, naming why: `addDocuments`
 * "resolves to an array of document IDs or void, depending on
 * implementation" (@langchain/core's VectorStore), so a store resolving
 * to void cannot be held to the ids it makes or keeps (where the scenario
 * gave ids and judges the documents by them, `delete`, `get_by_ids` and
 * `string_ids`, the ids given stand for the ones used), nor to an upsert by id, which
 * LangChain.js states nowhere; VectorStore has no `getByIds`, so a store
 * without one is not asked; VectorStore's default `delete` throws "Not
 * implemented." (MemoryVectorStore keeps it).
 *
 * A document is observed as `{ id, page_content, metadata }`, a call as
 * `{ ok }` or `{ error: "Type: message" }`.
 */

import type { DocumentLike, VectorStoreLike } from "./langchain.js";
import { type Observed, PathNotImplemented, errorText, jsonOf, observe } from "./interface-common.js";

/** The interface a VectorStoreAdapter declares in hello. */
export const LANGCHAIN_INTERFACE = "langchain.vectorstore";

/** Ids the scenarios give: UUIDs, as the Python scenarios' (every store accepts them). */
export const GIVEN = [1, 2, 3].map((n) => `7c9e6679-7425-40de-944b-e07fc1f90a${String(n).padStart(2, "0")}`);
/** Ids no scenario adds. */
export const MISSING = [1, 2, 3].map((n) => `7c9e6679-7425-40de-944b-e07fc1f90b${String(n).padStart(2, "0")}`);
/** The ids LangChain's standard tests give, as the Python scenarios' STRING_IDS. */
export const STRING_IDS = ["1", "2"];

/** The part of a VectorStore the scenarios call, beyond what the adapter calls. */
export interface InterfaceVectorStore extends VectorStoreLike {
  similaritySearch(query: string, k?: number, filter?: any): Promise<DocumentLike[]>;
  /** Not part of LangChain.js's VectorStore: asked only of a store that has it. */
  getByIds?(ids: string[]): Promise<DocumentLike[]>;
}

/** Why the sync path is not run. */
const SYNC =
  "LangChain.js's VectorStore has no sync methods (addDocuments, similaritySearch, delete return Promises): the scenario runs on the async path only";

/** A Document as the observation carries it. */
export function observedDocument(doc: DocumentLike): Record<string, unknown> {
  return { id: doc.id ?? null, page_content: doc.pageContent, metadata: jsonOf({ ...(doc.metadata ?? {}) }) };
}

function docs(value: unknown): Record<string, unknown>[] {
  return (value as DocumentLike[]).map(observedDocument);
}

/** The store's methods, each answering `{ ok }` or `{ error }`. */
export class VectorStoreCalls {
  constructor(private readonly store: InterfaceVectorStore) {}

  private async call(run: () => Promise<unknown>): Promise<Observed> {
    try {
      return { ok: await run() };
    } catch (e) {
      return { error: errorText(e) };
    }
  }

  /**
   * `addDocuments(documents, { ids })`, and what a resolution to void
   * (which LangChain.js allows) stands for, by `onVoid`: "judged" (the
   * scenario judges the ids the store makes or keeps: it is not run),
   * "given" (the ids given stand for the ones the store used; the searches
   * that follow still read each document's id), or "unread" (the ids are
   * not judged: `{ ok: null }`).
   */
  async add(documents: DocumentLike[], ids: string[] | undefined, onVoid: "judged" | "given" | "unread"): Promise<Observed> {
    const r = await this.call(() => this.store.addDocuments(documents, ids === undefined ? undefined : { ids }));
    if ("ok" in r && r.ok === undefined) {
      if (onVoid === "given" && ids !== undefined) return { ok: ids };
      if (onVoid !== "unread") {
        throw new PathNotImplemented(
          "addDocuments resolved to undefined, not ids: LangChain.js's VectorStore.addDocuments " +
            '"resolves to an array of document IDs or void, depending on implementation", so this store makes no promise of ids to judge',
        );
      }
    }
    return "ok" in r ? { ok: jsonOf(r.ok) } : r;
  }

  async search(query: string, k: number): Promise<Observed> {
    // Every VectorStore has it; the adapter itself needs only similaritySearchWithScore.
    if (typeof this.store.similaritySearch !== "function") {
      throw new PathNotImplemented("the store has no similaritySearch (not a LangChain.js VectorStore: the adapter's own reads need only similaritySearchWithScore)");
    }
    const r = await this.call(() => this.store.similaritySearch(query, k));
    return "ok" in r ? { ok: docs(r.ok) } : r;
  }

  async searchWithScore(query: string, k: number): Promise<Observed> {
    const r = await this.call(() => this.store.similaritySearchWithScore(query, k));
    return "ok" in r ? { ok: (r.ok as [DocumentLike, number][]).map(([d]) => observedDocument(d)) } : r;
  }

  async get(ids: string[]): Promise<Observed> {
    const getByIds = this.store.getByIds;
    if (typeof getByIds !== "function") {
      throw new PathNotImplemented("the store has no getByIds, which LangChain.js's VectorStore does not declare (Python's get_by_ids has no JavaScript twin)");
    }
    const r = await this.call(() => getByIds.call(this.store, ids));
    return "ok" in r ? { ok: docs(r.ok) } : r;
  }

  async delete(ids: string[]): Promise<Observed> {
    const r = await this.call(() => this.store.delete({ ids }));
    // VectorStore's default delete: the store has none.
    if ("error" in r && /^Error: Not implemented\.?$/.test(r.error)) {
      throw new PathNotImplemented(`the store has no delete (${r.error}: VectorStore's default, which MemoryVectorStore keeps)`);
    }
    return "ok" in r ? { ok: jsonOf(r.ok) } : r;
  }
}

/** A document of the scenarios, `{ id: n }` and `extra` its metadata. */
function documentOf(content: string, n: number, id?: string, extra: Record<string, unknown> = {}): DocumentLike {
  const doc: DocumentLike = { pageContent: content, metadata: { id: n, ...extra } };
  if (id !== undefined) doc.id = id;
  return doc;
}

const notRun = { error: "not run: add_documents failed" };

/** The scenarios by check id, each the Python scenario of that name. */
export const LANGCHAIN_SCENARIOS: Record<string, (c: VectorStoreCalls) => Promise<Record<string, unknown>>> = {
  /** test_vectorstore_is_empty: a fresh store finds nothing. */
  "interface.langchain.empty_store": async (c) => ({ search: await c.search("foo", 1) }),

  /** test_add_documents: ids made, the documents found with them, the input left as it was. */
  "interface.langchain.add_documents": async (c) => {
    const given = [documentOf("foo", 1), documentOf("bar", 2)];
    const before = docs(given);
    const ids = await c.add(given, undefined, "judged");
    return { given: before, ids, input_after: docs(given), search: await c.search("bar", 2) };
  },

  /** test_deleting_documents and test_deleting_bulk_documents. */
  "interface.langchain.delete": async (c) => {
    const given = [documentOf("foo", 1), documentOf("bar", 2), documentOf("baz", 3)];
    const out: Record<string, unknown> = { given: docs(given), given_ids: GIVEN, ids: await c.add(given, GIVEN, "given") };
    out.delete_one = await c.delete(GIVEN.slice(0, 1));
    out.after_one = await c.search("foo", 3);
    out.delete_bulk = await c.delete(GIVEN.slice(1));
    out.after_bulk = await c.search("foo", 3);
    return out;
  },

  /** test_delete_missing_content: deleting ids the store does not hold. */
  "interface.langchain.delete_missing": async (c) => ({
    missing_ids: MISSING,
    delete_one: await c.delete(MISSING.slice(0, 1)),
    delete_many: await c.delete(MISSING),
  }),

  /** test_add_documents_with_ids_is_idempotent and test_add_documents_by_id_with_mutation. */
  "interface.langchain.upsert": async (c) => {
    const given = [documentOf("foo", 1), documentOf("bar", 2)];
    const replacement = [documentOf("new foo", 1, undefined, { some_other_field: "foo" })];
    const out: Record<string, unknown> = { given: docs(given), given_ids: GIVEN.slice(0, 2), replacement: docs(replacement) };
    out.first = await c.add(given, GIVEN.slice(0, 2), "judged");
    out.second = await c.add(given, GIVEN.slice(0, 2), "judged");
    out.after_twice = await c.search("bar", 3);
    out.third = await c.add(replacement, GIVEN.slice(0, 1), "judged");
    out.after_replace = await c.search("new foo", 3);
    return out;
  },

  /** test_get_by_ids and test_get_by_ids_missing, with missing and repeated ids among present ones. */
  "interface.langchain.get_by_ids": async (c) => {
    const given = [documentOf("foo", 1), documentOf("bar", 2)];
    const out: Record<string, unknown> = { given: docs(given), given_ids: GIVEN.slice(0, 2), missing_ids: MISSING };
    out.ids = await c.add(given, GIVEN.slice(0, 2), "given");
    out.get = await c.get(GIVEN.slice(0, 2));
    out.missing = await c.get(MISSING);
    const mixed = [GIVEN[1]!, MISSING[0]!, GIVEN[0]!, GIVEN[1]!];
    out.mixed_ids = mixed;
    out.mixed = await c.get(mixed);
    return out;
  },

  /** test_add_documents_documents: ids made when none is given, and getByIds of them. */
  "interface.langchain.generated_ids": async (c) => {
    const given = [documentOf("foo", 1), documentOf("bar", 2)];
    const ids = await c.add(given, undefined, "judged");
    return { given: docs(given), ids, get: "ok" in ids ? await c.get(ids.ok as string[]) : notRun };
  },

  /** test_add_documents_with_existing_ids: a Document's id used, one made for a document without, in one batch. */
  "interface.langchain.document_ids": async (c) => {
    const given = [documentOf("foo", 1, GIVEN[0]), documentOf("bar", 2)];
    const ids = await c.add(given, undefined, "judged");
    return { given: docs(given), ids, get: "ok" in ids ? await c.get(ids.ok as string[]) : notRun };
  },

  /** The standard tests' own ids, "1" and "2": kept, read back by getByIds, the search and after delete. */
  "interface.langchain.string_ids": async (c) => {
    const given = [documentOf("foo", 1), documentOf("bar", 2)];
    const out: Record<string, unknown> = { given: docs(given), given_ids: STRING_IDS, ids: await c.add(given, STRING_IDS, "given") };
    out.get = await c.get(STRING_IDS);
    out.search = await c.search("bar", 2);
    out.delete = await c.delete(STRING_IDS.slice(0, 1));
    out.after_delete = await c.search("foo", 2);
    return out;
  },

  /** similaritySearch and similaritySearchWithScore agree. */
  "interface.langchain.search_with_score": async (c) => {
    const given = ["foo", "bar", "baz", "foo bar"].map((t, i) => documentOf(t, i + 1));
    const out: Record<string, unknown> = { given: docs(given), ids: await c.add(given, undefined, "unread") };
    out.search = await c.search("foo", 4);
    out.scored = await c.searchWithScore("foo", 4);
    return out;
  },
};

/**
 * The observation of `check`'s scenario on `store` (fresh and empty):
 * `{ not_implemented }` for the sync path, which LangChain.js has not,
 * and for a path the store lacks a method of. An unknown check is a
 * `backend` DriverError naming the known ones.
 */
export function langchainScenario(store: InterfaceVectorStore, check: string, useAsync: boolean): Promise<Record<string, unknown>> {
  return observe(LANGCHAIN_SCENARIOS, LANGCHAIN_INTERFACE, check, useAsync, SYNC, () => new VectorStoreCalls(store));
}
