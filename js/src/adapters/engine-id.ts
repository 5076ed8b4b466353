/**
 * The driver id of an adapter over an engine, in the form the
 * compatibility matrix reads the package and version back from
 * (`python -m tinymemory.matrix`, docs/compatibility.md):
 * `PACKAGE==VERSION WHAT via tinymemory.adapters.ADAPTER`, the form the
 * Python adapters write (tinymemory.adapters._common.engine_id). The
 * JavaScript adapters' names end in ".js" (`langchain.js`,
 * `langgraph.js`) where a Python adapter of the same framework exists, so
 * the matrix's "through" column tells the two languages apart.
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The version of the npm package `name` as Node would resolve it from
 * `from` (a directory; default the working directory, then this
 * package's own directory): the `version` of the first
 * `node_modules/NAME/package.json` found walking up, or "unknown". Read
 * from the file, not imported: a package's `exports` may hide its
 * package.json.
 */
export function packageVersion(name: string, from: string = process.cwd()): string {
  for (const start of [from, dirname(fileURLToPath(import.meta.url))]) {
    for (let dir = start; ; dir = dirname(dir)) {
      const manifest = join(dir, "node_modules", name, "package.json");
      if (existsSync(manifest)) {
        const version = (JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown }).version;
        return typeof version === "string" ? version : "unknown";
      }
      if (dirname(dir) === dir) break;
    }
  }
  return "unknown";
}

/**
 * `PACKAGE==VERSION WHAT via tinymemory.adapters.ADAPTER`: `what` names
 * the engine (its class, and how it is set up when that matters, such as
 * "PgVector (PostgreSQL 16, pgvector)"), the version is `version` or else
 * the installed one (`packageVersion`).
 */
export function engineId(pkg: string, what: string, adapter: string, version: string = packageVersion(pkg)): string {
  if (/[\s=]/.test(pkg) || pkg === "") throw new RangeError(`package ${JSON.stringify(pkg)} is not an npm package name`);
  if (/\s/.test(version) || version === "") throw new RangeError(`version ${JSON.stringify(version)} holds white space or is empty`);
  return `${pkg}==${version} ${what} via tinymemory.adapters.${adapter}`;
}
