/**
 * The messages of the tinymemory exec protocol, version 1, as TypeScript
 * types: every request the suite sends and every answer a driver gives
 * (docs/protocol.md, "Requests" and "Answers"; the JSON Schemas in
 * fixtures/protocol/ are the same shapes). Field names are the wire's
 * (`session_id`, `min_score`, `next_cursor`), so a value can go to the
 * wire unchanged; `null` stands for an absent value, never `undefined`.
 */

/** The protocol version this library speaks. */
export const PROTOCOL_VERSION = 1;

/** A recall profile (docs/profiles.md): a full-text engine, or any ranking engine. */
export type RecallProfile = "lexical" | "semantic";

/**
 * A category in its text form: `core`, `daily`, `conversation` or
 * `custom:<text>`. Stored and compared as given.
 */
export type Category = "core" | "daily" | "conversation" | `custom:${string}` | (string & {});

/** Where an entry came from: `internal` (written by the host) or `external_sync`. */
export type Taint = "internal" | "external_sync";

/** The kind of an error answer: the `MemoryError` variant the suite returns to the check. */
export type ErrorKind = "invalid" | "unavailable" | "backend";

/** The optional ops a driver may provide, listed in `hello`'s `ops`. */
export type OptionalOp = "store_many" | "export_page" | "import";

/**
 * An entry as the wire carries it, every field present. `id` is the
 * driver's own (any string); `timestamp` is RFC 3339; `score` is `null`
 * outside `recall`, and in `recall` a finite number, higher is better, or
 * `null` for a driver that does not score.
 */
export interface Entry {
  id: string;
  key: string;
  content: string;
  namespace: string;
  category: Category;
  timestamp: string;
  session_id: string | null;
  score: number | null;
  taint: Taint;
}

/** What `store` and each entry of `store_many` carry: an entry before the driver stamps it. */
export interface NewEntry {
  namespace: string;
  key: string;
  content: string;
  category: Category;
  session_id: string | null;
  taint: Taint;
}

/** An entry without `id` and `score`: what `export_page` gives and `import` takes. */
export interface MemoryRecord extends NewEntry {
  timestamp: string;
}

/** One element of `namespaces()`: an exact count and the newest timestamp by instant (or `null`). */
export interface NamespaceSummary {
  namespace: string;
  count: number;
  last_updated: string | null;
}

/** An error as an error answer (and an import failure) carries it; `rule` is required for `invalid`. */
export interface WireError {
  kind: ErrorKind;
  message: string;
  rule?: string;
}

/** `hello`'s answer. */
export interface Hello {
  protocol: number;
  driver: string;
  recall_profile?: RecallProfile;
  ops?: OptionalOp[];
  independent_stores?: boolean;
  /** The framework interface the driver is an adapter over (docs/protocol.md, "The interface op"); absent: none. */
  interface?: string;
}

/** `get` and `forget`: one identity. */
export interface KeyRequest {
  namespace: string;
  key: string;
}

/** `list`: `namespace` `null` means every namespace; `null` filters keep everything. */
export interface ListRequest {
  namespace: string | null;
  category: Category | null;
  session_id: string | null;
}

/**
 * `recall`: at most `limit` hits of ONE namespace (`null` means `global`),
 * best first. `limit` is a non-negative integer up to 2^64 - 1, which a
 * JavaScript number carries rounded above 2^53 (still "every hit").
 * `min_score` is finite or `null`.
 */
export interface RecallRequest {
  query: string;
  limit: number;
  namespace: string | null;
  category: Category | null;
  session_id: string | null;
  min_score: number | null;
}

/** `store_many`: every entry, in order, all or nothing. */
export interface StoreManyRequest {
  entries: NewEntry[];
}

/** `export_page`: at most `limit` records after `cursor` (`null`: the start). */
export interface ExportPageRequest {
  cursor: string | null;
  limit: number;
}

/** `export_page`'s answer: `next_cursor` is `null` exactly when no record follows the page. */
export interface ExportPage {
  records: MemoryRecord[];
  next_cursor: string | null;
}

/** `import`: records to upsert, each standing alone. */
export interface ImportRequest {
  records: MemoryRecord[];
}

