/** Values in wire form: entries, records, import failures, checked scores. */

import type { Category, Entry, ImportFailure, MemoryRecord, Taint } from "./types.js";
import { DriverError } from "./errors.js";
import { shorten } from "./quote.js";

/** The fields of an entry; `id` may be a number (written as its decimal text), `score` defaults to `null`. */
export interface EntryFields {
  id: string | number;
  namespace: string;
  key: string;
  content: string;
  category: Category;
  timestamp: string;
  session_id: string | null;
  taint: Taint;
  score?: number | null;
}

/** An entry in wire form: every field present, in the protocol's order, `null` for absent values. */
export function entry(fields: EntryFields): Entry {
  return {
    id: String(fields.id),
    key: fields.key,
    content: fields.content,
    namespace: fields.namespace,
    category: fields.category,
    timestamp: fields.timestamp,
    session_id: fields.session_id ?? null,
    score: fields.score ?? null,
    taint: fields.taint,
  };
}

/** A record in wire form, as `export_page` answers it (an entry without `id` and `score`). */
export function record(fields: MemoryRecord): MemoryRecord {
  return {
    namespace: fields.namespace,
    key: fields.key,
    content: fields.content,
    category: fields.category,
    session_id: fields.session_id ?? null,
    taint: fields.taint,
    timestamp: fields.timestamp,
  };
}

/** One element of an import answer's `failures`: the record's index, identity and error. */
export function importFailure(index: number, rec: { namespace: string; key: string }, error: DriverError): ImportFailure {
  return { index, namespace: rec.namespace, key: rec.key, error: error.toWire() };
}

/**
 * Throws a `backend` DriverError naming the first hit of a recall answer
 * whose score is NaN or infinite: the contract wants finite scores, and
 * JSON cannot carry those values (`JSON.stringify` would write `null`,
 * silently turning a broken score into "unscored"). A vector store's
 * cosine of a zero vector (a query with no word, such as "?!") is the
 * usual source. Anything that is not an array of objects is left to the
 * suite to refuse.
 */
export function checkScores(hits: unknown): void {
  if (!Array.isArray(hits)) return;
  hits.forEach((hit, index) => {
    const score = hit !== null && typeof hit === "object" ? (hit as { score?: unknown }).score : undefined;
    if (typeof score === "number" && !Number.isFinite(score)) {
      const h = hit as { namespace?: unknown; key?: unknown };
      throw new DriverError(
        "backend",
        `recall hit ${index} of ${hits.length} (namespace ${shorten(String(h.namespace), 60)}, ` +
          `key ${shorten(String(h.key), 60)}) has score ${String(score)}: scores must be finite ` +
          "numbers, higher is better (a cosine over a zero vector, from a query with no word, is NaN)",
      );
    }
  });
}
