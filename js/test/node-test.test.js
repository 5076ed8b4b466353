// conformance() before any run: a suite whose store cannot be found holds
// one failing test, driver_unavailable, saying why (an inner node --test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../dist/index.js";
import { scratchDir } from "./doubles/scratch.js";

const nodeTest = new URL("../dist/node-test.js", import.meta.url).href;

/** `body` as a test file of its own under `node --test` (TAP), with the node flags `args` and the variables `vars`. */
function innerRun(body, { args = [], vars = {} } = {}) {
  const dir = realpathSync(scratchDir("tm-node-test-"));
  writeFileSync(join(dir, "inner.test.mjs"), `import { conformance } from ${JSON.stringify(nodeTest)};\n${body}\n`);
  const env = { ...process.env, ...vars };
  delete env.NODE_TEST_CONTEXT;
  const done = spawnSync(process.execPath, ["--test", "--test-reporter=tap", ...args, join(dir, "inner.test.mjs")], {
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { dir, status: done.status, out: done.stdout };
}

test("a driver path that does not exist is named, relative to the test file", () => {
  const { dir, status, out } = innerRun('conformance({ driver: "./missing.js" });');
  assert.equal(status, 1);
  assert.match(out, /not ok 1 - driver_unavailable/);
  assert.ok(
    out.includes(`tinymemory conformance: ./missing.js: the driver "./missing.js" is ${dir}/missing.js, which does not exist (a relative path is read from the test file's directory, ${dir})`),
    out,
  );
});

test("a store that throws as it loads is one failing test, driver_unavailable, with a profile given too", () => {
  const lib = realpathSync(scratchDir("tm-throws-"));
  writeFileSync(join(lib, "throws.mjs"), 'throw new Error("no such engine: tm-missing-engine");\n');
  const { status, out } = innerRun(`conformance({ driver: ${JSON.stringify(join(lib, "throws.mjs"))}, profile: "semantic" });`);
  assert.equal(status, 1);
  assert.match(out, /not ok 1 - driver_unavailable/);
  assert.doesNotMatch(out, /not ok 2 /);
  assert.ok(out.includes("no such engine: tm-missing-engine"), out);
});

test("driver and command together are refused, naming the two", () => {
  const { out } = innerRun('conformance({ driver: "./a.js", command: "python3 d.py" });');
  assert.ok(out.includes("set `driver` (the store's module) or `command` (a driver serving itself), one of the two"), out);
});

test("a seed out of range names the option", () => {
  const { out } = innerRun('conformance({ command: "true", seed: -1 });');
  assert.ok(out.includes("conformance({ seed }) is -1; expected a whole number from 0 to 18446744073709551615"), out);
});

test("a callTimeout or jobs out of range names the option, or the variable that set it", () => {
  assert.ok(
    innerRun('conformance({ command: "true", callTimeout: 0 });').out.includes(
      "conformance({ callTimeout }) is 0; expected a whole number from 1 to 31536000",
    ),
  );
  assert.ok(
    innerRun('conformance({ command: "true", callTimeout: 31536001 });').out.includes(
      "conformance({ callTimeout }) is 31536001; expected a whole number from 1 to 31536000",
    ),
  );
  assert.ok(innerRun('conformance({ command: "true", jobs: 1.5 });').out.includes('conformance({ jobs }) is "1.5"; expected a whole number from 1 to 4294967295'));
  const { out } = innerRun('conformance({ command: "true", jobs: 2 });', { vars: { TINYMEMORY_JOBS: "0" } });
  assert.ok(out.includes("TINYMEMORY_JOBS is 0; expected a whole number from 1 to 4294967295"), out);
});

// A broken environment is one message: a store whose every recall raises
// ImportError makes the binary stop at its third failing check (exit 5); the suite
// shows its message on the first test and skips the others.
const binary = process.env.TINYMEMORY_CONFORMANCE_BIN ?? new URL("../../target/debug/tinymemory-conformance", import.meta.url).pathname;
const missingNumpy = new URL("../../crates/tinymemory-cli/tests/drivers/missing_numpy_driver.py", import.meta.url).pathname;

/** The inner run's TAP of a suite over the store whose every recall raises ImportError, the binary `bin`, without --keep-going. */
function missingNumpyRun(bin) {
  const saved = { bin: process.env.TINYMEMORY_CONFORMANCE_BIN, keep: process.env.TINYMEMORY_KEEP_GOING };
  process.env.TINYMEMORY_CONFORMANCE_BIN = bin;
  delete process.env.TINYMEMORY_KEEP_GOING;
  try {
    return innerRun(`conformance({ command: ["python3", ${JSON.stringify(missingNumpy)}], profile: "lexical", corpus: false, cases: 4 });`).out;
  } finally {
    if (saved.bin === undefined) delete process.env.TINYMEMORY_CONFORMANCE_BIN;
    else process.env.TINYMEMORY_CONFORMANCE_BIN = saved.bin;
    if (saved.keep !== undefined) process.env.TINYMEMORY_KEEP_GOING = saved.keep;
  }
}

test("a store whose every recall raises ImportError stops at its fifth failing check, the rest skipped naming what to install", { skip: !existsSync(binary) && `no binary at ${binary}` }, () => {
  const out = missingNumpyRun(binary);
  const failed = out.split("\n").filter((l) => /^\s+not ok \d+ - /.test(l));
  const skipped = out.split("\n").filter((l) => l.includes("# SKIP the driver's environment is broken;"));
  // Tests are reported as their checks finish: the five failures that
  // stop the run (one more than the four stores two jobs hold open at
  // once, property checks starting ahead); every later check is skipped,
  // saying why.
  assert.equal(failed.length, 5, out);
  assert.equal(failed.filter((l) => / - recall\./.test(l)).length, 5, out);
  assert.ok(skipped.length > 30, out);
  assert.ok(out.includes("the driver's environment is broken: the first 5 checks to fail all failed on the same error: backend failure: ImportError: No module named 'numpy'"), out);
  assert.ok(out.includes("(`pip install numpy`, when the package has the module's name)"), out);
});

test("a broken environment's message comes from the run-stopped event, not from the binary's stderr", { skip: !existsSync(binary) && `no binary at ${binary}` }, () => {
  // The binary behind a wrapper that drops its stderr.
  const quiet = join(realpathSync(scratchDir("tm-quiet-")), "quiet-binary");
  writeFileSync(quiet, `#!/bin/sh\nexec ${JSON.stringify(binary)} "$@" 2>/dev/null\n`, { mode: 0o755 });
  const out = missingNumpyRun(quiet);
  assert.ok(out.includes("the driver's environment is broken: the first 5 checks to fail all failed on the same error: backend failure: ImportError: No module named 'numpy'"), out);
  assert.ok(out.includes("(`pip install numpy`, when the package has the module's name)"), out);
  assert.ok(out.includes("the run stopped after 6 checks (1 passed); --keep-going runs every check anyway"), out);
});

const withBinary = { skip: !existsSync(binary) && `no binary at ${binary}` };
const faulty = fileURLToPath(new URL("./doubles/faulty_driver.py", import.meta.url));
const slowCorpus = fileURLToPath(new URL("./doubles/slow_corpus_driver.py", import.meta.url));

/** The TAP lines of an inner run, trimmed, a test's number left out (`ok - store.upsert`): it is its place in this build's registry. */
const tapLines = (out) => out.split("\n").map((l) => l.trim().replace(/^(not )?ok \d+ - /, "$1ok - "));

/** The result lines of the checks that ran (node 20 reports a test its pattern left out as skipped). */
const ran = (lines) => lines.filter((l) => /^(not )?ok - [a-z_]+\./.test(l) && !l.endsWith("# SKIP test name does not match pattern"));

test("the header comes before the tests, each test takes its check's own time, and the last test states the run's level and totals", withBinary, () => {
  const { out, status } = innerRun(
    `conformance({ command: ["python3", ${JSON.stringify(faulty)}], corpus: false, seed: 7, cases: 4 });`,
    { args: ["--test-name-pattern=^(store\\.upsert|recall\\.limit|recall\\.min_score|recall\\.filters)$"], vars: { TINYMEMORY_CONFORMANCE_BIN: binary, TINYMEMORY_NO_RERUN: "1" } },
  );
  assert.equal(status, 1, out);
  const lines = tapLines(out);
  const first = lines.findIndex((l) => l.startsWith("# Subtest: "));
  // The run's plan, before the first test: the console's first line (the
  // binary's own wording), then the corpus and the jobs.
  const header = lines.slice(1, first);
  assert.equal(header.length, 2, out);
  assert.ok(header[0].startsWith(`# tinymemory-conformance ${VERSION} against exec \`python3 ${faulty}\` (driver faulty, `), header[0]);
  assert.ok(header[0].includes("; seed 7, 4 cases"), header[0]);
  assert.match(header[1], /^# no corpus: the corpus checks are skipped; 4 checks, [1-9]\d* at once$/);
  assert.deepEqual(ran(lines), [
    "ok - store.upsert",
    "not ok - recall.limit",
    "not ok - recall.min_score",
    "not ok - recall.filters",
  ]);
  // Each test's duration is the one its note gives, the report's duration_ms.
  // (TAP gives a test's duration_ms after its result line, its notes after that.)
  const durations = ran(lines).map((r) => Number(lines[lines.indexOf(r) + 2].replace("duration_ms: ", "")).toFixed(1));
  const notes = lines.filter((l) => /^# check (pass|fail|skip) in /.test(l)).map((l) => /in ([0-9.]+) ms$/.exec(l)[1]);
  assert.deepEqual(durations, notes);
  // The last test of the run: its note, then the run's summary.
  const summary = lines.slice(lines.findIndex((l) => l === "not ok - recall.filters"));
  const comments = summary.filter((l) => l.startsWith("# ") && !l.startsWith("# Subtest")).slice(0, 5);
  assert.match(comments[0], /^# check fail in [0-9.]+ ms$/);
  assert.match(comments[1], /^# 4 checks in one run of \d+\.\d\ds \(their own times sum to \d+\.\d\ds\)$/);
  assert.deepEqual(comments.slice(2), [
    "# conformance: NONE (lexical, filtered)",
    "# 1 passed, 3 failed",
    "# 2 checks failed on the same error: backend failure: filters are not supported by this index (recall.min_score, recall.filters)",
  ]);
});

test("a store whose corpus load outlasts the per-request limit fails naming the option, and passes once callTimeout raises it", withBinary, () => {
  // A corpus of one file of the bundled one: one store_many, which the
  // double answers after 3 s.
  const corpus = scratchDir("tm-corpus-");
  mkdirSync(join(corpus, "chatterbot", "english"), { recursive: true });
  copyFileSync(fileURLToPath(new URL("../../fixtures/corpora/chatterbot/english/ai.yml", import.meta.url)), join(corpus, "chatterbot", "english", "ai.yml"));
  const run = (callTimeout) =>
    innerRun(
      `conformance({ command: ["python3", ${JSON.stringify(slowCorpus)}, "3"], corpus: ${JSON.stringify(corpus)}, callTimeout: ${callTimeout} });`,
      { args: ["--test-name-pattern=^corpus\\."], vars: { TINYMEMORY_CONFORMANCE_BIN: binary } },
    );
  const short = run(1);
  assert.equal(short.status, 1, short.out);
  assert.ok(short.out.includes("no answer within 1s (the request timeout, `callTimeout` in conformance(), or TINYMEMORY_CALL_TIMEOUT)"), short.out);
  assert.ok(short.out.includes("--call-timeout 1"), short.out);
  const long = run(30);
  assert.equal(long.status, 0, long.out);
  assert.deepEqual(
    ran(tapLines(long.out)),
    ["ok - corpus.namespace_counts", "ok - corpus.recall_own_words"],
  );
});

const gated = fileURLToPath(new URL("./doubles/gated_driver.py", import.meta.url));
/** How long the test waits for the first check's result before it releases the run anyway: a bound on a hang, far above what the check takes. */
const REPORTED_WITHIN_MS = 120_000;

test("each check's test is reported as its check finishes, while the run's later checks still run", withBinary, async () => {
  const dir = realpathSync(scratchDir("tm-node-test-"));
  const release = join(dir, "release");
  // recall.limit lists nothing; list.filters waits in its first list until the file exists.
  writeFileSync(
    join(dir, "inner.test.mjs"),
    `import { conformance } from ${JSON.stringify(nodeTest)};\nconformance({ command: ["python3", ${JSON.stringify(gated)}, ${JSON.stringify(release)}], corpus: false, jobs: 1, callTimeout: 600 });\n`,
  );
  const env = { ...process.env, TINYMEMORY_CONFORMANCE_BIN: binary };
  delete env.NODE_TEST_CONTEXT;
  const inner = spawn(process.execPath, ["--test", "--test-reporter=tap", "--test-name-pattern=^(recall\\.limit|list\\.filters)$", join(dir, "inner.test.mjs")], { env });
  let out = "";
  const exited = new Promise((resolve) => inner.on("close", resolve));
  const reported = new Promise((resolve) => {
    inner.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      if (/^\s*ok \d+ - recall\.limit$/m.test(out)) resolve(true);
    });
    setTimeout(() => resolve(false), REPORTED_WITHIN_MS).unref();
  });
  const early = await reported;
  const before = out;
  writeFileSync(release, "");
  const status = await exited;
  assert.ok(early, `recall.limit was not reported while list.filters waited:\n${out}`);
  assert.ok(!/ok \d+ - list\.filters/.test(before), before);
  assert.equal(status, 0, out);
  assert.deepEqual(ran(tapLines(out)), ["ok - recall.limit", "ok - list.filters"]);
});
