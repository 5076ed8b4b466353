// A small LangChain.js-shaped VectorStore for the adapter's tests: exact
// cosine over HashedEmbeddings, ties in insertion order, and the faults of
// real stores as options: `stripNul` (PGVectorStore's addVectors removes
// U+0000 from pageContent; `"metadata"` strips it from metadata strings
// too), `ignoresFilter` (a store that takes no filter of this form),
// `ownIds` (LibSQL ignores the ids given and returns its own),
// `functionFilter` (MemoryVectorStore's filter form, `_vectorstoreType`
// "memory"), `noDelete` (VectorStore's default delete; MemoryVectorStore
// then appends a document of a known id), `filterAfterTopK`
// (LibSQLVectorStore: `vector_top_k` over every row, then the filter),
// `deleteAllOnly` (VoyVectorStore's delete, which takes only `deleteAll`),
// `deleteFails` (a delete by ids that throws this message),
// `noFilterParameter` (VoyVectorStore: `similaritySearchVectorWithScore(
// query, k)` takes no filter, so every search ignores it), `scores`
// (what the search answers as the score: "similarity", the cosine, by
// default; "distance", 1 - cosine, as LibSQLVectorStore's
// `vector_distance_cos` and Chroma's cosine space; "rank", the hit's
// place from 0, as VoyVectorStore's), `dropsIds` (CloseVectorNode: the
// filter and the answer get a document of pageContent and metadata only).
// Otherwise an id added twice is
// refused, as PGVectorStore's primary key does.
import { HashedEmbeddings } from "../../dist/adapters/embedding.js";

const embeddings = new HashedEmbeddings();

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

// VoyVectorStore's delete (@langchain/community 1.1.29), its source
// naming no other parameter.
async function deleteAll(params) {
  this.calls.push(["delete", params]);
  if (params.deleteAll === true) this.rows = [];
  else throw new Error('You must provide a "deleteAll" parameter.');
}

// VoyVectorStore's vector search, whose parameters hold no filter.
async function searchWithoutFilter(query, k) {
  return this.rows
    .map((r) => [{ id: r.id, pageContent: r.pageContent, metadata: structuredClone(r.metadata) }, cosine(query, r.vector)])
    .sort((a, b) => b[1] - a[1])
    .slice(0, k);
}

const strip = (s) => (typeof s === "string" ? s.replaceAll("\0", "") : s);

export class DoubleVectorStore {
  constructor({ stripNul = false, ignoresFilter = false, ownIds = false, functionFilter = false, noDelete = false, filterAfterTopK = false, deleteAllOnly = false, deleteFails = null, noFilterParameter = false, scores = "similarity", dropsIds = false } = {}) {
    Object.assign(this, { stripNul, ignoresFilter: ignoresFilter || noFilterParameter, ownIds, functionFilter, noDelete, filterAfterTopK, deleteFails, scores, dropsIds });
    if (noFilterParameter) this.similaritySearchVectorWithScore = searchWithoutFilter;
    if (deleteAllOnly) this.delete = deleteAll;
    this.rows = [];
    this.calls = [];
    this.made = 0;
  }

  _vectorstoreType() {
    return this.functionFilter ? "memory" : "double";
  }

  async addDocuments(documents, options = {}) {
    this.calls.push(["addDocuments", documents.map((d) => d.id), options.ids]);
    const ids = [];
    for (const [i, d] of documents.entries()) {
      // A document given no id gets one made, as every store makes one.
      const id = this.ownIds ? `own-${++this.made}` : (options.ids?.[i] ?? d.id ?? `made-${++this.made}`);
      if (!this.ownIds && !this.noDelete && this.rows.some((r) => r.id === id)) throw new Error(`duplicate key value violates unique constraint: id ${id}`);
      let metadata = structuredClone(d.metadata);
      if (this.stripNul === "metadata") metadata = Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, strip(v)]));
      const pageContent = this.stripNul ? strip(d.pageContent) : d.pageContent;
      this.rows.push({ id, pageContent, metadata, vector: embeddings.embed(pageContent) });
      ids.push(id);
    }
    return ids;
  }

  async delete({ ids }) {
    this.calls.push(["delete", ids]);
    if (this.noDelete) throw new Error("Not implemented.");
    if (this.deleteFails !== null) throw new Error(this.deleteFails);
    this.rows = this.rows.filter((r) => !ids.includes(r.id));
  }

  matches(filter, row) {
    if (filter === undefined || this.ignoresFilter) return true;
    const doc = this.dropsIds ? { pageContent: row.pageContent, metadata: row.metadata } : { id: row.id, pageContent: row.pageContent, metadata: row.metadata };
    if (this.functionFilter) return filter(doc);
    return Object.entries(filter).every(([k, v]) => row.metadata[k] === v);
  }

  async similaritySearchWithScore(query, k = 4, filter) {
    this.calls.push(["similaritySearchWithScore", query, k]);
    const q = embeddings.embed(query);
    if (this.similaritySearchVectorWithScore) return this.similaritySearchVectorWithScore(q, k, filter);
    const ranked = this.rows
      .map((r) => [r, cosine(q, r.vector)])
      .sort((a, b) => b[1] - a[1]);
    const kept = this.filterAfterTopK
      ? ranked.slice(0, k).filter(([r]) => this.matches(filter, r))
      : ranked.filter(([r]) => this.matches(filter, r)).slice(0, k);
    const answered = (score, place) => (this.scores === "distance" ? 1 - score : this.scores === "rank" ? place : score);
    return kept.map(([r, score], place) => [
      this.dropsIds ? { pageContent: r.pageContent, metadata: structuredClone(r.metadata) } : { id: r.id, pageContent: r.pageContent, metadata: structuredClone(r.metadata) },
      answered(score, place),
    ]);
  }
}

// Exports for `tinymemory-serve` (the conformance runs of adapters.test.js).
import { VectorStoreAdapter } from "../../dist/adapters/langchain.js";

export const stripsNul = () => new VectorStoreAdapter(() => new DoubleVectorStore({ stripNul: true }), { independentStores: true });
export const stripsNulFromMetadata = () => new VectorStoreAdapter(() => new DoubleVectorStore({ stripNul: "metadata" }), { independentStores: true });
export const plain = () => new VectorStoreAdapter(() => new DoubleVectorStore(), { independentStores: true });
export const filtersAfterTopK = () => new VectorStoreAdapter(() => new DoubleVectorStore({ filterAfterTopK: true }), { independentStores: true });
export const distances = () => new VectorStoreAdapter(() => new DoubleVectorStore({ scores: "distance" }), { independentStores: true });
export const distancesDeclared = () => new VectorStoreAdapter(() => new DoubleVectorStore({ scores: "distance" }), { independentStores: true, score: "distance" });
