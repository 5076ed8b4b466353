// An in-memory tinymemory store in JavaScript: the twin of
// examples/python/memory_driver.py, short enough to read in one sitting.
//
//     npx tinymemory-conformance run --driver "exec:npx tinymemory-serve ./memory-store.js"
//
// Scoring: the fraction of the query's distinct words present in the
// entry's words, in (0, 1]; entries scoring 0 are not hits. Hits are
// ordered by score descending, then key ascending (bytewise). A score
// depends on the query and the entry only, so no namespace's entries
// change another's (recall.namespace_isolation).
//
// Optional ops: all three. storeMany validates every entry before writing
// any (all or nothing); exportPage pages over the sorted (namespace, key)
// pairs with pageAfter (keyset cursors, checksummed: a cursor this store
// did not issue is refused with export.cursor_unknown); importRecords
// keeps each valid record's timestamp and taint and reports the others.
import {
  DriverError,
  GLOBAL_NAMESPACE,
  compareBytes,
  comparePositions,
  entry,
  importFailure,
  latestTimestamp,
  nowRfc3339,
  pageAfter,
  record,
  sortBytewise,
  validateEntries,
  validateKey,
  validateMinScore,
  validateNamespace,
  validateRecord,
  words,
} from "tinymemory-conformance/protocol";

/** @typedef {import("tinymemory-conformance/protocol").Store} Store */

/** @implements {Store} */
export default class MemoryStore {
  driverId = "js-memory";
  // Each process keeps its entries in its own memory: run --jobs may run
  // checks at once, one process each.
  independentStores = true;

  constructor() {
    /** @type {Map<string, Map<string, import("tinymemory-conformance/protocol").Entry>>} namespace -> key -> entry */
    this.spaces = new Map();
    this.nextId = 1;
  }

  reset() {
    this.spaces = new Map();
  }

  /** Writes one entry as given, its timestamp included. */
  put({ namespace, key, content, category, session_id, taint }, timestamp) {
    let space = this.spaces.get(namespace);
    if (space === undefined) this.spaces.set(namespace, (space = new Map()));
    space.set(key, entry({ id: this.nextId++, namespace, key, content, category, timestamp, session_id, taint }));
  }

  store(request) {
    validateNamespace(request.namespace);
    validateKey(request.key);
    this.put(request, nowRfc3339());
  }

  storeMany({ entries }) {
    validateEntries(entries);
    const timestamp = nowRfc3339();
    for (const e of entries) this.put(e, timestamp);
  }

  exportPage({ cursor, limit }) {
    const positions = [];
    for (const [ns, space] of this.spaces) for (const key of space.keys()) positions.push([ns, key]);
    positions.sort(comparePositions);
    const { page, nextCursor } = pageAfter(positions, cursor, limit);
    const records = page.map(([ns, key]) => record(this.spaces.get(ns).get(key)));
    return { records, next_cursor: nextCursor };
  }

  importRecords({ records }) {
    let imported = 0;
    const failures = [];
    records.forEach((r, index) => {
      try {
        validateRecord(r);
      } catch (error) {
        if (!(error instanceof DriverError)) throw error;
        failures.push(importFailure(index, r, error));
        return;
      }
      this.put(r, r.timestamp);
      imported++;
    });
    return { imported, failures };
  }

  get({ namespace, key }) {
    validateNamespace(namespace);
    validateKey(key);
    const found = this.spaces.get(namespace)?.get(key);
    return found ? { ...found } : null;
  }

  forget({ namespace, key }) {
    validateNamespace(namespace);
    validateKey(key);
    const space = this.spaces.get(namespace);
    if (!space?.delete(key)) return false;
    if (space.size === 0) this.spaces.delete(namespace);
    return true;
  }

  list({ namespace, category, session_id }) {
    if (namespace !== null) validateNamespace(namespace);
    const names = namespace !== null ? [namespace] : sortBytewise(this.spaces.keys());
    const out = [];
    for (const ns of names) {
      const space = this.spaces.get(ns);
      if (!space) continue;
      for (const key of sortBytewise(space.keys())) {
        const e = space.get(key);
        if (matches(e, category, session_id)) out.push({ ...e });
      }
    }
    return out;
  }

  namespaces() {
    return sortBytewise(this.spaces.keys()).map((ns) => {
      const space = this.spaces.get(ns);
      const stamps = Array.from(space.values(), (e) => e.timestamp);
      return { namespace: ns, count: space.size, last_updated: latestTimestamp(stamps) };
    });
  }

  recall({ query, limit, namespace, category, session_id, min_score }) {
    namespace ??= GLOBAL_NAMESPACE;
    validateNamespace(namespace);
    validateMinScore(min_score);
    if (limit === 0) return [];
    const wanted = new Set(words(query));
    if (wanted.size === 0) return [];
    const hits = [];
    for (const e of this.spaces.get(namespace)?.values() ?? []) {
      if (!matches(e, category, session_id)) continue;
      const have = new Set(words(e.content));
      let matched = 0;
      for (const w of wanted) if (have.has(w)) matched++;
      const score = matched / wanted.size;
      if (matched > 0 && (min_score === null || score >= min_score)) hits.push({ ...e, score });
    }
    hits.sort((a, b) => b.score - a.score || compareBytes(a.key, b.key));
    return hits.slice(0, limit);
  }
}

function matches(e, category, sessionId) {
  return (category === null || e.category === category) && (sessionId === null || e.session_id === sessionId);
}
