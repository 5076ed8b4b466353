/**
 * The contract's input rules (tinymemory-api), so that a driver refuses
 * exactly what every other driver refuses, with the same rule ids
 * (fixtures/protocol-cases.json); the messages are this library's own.
 */

import type { MemoryRecord, NewEntry } from "./types.js";
import { DriverError, inBatch, invalid } from "./errors.js";
import { jsonQuote, shorten } from "./quote.js";
import { isRfc3339 } from "./time.js";

/** The namespace `recall` searches when its `namespace` is `null`. */
export const GLOBAL_NAMESPACE = "global";
/** The longest namespace, in UTF-8 bytes. */
export const MAX_NAMESPACE_LEN = 200;
/** The longest key, in UTF-8 bytes. */
export const MAX_KEY_LEN = 1024;

const NAMESPACE_CHAR = /^[A-Za-z0-9\-_./:@+]$/;
const SECTION_PREFIX = /^[a-z0-9_-]+$/;

/** UTF-8 length of `text` in bytes (a lone surrogate counts 3, as Python's surrogatepass does). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * Throws `invalid(...)` naming the first rule `name` breaks, in the order
 * tinymemory-api checks them: `namespace.empty`; `namespace.too_long`
 * (over 200 UTF-8 bytes); `namespace.charset` (anything but ASCII
 * letters, digits and `- _ . / : @ +`, naming the first such character);
 * `namespace.edge_slash` (a `/` at the start or end of the name or of a
 * part between colons); `namespace.dot_dot_segment` (a `..` segment,
 * segments separated by `/` and `:`); `namespace.scope_empty` (a section
 * prefix `[a-z0-9_-]+` before the first `:` and nothing after it).
 */
export function validateNamespace(name: string): void {
  if (name === "") throw invalid("namespace.empty", "namespace must not be empty");
  const size = utf8Length(name);
  if (size > MAX_NAMESPACE_LEN) {
    throw invalid("namespace.too_long", `namespace is ${size} bytes, the limit is ${MAX_NAMESPACE_LEN}`);
  }
  for (const c of name) {
    if (!NAMESPACE_CHAR.test(c)) {
      throw invalid(
        "namespace.charset",
        `namespace ${jsonQuote(name)} holds ${jsonQuote(c)}; allowed are ASCII letters, digits and - _ . / : @ +`,
      );
    }
  }
  // A colon bounds a path as a slash does: "learning:../x" escapes its scope.
  const parts = name.split(":");
  if (parts.some((p) => p.startsWith("/") || p.endsWith("/"))) {
    throw invalid(
      "namespace.edge_slash",
      `namespace ${jsonQuote(name)} must not start or end with '/', before or after a ':'`,
    );
  }
  if (parts.some((p) => p.split("/").includes(".."))) {
    throw invalid("namespace.dot_dot_segment", `namespace ${jsonQuote(name)} must not contain a '..' path segment`);
  }
  const colon = name.indexOf(":");
  if (colon > 0 && colon === name.length - 1 && SECTION_PREFIX.test(name.slice(0, colon))) {
    throw invalid("namespace.scope_empty", `namespace ${jsonQuote(name)} has section ${jsonQuote(name.slice(0, colon))} but an empty scope`);
  }
}

/** Throws `invalid(...)` for an empty key (`key.empty`) or one over 1024 UTF-8 bytes (`key.too_long`). */
export function validateKey(key: string): void {
  if (key === "") throw invalid("key.empty", "key must not be empty");
  const size = utf8Length(key);
  if (size > MAX_KEY_LEN) throw invalid("key.too_long", `key is ${size} bytes, the limit is ${MAX_KEY_LEN}`);
}

/** Throws `invalid("recall.min_score_not_finite")` for a `min_score` that is not a finite number (`null` is fine). */
export function validateMinScore(minScore: number | null | undefined): void {
  if (minScore !== null && minScore !== undefined && !Number.isFinite(minScore)) {
    throw invalid("recall.min_score_not_finite", `min_score must be finite, got ${String(minScore)}`);
  }
}

/**
 * Checks every entry of a `store_many` batch before anything is written
 * (namespace, then key); throws the first invalid one's error naming its
 * index (`inBatch`). Mirrors tinymemory_api::batch::validate_batch.
 */
export function validateEntries(entries: readonly NewEntry[]): void {
  entries.forEach((e, index) => {
    try {
      validateNamespace(e.namespace);
      validateKey(e.key);
    } catch (error) {
      if (error instanceof DriverError) throw inBatch(error, index, entries.length, e.namespace, e.key);
      throw error;
    }
  });
}

/**
 * Throws `invalid(...)` for a record an import must refuse: its namespace,
 * its key, or a timestamp that is not RFC 3339 (`import.timestamp`), since
 * an import keeps the timestamp byte for byte. Mirrors
 * tinymemory_api::portability::validate_record.
 */
export function validateRecord(record: MemoryRecord): void {
  validateNamespace(record.namespace);
  validateKey(record.key);
  if (!isRfc3339(record.timestamp)) {
    throw invalid("import.timestamp", `timestamp ${shorten(record.timestamp, 60)} is not RFC 3339`);
  }
}
