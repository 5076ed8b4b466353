/**
 * The scenarios of the interface family for a LangChain.js `VectorStore`
 * (docs/protocol.md, "The interface op"; docs/adapters.md, "The interface
 * family"), the same as the Python adapter's
 * (`tinymemory.adapters.langchain_interface`), run with the inputs the
 * suite sends (documents, ids, queries: docs/protocol.md gives each
 * check's) and echoing them, so the suite judges both by one rule.
 *
 * LangChain.js's VectorStore is async only: the sync path answers
 * `{ not_implemented }` and each scenario runs on the async path through
 * `addDocuments`, `similaritySearch`, `similaritySearchWithScore`,
 * `getByIds` and `delete({ ids })`. Where LangChain.js promises less than
 * Python's LangChain, the path is not judged, naming why: `addDocuments`
 * "resolves to an array of document IDs or void, depending on
 * implementation" (@langchain/core's VectorStore), so a store resolving
 * to void cannot be held to the ids it makes or keeps (where the scenario
 * gave ids and judges the documents by them, `delete`, `delete_missing`,
 * `empty_store`, `get_by_ids` and `string_ids`, the ids given stand for
 * the ones used), nor to an upsert by id, which
 * LangChain.js states nowhere; VectorStore has no `getByIds`, so a store
 * without one is not asked; VectorStore's default `delete` throws "Not
 * implemented." (MemoryVectorStore keeps it).
 *
 * A document is observed as `{ id, page_content, metadata }`, a call as
 * `{ ok }` or `{ error: "Type: message" }`.
 */

import type { DocumentLike, VectorStoreLike } from "./langchain.js";
import { type Inputs, type Observed, PathNotImplemented, errorText, jsonOf, observe } from "./interface-common.js";
import { deletesByIds, parametersOf } from "./source.js";

/** The interface a VectorStoreAdapter declares in hello. */
export const LANGCHAIN_INTERFACE = "langchain.vectorstore";

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
    // A delete that takes no ids (HNSWLib's, Voy's) fails LangChain's
    // standard tests, which no property lets skip their delete tests: the
    // scenario fails it too, saying why its error is not a broken delete.
    if ("error" in r && !deletesByIds(this.store)) {
      const parameters = parametersOf(this.store.delete)?.join(", ") ?? "...";
      return {
        error:
          `${r.error} (the store's delete takes no ids: its source names no \`ids\` parameter (parameters: ${parameters}), so delete({ ids }), ` +
          "the call of LangChain's standard tests test_deleting_documents and test_delete_missing_content, which no property skips, fails on it: the store's limit)",
      };
    }
    return "ok" in r ? { ok: jsonOf(r.ok) } : r;
  }
}

/** The Documents of the inputs' documents (`{ id, page_content, metadata }`). */
function documentsOf(values: Inputs[]): DocumentLike[] {
  return values.map((v) => {
    const doc: DocumentLike = { pageContent: v.page_content, metadata: { ...(v.metadata ?? {}) } };
    if (v.id !== null && v.id !== undefined) doc.id = v.id;
    return doc;
  });
}

/**
 * The Documents of the inputs' documents, each with the id at its place
 * in `ids` as its own `id` too: LangChain.js's VectorStore leaves
 * `addDocuments`' options to the store, and MemoryVectorStore keeps a
 * Document's id but reads no `ids` option.
 */
function documentsWithIds(values: Inputs[], ids: string[]): DocumentLike[] {
  return documentsOf(values).map((doc, i) => (ids[i] === undefined ? doc : { ...doc, id: ids[i] }));
}

const notRun = { error: "not run: add_documents failed" };

