// One driver, three front ends, one verdict: the CLI's `run --format json`
// (and the lines it prints beside the report), pytest's JUnit XML with the
// plugin's summary, and node:test's own JUnit reporter give the same
// outcome for every check, the same conformance level and the same
// failures sharing one driver error. The driver is the broken example with
// its filters refused by one backend error (doubles/faulty_driver.py):
// passes, failures, skips and a shared error, in one run. pytest comes from
// $TINYMEMORY_PYTEST_PYTHON (.ci/js.sh makes a venv of it), else a python3
// that imports pytest; the plugin from this checkout's python/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDir } from "./doubles/scratch.js";

const binary = process.env.TINYMEMORY_CONFORMANCE_BIN ?? fileURLToPath(new URL("../../target/debug/tinymemory-conformance", import.meta.url));
const faulty = fileURLToPath(new URL("./doubles/faulty_driver.py", import.meta.url));
const pythonPackage = fileURLToPath(new URL("../../python", import.meta.url));
const nodeTest = new URL("../dist/node-test.js", import.meta.url).href;
const CASES = 8;

/** A python with pytest: the variable's, else python3 when it imports pytest; null when neither. */
function pytestPython() {
  const named = process.env.TINYMEMORY_PYTEST_PYTHON;
  if (named) return named;
  return spawnSync("python3", ["-c", "import pytest"]).status === 0 ? "python3" : null;
}
const python = pytestPython();

/** The environment of every run: this checkout's binary and plugin, and no rerun (it changes no outcome, only the time). */
function env() {
  const e = { ...process.env, TINYMEMORY_CONFORMANCE_BIN: binary, TINYMEMORY_NO_RERUN: "1", NO_COLOR: "1" };
  for (const name of ["NODE_TEST_CONTEXT", "TINYMEMORY_SEED", "TINYMEMORY_CASES", "TINYMEMORY_CORPUS", "TINYMEMORY_JOBS", "TINYMEMORY_TRACE"]) delete e[name];
  e.PYTHONPATH = [pythonPackage, process.env.PYTHONPATH].filter(Boolean).join(":");
  return e;
}

/** Unescapes the five XML entities. */
const unxml = (text) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");

/**
 * The outcome of each `<testcase>` of a JUnit document by its name:
 * `fail` (a failure or error element), `xfail` (pytest's xfail skip),
 * `skip`, `todo` (node's), else `pass`.
 */
function junitOutcomes(xml) {
  const outcomes = new Map();
  for (const m of xml.matchAll(/<testcase ([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = unxml(/\bname="([^"]*)"/.exec(m[1])[1]);
    const body = m[2] ?? "";
    const skipped = /<skipped[^>]*\btype="([^"]*)"/.exec(body);
    outcomes.set(
      name,
      /<(failure|error)\b/.test(body) ? "fail" : skipped === null ? "pass" : skipped[1] === "pytest.xfail" ? "xfail" : skipped[1] === "todo" ? "todo" : "skip",
    );
  }
  return outcomes;
}

/** The report's outcomes in the JUnit words: an expected failure is pytest's xfail and node's todo, read alike. */
const OUTCOME = { pass: "pass", fail: "fail", skip: "skip", timeout: "fail", "expected-failure": "xfail", "unexpectedly-passing": "fail" };

