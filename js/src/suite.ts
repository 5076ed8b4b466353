/**
 * The conformance suite as a test framework's tests, whatever the
 * framework: one test per check, named by the check's id, in a suite of
 * its own, the binary run once per suite over the checks the framework
 * will run. node-test.ts and vitest.ts give the two frameworks.
 */

import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecallProfile } from "./protocol/types.js";
import { BinaryError, checkedBinary, listChecks, listing, type CheckInfo } from "./binary.js";
import { bundledCorpus } from "./corpus.js";
import { PACKAGE_ROOT } from "./package-info.js";
import {
  BrokenEnvironment,
  HELLO_TIMEOUT_S,
  RunError,
  deadline,
  hello,
  jobsFor,
  type Declared,
  type ReportCheck,
  type RunSettings,
} from "./run.js";
import { LiveRun } from "./live.js";
import { headerLines, summaryLines, withNotes } from "./summary.js";
import { selected, type Patterns } from "./selection.js";
import { shellJoin, shellQuote, shellSplit } from "./shell.js";

/** Options of `conformance()`. */
export interface ConformanceOptions {
  /**
   * The store: a module path (relative to the test file calling
   * `conformance`, as an import there would be, or absolute, or a
   * `file:` URL) whose default export makes it, or `PATH#NAME` for
   * another export. The export is a class, a (possibly async) function
   * returning a store, or a store object; served by `tinymemory-serve`.
   */
  driver?: string | URL;
  /**
   * Instead of `driver`: the command of a driver that serves itself, in
   * any language (its words, or one line split as a shell does), run in
   * the working directory of `node --test` (a relative path in it is read
   * from there, not from the test file's directory).
   */
  command?: string | readonly string[];
  /** The recall profile to hold the store to; default: the one its `hello` declares. */
  profile?: RecallProfile;
  /**
   * `true` (the default) loads the corpus this package carries, `false`
   * none (the corpus checks are skipped), a directory (relative to the
   * test file) loads that one. `TINYMEMORY_CORPUS=on|off|DIR` overrides it.
   */
  corpus?: boolean | string;
  /** The property checks' seed, 0 to 2^64 - 1 (`TINYMEMORY_SEED` overrides it). */
  seed?: number | bigint | string;
  /** Cases per property check, 1 to 2^32 - 1; default 64 (`TINYMEMORY_CASES` overrides it). */
  cases?: number;
  /** Seconds one check may run (plus 1 s per request), at least 1; default 60 (`TINYMEMORY_TIMEOUT` overrides it). */
  timeout?: number;
  /**
   * Seconds the binary waits for one answer of the store (the binary's
   * `--call-timeout`), at least 1; default 30. A store whose corpus load
   * (a `storeMany` of many entries) or start-up takes longer, such as one
   * over a PostgreSQL server, needs more (`TINYMEMORY_CALL_TIMEOUT`
   * overrides it).
   */
  callTimeout?: number;
  /**
   * Checks run at once (the binary's `--jobs`), at least 1. Default: the
   * cores of this machine for a store whose hello declares independent
   * stores, else 1; one under `TINYMEMORY_TRACE` (`TINYMEMORY_JOBS`
   * overrides it). Above 1 for a store that does not declare independent
   * stores, the run is refused.
   */
  jobs?: number;
  /** A directory to write a regression bundle into for each failing check (`TINYMEMORY_BUNDLE_DIR` overrides it). */
  bundleDir?: string;
  /** The suite's name; default `tinymemory conformance: DRIVER`. */
  name?: string;
  /** Variables added to the environment of the binary and the driver processes. */
  env?: Record<string, string>;
}

const PROFILES: readonly string[] = ["lexical", "semantic"];
const U64_MAX = 2n ** 64n - 1n;
/** The longest `--timeout` and `--call-timeout` the binary takes: a year, the longest limit a bundle may record. */
const LIMIT_MAX = 31_536_000n;
const U32_MAX = 2 ** 32 - 1;
const SERVE_BIN = resolve(PACKAGE_ROOT, "bin", "tinymemory-serve.js");
/** The name of the one test of a suite whose checks could not be listed. */
export const UNAVAILABLE = "driver_unavailable";

