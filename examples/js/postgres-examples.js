// What the two PostgreSQL examples' tests share: each failure's message
// is matched to the cause its store file names, and the store's plain
// reproduction (no tinymemory) must show that cause.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { innerRun } from "./inner-run.js";
import { checkedBinary, listChecks } from "tinymemory-conformance";

/** What a failure of each cause says (a check failing for the store's fault, never a mapping limit). */
const CAUSES = {
  // The protocol library names a NaN hit the adapter passes on (the
  // LangChain.js adapter's); the LangGraph.js adapter names it itself.
  nan: /has score NaN: scores must be finite numbers|with score NaN, not a finite number/,
  nul: /unsupported Unicode escape sequence|invalid byte sequence for encoding "UTF8": 0x00/,
  stripped: /a 1048606 byte content did not come back byte for byte from get \(got 1014780 bytes\)/,
  prefix: /^(?![\s\S]*mapping limit)/,
  // The inputs are drawn from the seed: the two namespaces at max_depth come back, the truncated deeper one does not.
  depth: /list_namespaces\(prefix=\["[^"]+","[^"]+"\], max_depth=3\) over the namespaces of its docstring's example \(.*\) returned \[\["[^\]]*\],\["[^\]]*\]\], where the docs give \[\["[^\]]*\],\["[^\]]*\],\["[^\]]*\]\]/,
};

/** Skips a PostgreSQL test when no server is given. */
export const needsServer = { skip: !process.env.TINYMEMORY_PGVECTOR_URL && "TINYMEMORY_PGVECTOR_URL is unset (a PostgreSQL server with pgvector)" };

/**
 * Runs `conformanceFile` and asserts it fails exactly `expected` ([id, cause] pairs), for those causes, skips the
 * corpus checks and the interface checks outside `served` (the interface family's checks the store is asked), and
 * passes every other check.
 */
export function assertFailures(conformanceFile, expected, served = []) {
  const { passed, failed, skipped, stderr } = innerRun(conformanceFile);
  assert.deepEqual([...failed.keys()], expected.map(([id]) => id), stderr);
  for (const [id, cause] of expected) assert.match(failed.get(id), CAUSES[cause], `${id} fails for another cause than ${cause}`);
  const semantic = listChecks(checkedBinary(), "semantic");
  // Skipped: the corpus checks (no corpus) and the interface checks the store is not asked.
  const corpus = semantic.filter((c) => c.family === "corpus" || (c.needsInterface && !served.includes(c.id))).map((c) => c.id);
  assert.deepEqual(skipped, corpus);
  assert.deepEqual(passed, semantic.map((c) => c.id).filter((id) => !corpus.includes(id) && !failed.has(id)));
}

/** Runs a reproduction script: it asserts each fault, so it exits 0 while they are there. */
export function assertReproduces(script) {
  const done = spawnSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], { encoding: "utf8" });
  assert.equal(done.status, 0, done.stdout + done.stderr);
  return done.stdout;
}
