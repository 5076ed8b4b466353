/**
 * The request loop: one JSON request per line on stdin, one answer per
 * line on stdout (docs/protocol.md, "Transport"), every request answered.
 */

import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { Answer, Hello, OptionalOp, RecallProfile, Store, WireError } from "./types.js";
import { PROTOCOL_VERSION } from "./types.js";
import { DriverError } from "./errors.js";
import { checkScores } from "./wire.js";

/** The recall profiles a driver may declare. */
export const RECALL_PROFILES: readonly RecallProfile[] = ["lexical", "semantic"];

/** (op, Store method) of each optional op, in protocol order. */
export const OPTIONAL_OPS: readonly (readonly [OptionalOp, keyof Store])[] = [
  ["store_many", "storeMany"],
  ["export_page", "exportPage"],
  ["import", "importRecords"],
];

/** The optional ops `store` provides: those whose method it has. */
export function opsOf(store: Store): OptionalOp[] {
  return OPTIONAL_OPS.filter(([, method]) => typeof store[method] === "function").map(([op]) => op);
}

/**
 * The recall profile to declare: `override` when given, else the store's
 * `recallProfile`, else `lexical`. Throws a TypeError for anything else,
 * so a typo fails at start-up, on stderr, rather than as a refused hello.
 */
export function profileOf(store: Store, override?: RecallProfile | null): RecallProfile {
  const profile = override ?? store.recallProfile ?? "lexical";
  if (!RECALL_PROFILES.includes(profile)) {
    throw new TypeError(`unknown recall profile ${JSON.stringify(profile)}: expected "lexical" or "semantic"`);
  }
  return profile;
}

/** Options of `handle` and `serve`. */
export interface ServeOptions {
  /** The driver id `hello` reports (default: the store's `driverId`, else "js-driver"). */
  driverId?: string;
  /** Overrides the store's `recallProfile`. */
  recallProfile?: RecallProfile;
}

function helloOf(store: Store, options: ServeOptions): Hello {
  const hello: Hello = { protocol: PROTOCOL_VERSION, driver: options.driverId ?? store.driverId ?? "js-driver" };
  const profile = profileOf(store, options.recallProfile);
  // Absent means lexical, which keeps a lexical hello readable by suites older than profiles.
  if (profile !== "lexical") hello.recall_profile = profile;
  const ops = opsOf(store);
  if (ops.length > 0) hello.ops = ops;
  // Absent means false: never parallel by surprise.
  if (store.independentStores === true) hello.independent_stores = true;
  // Absent means none: the interface family is skipped.
  const served = interfaceOf(store);
  if (served !== null) hello.interface = served;
  return hello;
}

/**
 * The framework interface `store` declares in hello: its `interfaceName`
 * when it has an `interface` method to run the scenarios with, else null
 * (docs/protocol.md, "The interface op").
 */
export function interfaceOf(store: Store): string | null {
  return typeof store.interfaceName === "string" && typeof store.interface === "function" ? store.interfaceName : null;
}

async function dispatch(store: Store, r: Record<string, any>, options: ServeOptions): Promise<unknown> {
  switch (r.op) {
    case "hello":
      return helloOf(store, options);
    case "reset":
      await store.reset();
      return null;
    case "store":
      await store.store({
        namespace: r.namespace,
        key: r.key,
        content: r.content,
        category: r.category,
        session_id: r.session_id,
        taint: r.taint,
      });
      return null;
    case "get":
      return (await store.get({ namespace: r.namespace, key: r.key })) ?? null;
    case "forget":
      return await store.forget({ namespace: r.namespace, key: r.key });
    case "list":
      return await store.list({ namespace: r.namespace, category: r.category, session_id: r.session_id });
    case "namespaces":
      return await store.namespaces();
    case "recall": {
      const hits = await store.recall({
        query: r.query,
        limit: r.limit,
        namespace: r.namespace,
        category: r.category,
        session_id: r.session_id,
        min_score: r.min_score,
      });
      checkScores(hits);
      return hits;
    }
    case "store_many":
      if (store.storeMany) {
        await store.storeMany({ entries: r.entries });
        return null;
      }
      break;
    case "export_page":
      if (store.exportPage) return await store.exportPage({ cursor: r.cursor, limit: r.limit });
      break;
    case "import":
      if (store.importRecords) return await store.importRecords({ records: r.records });
      break;
    case "interface":
      if (interfaceOf(store) !== null) {
        const inputs = r.inputs;
        // The suite chooses every scenario's inputs and judges the answer
        // against them: a scenario run on inputs of the adapter's own
        // would be judged against nothing it was sent.
        if (inputs === null || typeof inputs !== "object" || Array.isArray(inputs)) {
          throw new DriverError(
            "backend",
            `the interface request for ${JSON.stringify(r.check)} carries no \`inputs\` object (docs/protocol.md, "The interface op": ` +
              "the suite sends the inputs of every scenario; this adapter needs a suite of its release)",
          );
        }
        const observed = await store.interface!(r.check, r.async === true, inputs as Record<string, unknown>);
        if (observed === null || typeof observed !== "object" || Array.isArray(observed)) {
          throw new DriverError("backend", `the interface scenario of ${JSON.stringify(r.check)} observed ${Array.isArray(observed) ? "an array" : String(observed)}, not an object`);
        }
        return observed;
      }
      break;
  }
  throw new DriverError("backend", `unknown op ${JSON.stringify(r.op)}`);
}