/** The file that called conformance(): the first stack frame outside this package. */
function callerFile(): string | null {
  const frames = (new Error().stack ?? "").split("\n").slice(1);
  const own = resolve(PACKAGE_ROOT, "dist");
  for (const frame of frames) {
    const m = /\(?((?:file:\/\/)?\/[^():]+(?::\\[^():]+)?):\d+:\d+\)?\s*$/.exec(frame);
    if (!m) continue;
    const path = m[1]!.startsWith("file://") ? fileURLToPath(m[1]!) : m[1]!;
    if (!path.startsWith(own + "/") && !path.startsWith("node:")) return path;
  }
  return null;
}

/** A problem in the options, named: becomes the suite's one failing test. */
class SettingError extends RunError {}

function wholeNumber(value: unknown, what: string, least: bigint, most: bigint): string {
  let n: bigint;
  try {
    if (typeof value === "number" && !Number.isSafeInteger(value)) throw new Error();
    n = BigInt(value as string | number | bigint);
  } catch {
    throw new SettingError(`${what} is ${JSON.stringify(String(value))}; expected a whole number from ${least} to ${most}`);
  }
  if (n < least || n > most) throw new SettingError(`${what} is ${n}; expected a whole number from ${least} to ${most}`);
  return n.toString();
}

interface Resolved {
  command: string[];
  shownDriver: string;
  env: NodeJS.ProcessEnv;
  corpus: string | null;
  seed: string | null;
  cases: number | null;
  timeout: number | null;
  callTimeout: number | null;
  jobs: number | null;
  bundleDir: string | null;
}