/** The scenarios by check id, each the Python scenario of that name, run with the suite's inputs. */
export const LANGCHAIN_SCENARIOS: Record<string, (c: VectorStoreCalls, i: Inputs) => Promise<Record<string, unknown>>> = {
  /** test_vectorstore_is_empty: a fresh store finds nothing; then the document added with its id is found by its text. */
  "interface.langchain.empty_store": async (c, i) => {
    const ids: string[] = i.given_ids;
    const out: Record<string, unknown> = { given: i.given, given_ids: ids, queries: i.queries };
    out.search = await c.search(i.queries.search, 1);
    out.ids = await c.add(documentsWithIds(i.given, ids), ids, "given");
    out.after_add = await c.search(i.queries.after_add, 1);
    return out;
  },

  /** test_add_documents: ids made, the documents found with them, the input left as it was. */
  "interface.langchain.add_documents": async (c, i) => {
    const given = documentsOf(i.given);
    const before = docs(given);
    const ids = await c.add(given, undefined, "judged");
    return { given: before, ids, input_after: docs(given), search: await c.search(i.queries.search, 2) };
  },

  /** test_deleting_documents and test_deleting_bulk_documents. */
  "interface.langchain.delete": async (c, i) => {
    const given = documentsOf(i.given);
    const ids: string[] = i.given_ids;
    const out: Record<string, unknown> = { given: i.given, given_ids: ids, ids: await c.add(given, ids, "given") };
    out.delete_one = await c.delete(ids.slice(0, 1));
    out.after_one = await c.search(i.queries.after_one, 3);
    out.delete_bulk = await c.delete(ids.slice(1));
    out.after_bulk = await c.search(i.queries.after_bulk, 3);
    return out;
  },

  /** test_delete_missing_content: deleting ids the store does not hold; then a document added is found, deleted with the missing ids, and found no more. */
  "interface.langchain.delete_missing": async (c, i) => {
    const missing: string[] = i.missing_ids;
    const ids: string[] = i.given_ids;
    const out: Record<string, unknown> = { missing_ids: missing, given: i.given, given_ids: ids, queries: i.queries };
    out.delete_one = await c.delete(missing.slice(0, 1));
    out.delete_many = await c.delete(missing);
    out.ids = await c.add(documentsWithIds(i.given, ids), ids, "given");
    out.before = await c.search(i.queries.before, 1);
    out.delete_mixed = await c.delete([...ids, ...missing]);
    out.after = await c.search(i.queries.after, 1);
    return out;
  },

  /** test_add_documents_with_ids_is_idempotent and test_add_documents_by_id_with_mutation: the replacement over the first id. */
  "interface.langchain.upsert": async (c, i) => {
    const given = documentsOf(i.given);
    const ids: string[] = i.given_ids;
    const replacement = documentsOf(i.replacement);
    const out: Record<string, unknown> = { given: i.given, given_ids: ids, replacement: i.replacement };
    out.first = await c.add(given, ids, "judged");
    out.second = await c.add(given, ids, "judged");
    out.after_twice = await c.search(i.queries.after_twice, 3);
    out.third = await c.add(replacement, ids.slice(0, 1), "judged");
    out.after_replace = await c.search(i.queries.after_replace, 3);
    return out;
  },

  /** test_get_by_ids and test_get_by_ids_missing, with missing and repeated ids among present ones. */
  "interface.langchain.get_by_ids": async (c, i) => {
    const given = documentsOf(i.given);
    const ids: string[] = i.given_ids;
    const out: Record<string, unknown> = { given: i.given, given_ids: ids, missing_ids: i.missing_ids };
    out.ids = await c.add(given, ids, "given");
    out.get = await c.get(ids);
    out.missing = await c.get(i.missing_ids);
    out.mixed_ids = i.mixed_ids;
    out.mixed = await c.get(i.mixed_ids);
    return out;
  },

  /** test_add_documents_documents: ids made when none is given, and getByIds of them. */
  "interface.langchain.generated_ids": async (c, i) => {
    const given = documentsOf(i.given);
    const ids = await c.add(given, undefined, "judged");
    return { given: i.given, ids, get: "ok" in ids ? await c.get(ids.ok as string[]) : notRun };
  },

  /** test_add_documents_with_existing_ids: a Document's id used, one made for a document without, in one batch. */
  "interface.langchain.document_ids": async (c, i) => {
    const given = documentsOf(i.given);
    const ids = await c.add(given, undefined, "judged");
    return { given: i.given, ids, get: "ok" in ids ? await c.get(ids.ok as string[]) : notRun };
  },

  /** The standard tests' kind of ids, plain strings ("7", "42"): kept, read back by getByIds, the search and after delete. */
  "interface.langchain.string_ids": async (c, i) => {
    const given = documentsOf(i.given);
    const ids: string[] = i.given_ids;
    const out: Record<string, unknown> = { given: i.given, given_ids: ids, ids: await c.add(given, ids, "given") };
    out.get = await c.get(ids);
    out.search = await c.search(i.queries.search, 2);
    out.delete = await c.delete(ids.slice(0, 1));
    out.after_delete = await c.search(i.queries.after_delete, 2);
    return out;
  },

  /** similaritySearch and similaritySearchWithScore agree. */
  "interface.langchain.search_with_score": async (c, i) => {
    const given = documentsOf(i.given);
    const out: Record<string, unknown> = { given: i.given, ids: await c.add(given, undefined, "unread") };
    out.search = await c.search(i.queries.search, 4);
    out.scored = await c.searchWithScore(i.queries.scored, 4);
    return out;
  },
};

/**
 * The observation of `check`'s scenario on `store` (fresh and empty),
 * run with the suite's `inputs`:
 * `{ not_implemented }` for the sync path, which LangChain.js has not,
 * and for a path the store lacks a method of. An unknown check is a
 * `backend` DriverError naming the known ones.
 */
export function langchainScenario(
  store: InterfaceVectorStore,
  check: string,
  useAsync: boolean,
  inputs: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return observe(LANGCHAIN_SCENARIOS, LANGCHAIN_INTERFACE, check, useAsync, inputs, SYNC, () => new VectorStoreCalls(store));
}
