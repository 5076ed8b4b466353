/**
 * The driver side of the tinymemory exec protocol, version 1
 * (docs/protocol.md): the wire's types, `serve(store)` over stdin and
 * stdout, and the helpers a driver needs to answer as the contract wants:
 * namespace and key validation with the contract's rule ids, the
 * contract's words, bytewise order, timestamps by instant, export cursors
 * and paging, batch validation. The Python library
 * (python/tinymemory/protocol.py) gives the same answers on the same
 * inputs: fixtures/protocol-cases.json holds both to one table.
 */

export * from "./types.js";
export { DriverError, invalid, inBatch } from "./errors.js";
export {
  GLOBAL_NAMESPACE,
  MAX_KEY_LEN,
  MAX_NAMESPACE_LEN,
  utf8Length,
  validateEntries,
  validateKey,
  validateMinScore,
  validateNamespace,
  validateRecord,
} from "./validate.js";
export { splitWords, words, isBlank } from "./words.js";
export {
  compareTimestamps,
  isRfc3339,
  latestTimestamp,
  nowRfc3339,
  timestampKey,
  type TimestampKey,
} from "./time.js";
export { compareBytes, comparePositions, sortBytewise, type Position } from "./order.js";
export { CURSOR_PREFIX, decodeCursor, encodeCursor, fnv1a64, pageAfter } from "./cursor.js";
export { checkScores, entry, importFailure, record, type EntryFields } from "./wire.js";
export {
  OPTIONAL_OPS,
  RECALL_PROFILES,
  encodeAnswer,
  handle,
  interfaceOf,
  opsOf,
  profileOf,
  serve,
  type ServeOptions,
  type ServeStreams,
} from "./serve.js";
export { shorten } from "./quote.js";