/** Node flags the driver process needs as the test process has them (a loader such as `--import tsx`). */
function inheritedNodeFlags(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (/^--(test|watch|inspect|experimental-test|experimental-default-type=|input-type)/.test(a)) {
      if (!a.includes("=") && /^--test-(name|skip)-pattern$|^--test-reporter|^--test-concurrency|^--test-timeout|^--test-shard/.test(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

function resolveOptions(o: ConformanceOptions, base: string, framework: Framework): Resolved {
  const env: NodeJS.ProcessEnv = { ...process.env, ...(o.env ?? {}), NO_COLOR: "1" };
  // The test runner marks its child processes; a driver is none.
  delete env.NODE_TEST_CONTEXT;
  let command: string[];
  let shownDriver: string;
  if ((o.driver === undefined) === (o.command === undefined)) {
    throw new SettingError("set `driver` (the store's module) or `command` (a driver serving itself), one of the two");
  }
  if (o.driver !== undefined) {
    const spec = o.driver instanceof URL ? fileURLToPath(o.driver) : o.driver.startsWith("file:") ? fileURLToPath(o.driver) : o.driver;
    const hash = spec.lastIndexOf("#");
    const [path, exportName] = hash > 0 ? [spec.slice(0, hash), spec.slice(hash)] : [spec, ""];
    // As an import in the test file reads it: ./ and ../ from its
    // directory; a bare name is a file there when one exists, else a package.
    const absolute =
      isAbsolute(path) || path.startsWith(".") || existsSync(resolve(base, path)) ? resolve(base, path) : path;
    if ((isAbsolute(absolute) || path.startsWith(".")) && !existsSync(absolute)) {
      throw new SettingError(
        `the driver ${JSON.stringify(path)} is ${absolute}, which does not exist (a relative path is read from the test file's directory, ${base})`,
      );
    }
    command = [process.execPath, ...(framework.inheritNodeFlags ? inheritedNodeFlags() : []), SERVE_BIN, absolute + exportName];
    shownDriver = String(o.driver);
  } else {
    const words = typeof o.command === "string" ? shellSplit(o.command) : [...(o.command as readonly string[])];
    if (words.length === 0) throw new SettingError("`command` is empty; expected a command line or its words");
    command = words;
    shownDriver = shellJoin(words);
  }
  const fromEnv = (name: string) => (process.env[name] === undefined || process.env[name] === "" ? undefined : process.env[name]);
  let corpusSetting: boolean | string = o.corpus ?? true;
  const envCorpus = fromEnv("TINYMEMORY_CORPUS");
  if (envCorpus !== undefined) corpusSetting = envCorpus === "on" ? true : envCorpus === "off" ? false : resolve(envCorpus);
  let corpus: string | null = null;
  if (corpusSetting === true) {
    corpus = bundledCorpus();
    if (corpus === null) throw new SettingError("no bundled corpus in this package; set `corpus` to a directory, or to false to skip the corpus checks");
  } else if (typeof corpusSetting === "string") {
    corpus = resolve(base, corpusSetting);
    if (!existsSync(corpus)) throw new SettingError(`the corpus ${corpus} does not exist (a relative path is read from the test file's directory)`);
  }
  const seedValue = fromEnv("TINYMEMORY_SEED") ?? o.seed;
  const casesValue = fromEnv("TINYMEMORY_CASES") ?? o.cases;
  const timeoutValue = fromEnv("TINYMEMORY_TIMEOUT") ?? o.timeout;
  const callTimeoutValue = fromEnv("TINYMEMORY_CALL_TIMEOUT") ?? o.callTimeout;
  const jobsValue = fromEnv("TINYMEMORY_JOBS") ?? o.jobs;
  const where = (name: string, option: string) => (fromEnv(name) !== undefined ? name : `conformance({ ${option} })`);
  const bundle = fromEnv("TINYMEMORY_BUNDLE_DIR") ?? o.bundleDir;
  return {
    command,
    shownDriver,
    env,
    corpus,
    seed: seedValue === undefined ? null : wholeNumber(seedValue, where("TINYMEMORY_SEED", "seed"), 0n, U64_MAX),
    cases: casesValue === undefined ? null : Number(wholeNumber(casesValue, where("TINYMEMORY_CASES", "cases"), 1n, BigInt(U32_MAX))),
    timeout: timeoutValue === undefined ? null : Number(wholeNumber(timeoutValue, where("TINYMEMORY_TIMEOUT", "timeout"), 1n, LIMIT_MAX)),
    callTimeout:
      callTimeoutValue === undefined
        ? null
        : Number(wholeNumber(callTimeoutValue, where("TINYMEMORY_CALL_TIMEOUT", "callTimeout"), 1n, LIMIT_MAX)),
    jobs: jobsValue === undefined ? null : Number(wholeNumber(jobsValue, where("TINYMEMORY_JOBS", "jobs"), 1n, BigInt(U32_MAX))),
    bundleDir: bundle === undefined ? null : resolve(base, bundle),
  };
}

/** Seconds the driver may take to answer hello: the host's allowance, or the run's larger `callTimeout`. */
function helloTimeout(settings: Resolved): number {
  return Math.max(HELLO_TIMEOUT_S, settings.callTimeout ?? 0);
}

/** A failing check: the message is the whole report, with no stack of this package's frames. */
export class CheckFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckFailed";
    this.stack = `${this.name}: ${message}`;
  }
}

function regexpEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * What a test framework gives the suite: its describe and it, how a
 * running test is skipped or marked todo and given a note, which tests its
 * command line selects, and the command that runs one check alone.
 */
export interface Framework<Context = any> {
  describe(name: string, body: () => void): void;
  /** A hook of the suite run before its first test (the run starts there, and its header is printed). */
  before(body: () => Promise<void>): void;
  /** Prints a line of the suite's own before its tests' results (the header). */
  print(line: string): void;
  /**
   * Called first in a test's body: a function setting the test's duration
   * to the check's own milliseconds, where the framework allows it.
   */
  ownTime?(): (milliseconds: number) => void;
  /** A test; `timeoutMs` is how long its body may take (the last check's body waits for the whole run). */
  it(name: string, body: (ctx: Context) => Promise<void> | void, timeoutMs: number): void;
  skip(ctx: Context, reason: string): void;
  todo(ctx: Context, reason: string): void;
  note(ctx: Context, message: string): void;
  patterns(): Patterns;
  /** The command running the check whose id, regexp-escaped, is `id` of test file `file` alone. */
  alone(id: string, file: string): string;
  /** Whether the store's processes get the Node flags of the test process (a loader such as `--import tsx`). */
  inheritNodeFlags: boolean;
}

/** What a failure's message says of its run besides the check: the seed and cases, the command line, the check's bundle. */
interface RunContext {
  seed: string | undefined;
  cases: number | undefined;
  shown: string;
  bundle: string | undefined;
}

function failure(entry: ReportCheck, run: RunContext, testFile: string | null, replayDriver: string[], framework: Framework): string {
  const lines = [`${entry.id} ${entry.outcome.toUpperCase()}: ${withNotes(entry.message ?? "", entry.notes ?? [])}`];
  if (entry.reason) lines.push(`declared reason: ${entry.reason}`);
  if (entry.counterexample) lines.push(`counterexample (seed ${entry.counterexample.seed}): ${entry.counterexample.input}`);
  lines.push(`rule (${entry.family}): ${entry.description}`);
  const file = testFile === null ? "TEST_FILE" : shellQuote(relative(process.cwd(), testFile) || testFile);
  // The settings the environment gave this run, which a new shell would not have, go with the seed.
  const carried = ["TINYMEMORY_CORPUS", "TINYMEMORY_CASES", "TINYMEMORY_TIMEOUT", "TINYMEMORY_CALL_TIMEOUT"]
    .filter((name) => (process.env[name] ?? "") !== "")
    .map((name) => ` ${name}=${shellQuote(process.env[name] as string)}`)
    .join("");
  lines.push(`seed ${run.seed}, ${run.cases} cases; this check alone: TINYMEMORY_SEED=${run.seed}${carried} ${framework.alone(regexpEscape(entry.id), file)}`);
  lines.push(`  or: ${run.shown} --check ${entry.id}`);
  if (run.bundle) lines.push(`replay: ${shellJoin(["tinymemory-conformance", "replay", run.bundle, ...replayDriver])}`);
  return lines.join("\n");
}

/**
 * Declares one suite of `framework` for the store, with one test per
 * check of its profile (`tinymemory-conformance list --profile P`). When
 * the binary cannot be found or the store does not start, the suite holds
 * one failing test, `driver_unavailable`, saying why.
 */
export function declareSuite(options: ConformanceOptions, framework: Framework): void {
  const { describe, it } = framework;
  const testFile = callerFile();
  const base = testFile === null ? process.cwd() : dirname(testFile);
  let settings: Resolved;
  let binary: string;
  let profile: string;
  let checks: CheckInfo[];
  // What the driver declared in its hello, asked here whatever the
  // profile: a store that does not start is then one failing test, not
  // one per check (its independent stores also decide --jobs).
  let declared: Declared | null = null;
  let title = options.name ?? `tinymemory conformance: ${options.driver ?? options.command}`;
  try {
    settings = resolveOptions(options, base, framework);
    title = options.name ?? `tinymemory conformance: ${settings.shownDriver}`;
    binary = checkedBinary();
    declared = hello(binary, settings.command, settings.env, helloTimeout(settings));
    const chosen = options.profile ?? declared.recall_profile;
    if (!PROFILES.includes(chosen)) {
      throw new SettingError(`conformance({ profile }) is ${JSON.stringify(chosen)}; expected "lexical" or "semantic"`);
    }
    profile = chosen;
    checks = listChecks(binary, profile);
  } catch (e) {
    if (!(e instanceof RunError || e instanceof BinaryError || e instanceof TypeError)) throw e;
    const message = `${title}: ${e.message}`;
    describe(title, () => {
      it(
        UNAVAILABLE,
        () => {
          throw new CheckFailed(message);
        },
        60_000,
      );
    });
    return;
  }
  const patterns = framework.patterns();
  const chosen = checks.filter((c) => selected(patterns, [title], c.id));
  const runSettings = (ids: readonly CheckInfo[], jobs: number | null): RunSettings => ({
    binary,
    command: settings.command,
    env: settings.env,
    profile,
    selected: ids.length === checks.length ? null : ids.map((c) => c.id),
    corpus: settings.corpus,
    seed: settings.seed,
    cases: settings.cases,
    timeout: settings.timeout,
    callTimeout: settings.callTimeout,
    jobs,
    bundleDir: settings.bundleDir,
    listing: listing(binary, profile),
    ids: ids.map((c) => c.id),
  });
  let first: Promise<LiveRun> | null = null;
  // --jobs as the pytest plugin passes it: the option, else the cores for
  // a driver declaring independent stores (jobsFor); a hello that fails
  // here fails the run, as its first test says.
  const jobs = async (): Promise<number | null> => {
    if (settings.jobs !== null) return settings.jobs;
    declared ??= hello(binary, settings.command, settings.env, helloTimeout(settings));
    return jobsFor(declared, settings.env);
  };
  const startRun = async (ids: readonly CheckInfo[]): Promise<LiveRun> => new LiveRun(runSettings(ids, await jobs()));
  // The replay hint names the driver, the corpus and the time budget the run had (a check past it times out).
  const replayDriver = [
    "--driver",
    "exec:" + shellJoin(settings.command),
    ...(settings.corpus ? ["--corpus", settings.corpus] : []),
    ...(settings.timeout !== null ? ["--timeout", String(settings.timeout)] : []),
  ];
  // A check's entry once its check finished, from the run of the checks chosen.
  const entryFor = async (check: CheckInfo): Promise<{ entry: ReportCheck | undefined; live: LiveRun }> => {
    first ??= startRun(chosen.length > 0 ? chosen : [check]);
    let live = await first;
    let entry = await live.entry(check.id);
    if (entry === undefined && !chosen.includes(check)) {
      // node ran a check the selection did not foresee: a run of its own.
      live = await startRun([check]);
      entry = await live.entry(check.id);
    }
    return { entry, live };
  };
  let firstError: string | null = null;
  // Twice the run's own deadline: the run may be a second one, for a check the selection did not foresee.
  const timeoutMs = 2 * deadline(listing(binary, profile), checks.map((c) => c.id), settings.timeout, settings.cases) * 1000;
  // The last check of the run carries the run's summary in its notes.
  const last = chosen[chosen.length - 1];
  describe(title, () => {
    framework.before(async () => {
      if (chosen.length === 0) return;
      first ??= startRun(chosen);
      try {
        const plan = await (await first).started;
        if (plan !== null) for (const line of headerLines(plan)) framework.print(line);
      } catch {
        // The first test says why the run failed.
      }
    });
    for (const check of checks) {
      it(check.id, async (t: unknown) => {
        const own = framework.ownTime?.();
        let got: Awaited<ReturnType<typeof entryFor>>;
        try {
          got = await entryFor(check);
        } catch (e) {
          if (!(e instanceof RunError)) throw e;
          // One run failed for every test of the suite: the first says why.
          if (firstError === null) {
            firstError = check.id;
            // The binary's hint names its flag; here the limit is an option.
            throw new CheckFailed(e.message.replaceAll("--call-timeout SECS", "`callTimeout` in conformance(), or TINYMEMORY_CALL_TIMEOUT"));
          }
          if (e instanceof BrokenEnvironment) {
            // No check ran, so none failed: one message for the suite.
            framework.skip(t, `the driver's environment is broken; ${firstError} says why`);
            return;
          }
          throw new CheckFailed(`the run of this suite did not start; ${firstError} says why`);
        }
        const { entry, live } = got;
        if (entry === undefined) throw new CheckFailed(`${check.id}: the run's report has no entry for this check: \`${live.shown}\``);
        own?.(entry.duration_ms);
        framework.note(t, `check ${entry.outcome} in ${entry.duration_ms.toFixed(1)} ms`);
        if (entry.score_noise) {
          framework.note(t, `score noise ${entry.score_noise.difference.toExponential(1)} (${entry.score_noise.at}), within the tolerance`);
        }
        if (check === last) {
          // The run's end: its reruns, level, totals and shared errors.
          try {
            for (const line of summaryLines(await live.done)) framework.note(t, line);
          } catch (e) {
            if (!(e instanceof RunError)) throw e;
            throw new CheckFailed(e.message);
          }
        }
        switch (entry.outcome) {
          case "pass":
            return;
          case "skip":
            framework.skip(
              t,
              (entry.message ?? "skipped by the suite").replace(
                "(use --corpus DIR)",
                "(set `corpus` in conformance(), or TINYMEMORY_CORPUS=on|DIR)",
              ),
            );
            return;
          case "expected-failure":
            framework.todo(t, `${entry.reason}: ${entry.message}`);
            return;
          default: {
            const plan = await live.started;
            // A bundle is written when the run ends: only a run asked for bundles waits for it.
            const bundle = settings.bundleDir === null ? undefined : (await live.done.catch(() => null))?.bundles.get(entry.id);
            const run = { seed: plan?.seed, cases: plan?.cases, shown: live.shown, bundle };
            throw new CheckFailed(failure(entry, run, testFile, replayDriver, framework));
          }
        }
      }, timeoutMs);
    }
  });
}