/**
 * The answer object for one decoded request. A DriverError becomes its
 * error answer; anything else thrown becomes a `backend` error naming it,
 * its stack written to stderr (the suite quotes stderr in the report).
 */
export async function handle(store: Store, request: Record<string, any>, options: ServeOptions = {}): Promise<Answer> {
  const id = typeof request?.id === "number" ? request.id : null;
  try {
    return { id, result: await dispatch(store, request, options) };
  } catch (e) {
    if (e instanceof DriverError) return { id, error: e.toWire() };
    process.stderr.write(`${e instanceof Error && e.stack ? e.stack : String(e)}\n`);
    const name = e instanceof Error ? e.name : typeof e;
    const message = e instanceof Error ? e.message : String(e);
    return { id, error: { kind: "backend", message: `${name}: ${message}` } };
  }
}

/** Why `value` cannot go to the wire as it is, naming where it is, or null. */
function unwritable(value: unknown, path: string): string | null {
  if (typeof value === "number") {
    return Number.isFinite(value) ? null : `${path} is ${value}, which JSON cannot carry (JSON.stringify would write null)`;
  }
  if (typeof value === "string") {
    return value.isWellFormed()
      ? null
      : `${path} holds a lone UTF-16 surrogate, which UTF-8 cannot carry (a string cut inside a surrogate pair?)`;
  }
  if (typeof value === "bigint") return `${path} is a BigInt, which JSON cannot carry`;
  if (value === undefined || typeof value === "function" || typeof value === "symbol") {
    return `${path} is ${typeof value}, which JSON cannot carry (JSON.stringify would drop it or write null)`;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const why = unwritable(value[i], `${path}[${i}]`);
      if (why) return why;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return null;
    for (const [k, v] of Object.entries(value)) {
      const why = unwritable(v, `${path}.${k}`);
      if (why) return why;
    }
  }
  return null;
}

/**
 * One answer line (without the newline). A value JSON cannot carry as it
 * is (NaN, an infinity, `undefined`, a BigInt, a lone surrogate) turns the
 * answer into a `backend` error naming where it is, rather than a line
 * `JSON.stringify` has silently changed or a line the suite cannot read.
 */
export function encodeAnswer(answer: Answer): string {
  const why = unwritable(answer, "answer");
  if (why === null) return JSON.stringify(answer);
  const error: WireError = { kind: "backend", message: `failed to encode the answer: ${why}` };
  process.stderr.write(`tinymemory: ${error.message}\n`);
  return JSON.stringify({ id: answer.id, error });
}

/** Where `serve` reads and writes (default: the process's stdin and stdout). */
export interface ServeStreams {
  input?: Readable;
  output?: Writable;
}

/**
 * Answers requests until stdin ends, one at a time (the suite waits for
 * each answer before the next request), then calls the store's `close`.
 * Only answers go to stdout: log to stderr. On SIGTERM (the suite's second
 * step when ending a driver, docs/protocol.md "End") it calls `close` and
 * exits 143, unless the program installed a SIGTERM handler of its own.
 * Throws a TypeError for an unknown recall profile before reading anything.
 */
export async function serve(store: Store, options: ServeOptions & ServeStreams = {}): Promise<void> {
  profileOf(store, options.recallProfile);
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await store.close?.();
  };
  const onTerm = () => {
    void close().finally(() => process.exit(143));
  };
  const ownsSignal = input === process.stdin && process.listenerCount("SIGTERM") === 0;
  if (ownsSignal) process.on("SIGTERM", onTerm);
  try {
    const lines = createInterface({ input, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === "") continue;
      let request: Record<string, any>;
      try {
        request = JSON.parse(line);
      } catch (e) {
        const message = `request line is not JSON (${(e as Error).message}): ${line.slice(0, 200)}`;
        output.write(encodeAnswer({ id: null, error: { kind: "backend", message } }) + "\n");
        continue;
      }
      output.write(encodeAnswer(await handle(store, request, options)) + "\n");
    }
  } finally {
    if (ownsSignal) process.off("SIGTERM", onTerm);
    await close();
  }
}
