/**
 * `tinymemory-serve MODULE[#EXPORT]`: serves the store a module's export
 * makes over the exec protocol, so a store needs no main block of its own.
 *
 *     tinymemory-conformance run --driver "exec:npx tinymemory-serve ./my-store.js"
 *
 * MODULE is a file path (relative to the working directory) or a package
 * name; EXPORT names the export (default: `default`). The export is a
 * class (constructed with no argument), a function returning a store or a
 * promise of one, or a store object itself. The driver id in `hello` is
 * the store's `driverId`, else the spec as given.
 *
 * What goes wrong before the first request is one `tinymemory-serve: ...`
 * line on stderr and a named exit code: 2 for a bad argument or a module
 * or export that does not load, 3 for a factory that throws or makes
 * something that is not a store. The suite shows that stderr with the
 * exit status.
 */

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Store } from "./protocol/types.js";
import { profileOf, serve } from "./protocol/serve.js";

/** Exit codes, as the suite's CLI uses them: usage, and "cannot open the driver". */
export const EXIT_USAGE = 2;
export const EXIT_OPEN = 3;

/** The methods every store has. */
export const REQUIRED_METHODS = ["reset", "store", "get", "forget", "list", "namespaces", "recall"] as const;

const USAGE = "usage: tinymemory-serve MODULE[#EXPORT]   (for example ./my-store.js or ./my-store.js#MyStore)";

/** A spec that cannot be loaded or made into a store; `code` is the exit code. */
export class FactoryError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Splits `MODULE[#EXPORT]` at its last `#` (a path may hold one earlier only if it is followed by a /). */
export function parseSpec(spec: string): { module: string; exportName: string } {
  const hash = spec.lastIndexOf("#");
  if (hash > 0 && !spec.slice(hash + 1).includes("/")) {
    return { module: spec.slice(0, hash), exportName: spec.slice(hash + 1) || "default" };
  }
  return { module: spec, exportName: "default" };
}

function moduleUrl(module: string, cwd: string): string {
  const looksLikePath = module.startsWith(".") || isAbsolute(module) || existsSync(join(cwd, module));
  if (looksLikePath) return pathToFileURL(resolve(cwd, module)).href;
  // A package name, resolved from the working directory as the store's project sees it.
  return pathToFileURL(createRequire(join(cwd, "noop.js")).resolve(module)).href;
}

const isClass = (f: Function) => /^class[\s{]/.test(Function.prototype.toString.call(f));

/**
 * The store `spec` names, made. Throws FactoryError: EXIT_USAGE for a
 * module that does not load or lacks the export, EXIT_OPEN for a factory
 * that throws or a value missing a method of Store.
 */
export async function makeStore(spec: string, cwd = process.cwd()): Promise<Store> {
  const { module, exportName } = parseSpec(spec);
  if (module === "") throw new FactoryError(EXIT_USAGE, `driver ${JSON.stringify(spec)} names no module; ${USAGE}`);
  let loaded: Record<string, unknown>;
  try {
    loaded = await import(moduleUrl(module, cwd));
  } catch (e) {
    // The module itself not found says all in one line; anything else
    // thrown while importing (its own imports, a syntax error) has a stack worth reading.
    const missingItself = (e as NodeJS.ErrnoException)?.code === "ERR_MODULE_NOT_FOUND" && String((e as Error).message).includes(resolve(cwd, module));
    if (!missingItself) process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
    throw new FactoryError(EXIT_USAGE, `failed to import ${JSON.stringify(module)} of ${JSON.stringify(spec)} (from ${cwd}): ${(e as Error)?.message ?? e}`);
  }
  if (!(exportName in loaded)) {
    const names = Object.keys(loaded).join(", ") || "none";
    throw new FactoryError(
      EXIT_USAGE,
      `${JSON.stringify(module)} has no export ${JSON.stringify(exportName)} (its exports: ${names}); name one with ${module}#NAME`,
    );
  }
  const target = loaded[exportName];
  let store: unknown;
  try {
    if (typeof target === "function") store = isClass(target) ? new (target as new () => unknown)() : await (target as () => unknown)();
    else store = await target;
  } catch (e) {
    process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
    throw new FactoryError(EXIT_OPEN, `the factory ${JSON.stringify(spec)} threw ${(e as Error)?.name ?? typeof e}: ${(e as Error)?.message ?? e}`);
  }
  const missing = REQUIRED_METHODS.filter((m) => typeof (store as Record<string, unknown> | null)?.[m] !== "function");
  if (missing.length > 0) {
    throw new FactoryError(
      EXIT_OPEN,
      `the export ${JSON.stringify(exportName)} of ${JSON.stringify(module)} made ${store === null ? "null" : typeof store}, ` +
        `which lacks ${missing.join(", ")}: a store has the methods of the Store interface (tinymemory-conformance/protocol)`,
    );
  }
  return store as Store;
}

/** Serves the store of argv[0] until stdin ends; resolves to the exit code. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  if (argv.length !== 1 || argv[0] === "-h" || argv[0] === "--help") {
    process.stderr.write(USAGE + "\n");
    return argv[0] === "-h" || argv[0] === "--help" ? 0 : EXIT_USAGE;
  }
  const spec = argv[0] as string;
  let store: Store;
  try {
    store = await makeStore(spec);
    profileOf(store);
  } catch (e) {
    process.stderr.write(`tinymemory-serve: ${e instanceof FactoryError ? e.message : `${spec}: ${(e as Error).message}`}\n`);
    return e instanceof FactoryError ? e.code : EXIT_OPEN;
  }
  await serve(store, { driverId: store.driverId ?? spec });
  return 0;
}
