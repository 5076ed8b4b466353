// Runs a conformance file under `node --test` in a process of its own
// (node:test's run() refuses to run inside a test file) and gives each
// check's outcome, read through json-reporter.js. For the example tests
// that assert which checks a store fails.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));

/**
 * The outcomes of the checks of `file` (a path relative to this
 * directory): `{ passed: [id], failed: Map(id -> message), skipped: [id],
 * status }`, in run order. The inner run uses the suite's default seed and
 * cases whatever the environment says, so the failures it finds are the
 * documented ones.
 */
export function innerRun(file) {
  const env = { ...process.env };
  // This process is a test runner's child; the inner run is a runner of its own.
  delete env.NODE_TEST_CONTEXT;
  delete env.TINYMEMORY_SEED;
  delete env.TINYMEMORY_CASES;
  const done = spawnSync(process.execPath, ["--test", `--test-reporter=${here("./json-reporter.js")}`, here(file)], {
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const passed = [];
  const failed = new Map();
  const skipped = [];
  for (const line of done.stdout.split("\n").filter(Boolean)) {
    const e = JSON.parse(line);
    if (e.nesting !== 1) continue;
    if (e.type === "test:fail") failed.set(e.name, e.message);
    else (e.skip ? skipped : passed).push(e.name);
  }
  return { passed, failed, skipped, status: done.status, stderr: done.stderr };
}
