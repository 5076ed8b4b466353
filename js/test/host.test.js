// A run ends with the node process that started it: killed with SIGKILL
// (which it cannot catch), the host leaves neither the binary nor its
// driver processes running, since the binary's stdin is a pipe only the
// host held (`run --stop-on-stdin-eof`, docs/cli.md "Signals"). Linux: the
// processes are found in /proc by a marker word in their command lines.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const run = new URL("../dist/run.js", import.meta.url).href;
const binaryModule = new URL("../dist/binary.js", import.meta.url).href;
const memoryDriver = fileURLToPath(new URL("../../examples/python/memory_driver.py", import.meta.url));
/** Milliseconds the processes get to end once the host is killed: a bound on a hang, far above what they take. */
const GONE_WITHIN_MS = 60_000;

/** The pids of running processes (not zombies) whose command line holds `marker`. */
function processesWith(marker) {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(")").pop().trim().split(" ")[0];
      if (cmdline.includes(marker) && state !== "Z") found.push(Number(entry));
    } catch {
      // Ended while it was read.
    }
  }
  return found;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test("a host killed with SIGKILL leaves neither the binary nor its drivers", { skip: !existsSync("/proc/self/cmdline") }, async () => {
  const marker = `tm-host-test-${process.pid}-${Date.now()}`;
  const dir = mkdtempSync(join(tmpdir(), "tm-host-"));
  // A property check of a million cases with a day to run them in: the
  // run outlives the test unless something stops it.
  writeFileSync(
    join(dir, "host.mjs"),
    `import { runSuite } from ${JSON.stringify(run)};
import { checkedBinary, listing } from ${JSON.stringify(binaryModule)};
const binary = checkedBinary();
await runSuite({
  binary,
  command: ["python3", ${JSON.stringify(memoryDriver)}, ${JSON.stringify(marker)}],
  env: process.env,
  profile: "lexical",
  selected: ["properties.namespace_round_trip"],
  corpus: null,
  seed: null,
  cases: 1000000,
  timeout: 86400,
  callTimeout: null,
  jobs: null,
  bundleDir: null,
  families: ["property"],
  listing: listing(binary, "lexical"),
  ids: ["properties.namespace_round_trip"],
});
`,
  );
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const host = spawn(process.execPath, [join(dir, "host.mjs")], { env, stdio: ["ignore", "ignore", "inherit"] });
  try {
    const started = Date.now();
    // The binary (its --driver word holds the marker) and a driver process.
    while (processesWith(marker).length < 2) {
      assert.equal(host.exitCode, null, "the host ended before its run started");
      assert.ok(Date.now() - started < GONE_WITHIN_MS, "the run never started");
      await sleep(50);
    }
    host.kill("SIGKILL");
    const killed = Date.now();
    while (processesWith(marker).length > 0 && Date.now() - killed < GONE_WITHIN_MS) await sleep(100);
    assert.deepEqual(processesWith(marker), []);
  } finally {
    host.kill("SIGKILL");
    for (const pid of processesWith(marker)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

const binaryPath = process.env.TINYMEMORY_CONFORMANCE_BIN;

test("a run that ended before its first check-started was read leaves no timer behind", { skip: !binaryPath && "TINYMEMORY_CONFORMANCE_BIN is unset" }, async () => {
  // The deadline is rearmed when the first check-started is read; read
  // only after the binary ended, that rearmed a timer of the run's whole
  // limit, and the host stayed alive until it fired (a node:test file
  // seemed to hang).
  const { runSuite } = await import(run);
  const { listing } = await import(binaryModule);
  const dir = mkdtempSync(join(tmpdir(), "tm-host-"));
  const fake = join(dir, "fake-binary");
  writeFileSync(
    fake,
    `#!/bin/sh
while [ "$#" -gt 0 ]; do
  if [ "$1" = "--events" ]; then printf '%s\\n' '{"event":"check-started","id":"store.upsert"}' > "$2"; fi
  shift
done
exit 3
`,
    { mode: 0o755 },
  );
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
  const before = timers();
  try {
    await assert.rejects(
      runSuite({
        binary: fake,
        command: ["python3", memoryDriver],
        env: process.env,
        profile: "lexical",
        selected: ["store.upsert"],
        corpus: null,
        seed: null,
        cases: null,
        timeout: 86400,
        callTimeout: null,
        jobs: null,
        bundleDir: null,
        families: ["contract"],
        listing: listing(binaryPath, "lexical"),
        ids: ["store.upsert"],
      }),
      /could not open the driver \(exit 3\)/,
    );
    assert.equal(timers(), before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