function cli(dir) {
  const output = join(dir, "report.json");
  const done = spawnSync(
    binary,
    ["run", "--driver", `exec:python3 ${faulty}`, "--no-corpus", "--cases", String(CASES), "--format", "json", "--output", output],
    { env: env(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(done.status, 1, done.stdout + done.stderr);
  const report = JSON.parse(readFileSync(output, "utf8"));
  const printed = done.stdout.split("\n");
  return {
    outcomes: new Map(report.checks.map((c) => [c.id, OUTCOME[c.outcome] ?? c.outcome])),
    level: report.conformance.level,
    groups: (report.shared_errors ?? []).map((g) => g.checks),
    // What the CLI prints beside the report: its conformance and shared-error lines.
    line: printed.find((l) => l.startsWith("conformance: ")),
    shared: printed.filter((l) => / checks failed on the same error: /.test(l)),
  };
}

function pytest(dir) {
  writeFileSync(
    join(dir, "test_faulty.py"),
    `from tinymemory.testing import DriverConformance


class TestFaulty(DriverConformance):
    driver_command = ["python3", ${JSON.stringify(faulty)}]
    corpus = False
    cases = ${CASES}
`,
  );
  const xml = join(dir, "pytest.xml");
  const done = spawnSync(
    python,
    ["-m", "pytest", "-p", "tinymemory.testing.plugin", "-p", "no:cacheprovider", `--junitxml=${xml}`, join(dir, "test_faulty.py")],
    { cwd: dir, env: env(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(done.status, 1, done.stdout + done.stderr);
  // The plugin's summary: each line starts with the class's node id.
  const summary = done.stdout
    .split("\n")
    .filter((l) => l.startsWith("test_faulty.py::TestFaulty: "))
    .map((l) => l.slice("test_faulty.py::TestFaulty: ".length));
  return { outcomes: junitOutcomes(readFileSync(xml, "utf8")), summary };
}

function nodeRun(dir) {
  writeFileSync(
    join(dir, "faulty.test.mjs"),
    `import { conformance } from ${JSON.stringify(nodeTest)};\nconformance({ command: ["python3", ${JSON.stringify(faulty)}], corpus: false, cases: ${CASES} });\n`,
  );
  const done = spawnSync(process.execPath, ["--test", "--test-reporter=junit", join(dir, "faulty.test.mjs")], {
    cwd: dir,
    env: env(),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(done.status, 1, done.stdout + done.stderr);
  // The notes node's JUnit reporter writes as comments after a test case.
  const notes = [...done.stdout.matchAll(/<!-- ([\s\S]*?) -->/g)].map((m) => m[1]);
  return { outcomes: junitOutcomes(done.stdout), notes };
}

/** The check ids a `N checks failed on the same error: ERROR (ID, ...)` line names. */
const groupOf = (line) => /\(([^()]*)\)$/.exec(line)[1].split(", ");

test(
  "the CLI's JSON, pytest's JUnit and node:test's reporter give one driver the same outcomes, level and shared errors",
  { skip: (!existsSync(binary) && `no binary at ${binary}`) || (python === null && "no python with pytest (set TINYMEMORY_PYTEST_PYTHON)") },
  () => {
    const dir = realpathSync(scratchDir("tm-front-ends-"));
    const fromCli = cli(dir);
    const fromPytest = pytest(dir);
    const fromNode = nodeRun(dir);

    // The driver's documented faults, so a run that failed for another reason is not read as agreement.
    const failed = [...fromCli.outcomes].filter(([, o]) => o === "fail").map(([id]) => id);
    assert.ok(failed.includes("forget.idempotent") && failed.includes("recall.filters"), failed.join(", "));
    assert.ok([...fromCli.outcomes.values()].includes("skip") && [...fromCli.outcomes.values()].includes("pass"));

    assert.deepEqual(fromPytest.outcomes, fromCli.outcomes, "pytest's JUnit");
    assert.deepEqual(fromNode.outcomes, fromCli.outcomes, "node:test's JUnit");

    // The level: the CLI's line, its JSON's level, and the line each host shows.
    assert.match(fromCli.line, new RegExp(`^conformance: ${fromCli.level.toUpperCase()} \\(`));
    assert.ok(fromPytest.summary.includes(fromCli.line), fromPytest.summary.join("\n"));
    assert.ok(fromNode.notes.includes(fromCli.line), fromNode.notes.join("\n"));

    // The shared errors: the JSON's groups, the lines the CLI prints, and each host's.
    assert.ok(fromCli.groups.length > 0, "the driver's refused filters are one shared error");
    assert.deepEqual(fromCli.shared.map(groupOf), fromCli.groups);
    assert.deepEqual(
      fromPytest.summary.filter((l) => / checks failed on the same error: /.test(l)),
      fromCli.shared,
    );
    assert.deepEqual(
      fromNode.notes.filter((l) => / checks failed on the same error: /.test(l)),
      fromCli.shared,
    );
  },
);