/** One refused record of an import: its index in the request, its identity and the error. */
export interface ImportFailure {
  index: number;
  namespace: string;
  key: string;
  error: WireError;
}

/** `import`'s answer: `imported` plus the failures is the number of records sent. */
export interface ImportAnswer {
  imported: number;
  failures: ImportFailure[];
}

/** Every request the suite sends, by `op`. Every field is always present. */
export type Request =
  | { id: number; op: "hello"; protocol: number }
  | { id: number; op: "reset" }
  | ({ id: number; op: "store" } & NewEntry)
  | ({ id: number; op: "get" } & KeyRequest)
  | ({ id: number; op: "forget" } & KeyRequest)
  | ({ id: number; op: "list" } & ListRequest)
  | { id: number; op: "namespaces" }
  | ({ id: number; op: "recall" } & RecallRequest)
  | ({ id: number; op: "store_many" } & StoreManyRequest)
  | ({ id: number; op: "export_page" } & ExportPageRequest)
  | ({ id: number; op: "import" } & ImportRequest)
  | { id: number; op: "interface"; check: string; async: boolean; inputs?: unknown };

/** An answer line: a result or an error, for the request's `id`. */
export type Answer = { id: number | null; result: unknown } | { id: number | null; error: WireError };

/** A value or a promise of it: every store method may be async. */
export type Awaitable<T> = T | Promise<T>;

/**
 * The store `serve` drives: the seven required methods and, optionally,
 * the three optional ops (a store that has `storeMany`, `exportPage` or
 * `importRecords` provides `store_many`, `export_page` or `import`, and
 * `hello` lists it). Each method gets the request's fields exactly as the
 * suite sent them (unvalidated: refusing an invalid namespace or key is
 * the store's job) and returns the result in wire form, or throws a
 * `DriverError`; anything else thrown becomes a `backend` error answer
 * with its stack on stderr.
 */
export interface Store {
  /** The profile to declare: `lexical` (the default) or `semantic`. */
  readonly recallProfile?: RecallProfile;
  /** The driver id reports name it by; default: the module spec served. */
  readonly driverId?: string;
  /**
   * True when two processes of the driver are two stores (each its own
   * data), so `run --jobs N` may run checks at once. Leave it unset for a
   * store over one shared database.
   */
  readonly independentStores?: boolean;
  /**
   * The framework interface the store is an adapter over
   * ("langchain.vectorstore", "langgraph.basestore"), declared in hello
   * when the store has `interface` too (docs/protocol.md, "The interface
   * op").
   */
  readonly interfaceName?: string;
  /**
   * The observation of the interface family's scenario `check`, through
   * the interface's async methods when `useAsync`, on the store the suite
   * has just reset: an object, judged by the suite.
   */
  interface?(check: string, useAsync: boolean, inputs: Record<string, unknown>): Awaitable<Record<string, unknown>>;
  /** Empty the store (before every check). */
  reset(): Awaitable<void>;
  /** Upsert on (namespace, key), stamped with the time of the call. */
  store(request: NewEntry): Awaitable<void>;
  /** The entry (`score` null) or `null`. */
  get(request: KeyRequest): Awaitable<Entry | null>;
  /** True when an entry was removed. */
  forget(request: KeyRequest): Awaitable<boolean>;
  /** Entries passing every filter given, ordered by (namespace, key) bytewise. */
  list(request: ListRequest): Awaitable<Entry[]>;
  /** Every non-empty namespace once, with its exact count, any order. */
  namespaces(): Awaitable<NamespaceSummary[]>;
  /** At most `limit` entries of one namespace, best first, each with its namespace and a finite score. */
  recall(request: RecallRequest): Awaitable<Entry[]>;
  /** Optional: store every entry in order, all or nothing (validate them all first: `validateEntries`). */
  storeMany?(request: StoreManyRequest): Awaitable<void>;
  /** Optional: one export page (`pageAfter` does the paging). */
  exportPage?(request: ExportPageRequest): Awaitable<ExportPage>;
  /** Optional: upsert each valid record keeping its timestamp and taint; report the others. */
  importRecords?(request: ImportRequest): Awaitable<ImportAnswer>;
  /** Optional: called once when stdin ends or on SIGTERM, to remove files or close an engine. */
  close?(): Awaitable<void>;
}
