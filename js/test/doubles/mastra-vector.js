// A small Mastra-shaped vector store (MastraVector's createIndex, upsert,
// query with an equality filter, deleteVector, deleteIndex) for the
// Mastra adapter's tests: exact cosine, ties in insertion order, every
// call recorded in `calls`, and faults of real stores as options:
// `ignoresFilter` (a store that answers outside the filter), `dropsZero`
// (LibSQLVector: a vector whose cosine is undefined, a zero vector, is
// never answered), `ownIds` (ids of its own, returned by upsert), and
// `answers`, the score answered in place of each cosine (a function of
// it: a store answering no score, or not a number), `deleteFails` (a
// deleteVector that throws this message, deleting nothing).
export class DoubleMastraVector {
  constructor({ ignoresFilter = false, dropsZero = false, ownIds = false, answers = (score) => score, deleteFails = null } = {}) {
    this.options = { ignoresFilter, dropsZero, ownIds, answers, deleteFails };
    this.indexes = new Map();
    this.calls = [];
    this.made = 0;
  }

  async createIndex({ indexName, dimension, metric }) {
    this.calls.push(["createIndex", indexName, dimension, metric]);
    this.indexes.set(indexName, new Map());
  }

  async deleteIndex({ indexName }) {
    this.calls.push(["deleteIndex", indexName]);
    this.indexes.delete(indexName);
  }

  async upsert({ indexName, vectors, metadata, ids }) {
    const rows = this.indexes.get(indexName);
    const out = ids.map((id) => (this.options.ownIds ? `own-${++this.made}` : id));
    this.calls.push(["upsert", indexName, out, metadata.map((m) => m.key)]);
    out.forEach((id, i) => rows.set(id, { vector: vectors[i], metadata: structuredClone(metadata[i]) }));
    return out;
  }

  async query({ indexName, queryVector, topK, filter }) {
    this.calls.push(["query", indexName, queryVector, topK, filter]);
    const hits = [];
    for (const [id, row] of this.indexes.get(indexName)) {
      if (!this.options.ignoresFilter && !Object.entries(filter ?? {}).every(([k, v]) => row.metadata[k] === v)) continue;
      const score = cosine(queryVector, row.vector);
      if (this.options.dropsZero && Number.isNaN(score)) continue;
      hits.push({ id, score: Number.isNaN(score) ? 0 : score, metadata: structuredClone(row.metadata) });
    }
    return hits
      .sort((a, b) => b.score - a.score)
      .slice(0, topK)
      .map((h) => ({ ...h, score: this.options.answers(h.score) }));
  }

  async deleteVector({ indexName, id }) {
    this.calls.push(["deleteVector", indexName, id]);
    if (this.options.deleteFails !== null) throw new Error(this.options.deleteFails);
    this.indexes.get(indexName).delete(id);
  }
}

function cosine(a, b) {
  let p = 0;
  let p2 = 0;
  let q2 = 0;
  for (let i = 0; i < a.length; i++) {
    p += a[i] * b[i];
    p2 += a[i] * a[i];
    q2 += b[i] * b[i];
  }
  return p / (Math.sqrt(p2) * Math.sqrt(q2));
}
