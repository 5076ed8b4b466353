/**
 * One conformance run of a driver: its `hello`, then the binary's `run`
 * with `--format json`, read back as the report, and `--events`, read as
 * the run goes (docs/reports.md, "Event stream"). The command line is the
 * Python plugin's (python/tinymemory/testing/_run.py), so the two
 * integrations run the suite the same way.
 */

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { EventsFile } from "./events-file.js";
import type { Listing } from "./binary.js";
import { shellJoin } from "./shell.js";

/** The run could not give a verdict per check: the message says why. */
export class RunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RunError";
  }
}

/**
 * The binary stopped the run on a broken environment (exit 5: its first
 * failing checks all failed on one missing module, refused connection or
 * missing extension); the message is its own, the error and what to install or start.
 */
export class BrokenEnvironment extends RunError {
  constructor(message: string) {
    super(message);
    this.name = "BrokenEnvironment";
  }
}

/** Seconds for the start, the corpus load and the report, besides the checks. */
const RUN_OVERHEAD = 600;
/** Seconds the driver may take to answer hello (at least: a larger `--call-timeout` of the run raises it), and the binary to start and end it besides. */
export const HELLO_TIMEOUT_S = 60;
const HELLO_OVERHEAD_S = 30;
const STDERR_LINES = 40;
/** Milliseconds between two reads of the growing events file. */
const EVENTS_POLL_MS = 100;

/** The last lines of `text`, indented, for an error message. */
export function tail(text: string, lines = STDERR_LINES): string {
  const trimmed = text.replace(/\n+$/, "");
  if (trimmed === "") return "  (stderr empty)";
  const kept = trimmed.split("\n");
  const cut = kept.slice(-lines);
  const head = cut.length < kept.length ? `  (${kept.length - cut.length} earlier lines left out)\n` : "";
  return head + cut.map((l) => "  | " + l).join("\n");
}

/** What a driver declared in its `hello`, as `tinymemory-conformance hello --format json` prints it (docs/reports.md). */
export interface Declared {
  schema_version: number;
  tool_version: string;
  protocol_version: number;
  driver: string;
  recall_profile: "lexical" | "semantic";
  ops: string[];
  independent_stores: boolean;
  /** The framework interface the driver serves (docs/protocol.md, "The interface op"), or null. */
  interface?: string | null;
}

/**
 * What the driver `command` (its words) declared in its `hello`: the
 * binary starts it, asks, checks the answer as a run does, and ends it.
 * Throws RunError for a driver that exits or hangs without answering,
 * answers something else, or speaks another protocol version, quoting
 * the binary's error (which quotes the driver's stderr).
 */
export function hello(binary: string, command: readonly string[], env: NodeJS.ProcessEnv, timeoutS: number = HELLO_TIMEOUT_S): Declared {
  const shown = shellJoin(command);
  const args = ["hello", "--driver", "exec:" + shown, "--call-timeout", String(timeoutS), "--format", "json"];
  const done = spawnSync(binary, args, {
    env,
    encoding: "utf8",
    timeout: (timeoutS + HELLO_OVERHEAD_S) * 1000,
    killSignal: "SIGTERM",
    maxBuffer: 64 * 1024 * 1024,
  });
  const err = done.stderr ?? "";
  if (done.error && (done.error as NodeJS.ErrnoException).code === "ETIMEDOUT") {
    throw new RunError(`the driver \`${shown}\` did not answer hello within ${timeoutS}s, so it was stopped; its output:\n${tail(err)}`);
  }
  if (done.error) throw new RunError(`failed to start ${binary}: ${done.error.message}`);
  if (done.status !== 0) {
    const status = done.signal ? `killed by ${done.signal}` : `exit status ${done.status}`;
    throw new RunError(`the driver \`${shown}\` did not answer hello (\`tinymemory-conformance hello\`: ${status}):\n${tail(err)}`);
  }
  try {
    const declared = JSON.parse(done.stdout) as Declared;
    if (typeof declared?.recall_profile !== "string") throw new Error("no recall_profile");
    return declared;
  } catch {
    throw new RunError(`\`${binary} hello\` printed ${JSON.stringify(done.stdout.slice(0, 200))}, not what a driver declared:\n${tail(err)}`);
  }
}

/** The variable naming the binary's trace file (docs/protocol.md, "Tracing"): a traced run runs one job. */
const TRACE_ENV = "TINYMEMORY_TRACE";

/**
 * `--jobs` for a run of a driver that declared `declared` in its hello,
 * under the environment `env`: the cores this process may use for a
 * driver that declared independent stores (the binary then starts the
 * other jobs' processes beside the first, docs/cli.md "Driver
 * processes"), null (the binary's default, one job) for any other, and
 * null under `TINYMEMORY_TRACE`, since the binary refuses `--jobs` above
 * 1 with a trace. `cores` (this machine's by default) is held to
 * {@link MAX_JOBS}. The pytest plugin's rule (`jobs_for`).
 */
export function jobsFor(
  declared: Pick<Declared, "independent_stores">,
  env: NodeJS.ProcessEnv,
  cores: number = availableParallelism(),
): number | null {
  if (declared.independent_stores !== true || (env[TRACE_ENV] ?? "") !== "") return null;
  return Math.min(MAX_JOBS, Math.max(1, cores));
}

/** The binary's largest `--jobs` (docs/cli.md): each job may hold a store, an exec driver's process, so it refuses more. */
export const MAX_JOBS = 1024;

/** A driver error as the JSON report gives it (docs/reports.md): its kind, the rule or family of some kinds, its own message. */
export interface DriverErrorRecord {
  kind: string;
  rule?: string;
  family?: string;
  message: string;
}

/** A note the run added to a failure after its check ended (docs/reports.md): a trace span, a rerun's verdict. */
export interface FailureNote {
  kind: string;
  text: string;
}

/** A check as the JSON report gives it (docs/reports.md). */
export interface ReportCheck {
  id: string;
  family: string;
  description: string;
  outcome: "pass" | "fail" | "skip" | "timeout" | "expected-failure" | "unexpectedly-passing" | string;
  duration_ms: number;
  message: string | null;
  reason: string | null;
  counterexample: { seed: string; input: string } | null;
  /** The largest score difference within the noise tolerance this check saw (docs/profiles.md, "Score noise"). */
  score_noise?: { difference: number; at: string };
  /** What the run added after the check ended, printed after the message; absent in older reports. */
  notes?: FailureNote[];
}

/** The run's conformance level as the JSON report states it (docs/reports.md, "Conformance level"). */
export interface ReportConformance {
  level: "full" | "partial" | "none" | string;
  profile: string;
  families: { family: string; status: string }[];
  filtered?: boolean;
  timed_out?: string[];
  score_noise?: { difference: number; check: string; at: string };
}

/** The JSON report of a run (docs/reports.md), the fields this package reads. */
export interface Report {
  schema_version: number;
  run: {
    tool_version: string;
    driver_id: string;
    recall_profile?: string;
    seed: string;
    cases: number;
    duration_ms: number;
    load_ms?: number;
    corpus?: { path: string; digest: string; entries: number; namespaces: number } | "none";
  };
  conformance: ReportConformance;
  counts: { total: number; pass: number; fail: number; skip: number; expected_failure: number; unexpectedly_passing: number; timeout?: number };
  checks: ReportCheck[];
  /** Driver errors two or more failed checks share, in order of first appearance; absent when none (and in older reports). */
  shared_errors?: { error: DriverErrorRecord; checks: string[] }[];
}

/** `run-started` of `run --events` (docs/reports.md, "Event stream"): the plan, once the driver answered. */
export interface RunStarted {
  event: "run-started";
  tool_version: string;
  /** The run's first line, as the console prints it. */
  header: string;
  profile: string;
  seed: string;
  cases: number;
  jobs: number;
  /** null: no corpus check selected; "none": --no-corpus; else the directory loaded. */
  corpus: { path: string } | "none" | null;
  /** Whether failing checks are rerun alone after the run (their entries then come again in `check-updated`). */
  reruns: boolean;
  checks: { id: string; family: string }[];
}

/** `run-finished` of `run --events`: the run ended and its report was written. */
export interface RunFinished {
  event: "run-finished";
  duration_ms: number;
  conformance: ReportConformance;
  counts: Report["counts"];
  shared_errors: NonNullable<Report["shared_errors"]>;
  /** Regression bundle paths by check id (with --bundle). */
  bundles: Record<string, string>;
  /** The console's last lines, for a host to print the same. */
  lines: { shared_errors: string[]; conformance: string; closing: string };
}

/** `run-stopped` of `run --events`: the run stopped before its report (a broken environment), its last line. */
export interface RunStopped {
  event: "run-stopped";
  /** "broken-environment", or "error" for another stop. */
  reason: string;
  exit_code: number;
  /** What the binary prints after `error: `: the error, the remedy, where the run stopped, the driver's stderr. */
  message: string;
  /** A broken environment's parts: the driver's error, what to install or start, and the counts. */
  error?: string;
  remedy?: string;
  failed?: number;
  finished?: number;
  passed?: number;
}

/** A line of `run --events`; events this package does not know are skipped. */
export type RunEvent =
  | RunStarted
  | { event: "check-started"; id: string; position: number; total: number }
  | { event: "check-finished" | "check-updated"; entry: ReportCheck }
  | RunFinished
  | RunStopped
  | { event: "corpus-progress"; done: number; total: number };

/** What a run of the binary gave. */
export interface RunResult {
  checks: Map<string, ReportCheck>;
  report: Report;
  /** The command line, without the report options and the --check selection. */
  shown: string;
  /** Regression bundle paths by check id (with `bundleDir`). */
  bundles: Map<string, string>;
  /** The plan and the end of the run, as its event stream gave them; null when missing. */
  started: RunStarted | null;
  finished: RunFinished | null;
  /** Entries the run added a note to after their check finished (a rerun's verdict), in the order they came. */
  updated: ReportCheck[];
}

/** The settings of a run. */
export interface RunSettings {
  binary: string;
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  profile: string;
  /** Check ids to run; `null` for every check of the profile. */
  selected: readonly string[] | null;
  corpus: string | null;
  seed: string | null;
  cases: number | null;
  timeout: number | null;
  /** Seconds the binary waits for one answer of the driver (`--call-timeout`); null for the binary's default. */
  callTimeout: number | null;
  /** Checks run at once (`--jobs`); null for the binary's default. */
  jobs: number | null;
  bundleDir: string | null;
  /** The binary's `list --format json`, for the deadline and the exit codes. */
  listing: Listing;
  /** The ids of the checks run (`selected`, or every check of the profile), for the deadline. */
  ids: readonly string[];
}

/**
 * Seconds the whole run of the checks `ids` may take: each one's budget as
 * the binary's `listing` gives it, the larger of its base (`timeout`
 * seconds when given) and its time per case times `cases` (the binary's
 * default when null), plus RUN_OVERHEAD.
 */
export function deadline(listing: Listing, ids: readonly string[], timeout: number | null, cases: number | null): number {
  const c = cases ?? listing.defaults.cases;
  const wanted = new Set(ids);
  return listing.checks
    .filter((check) => wanted.has(check.id))
    .reduce((total, { budget }) => total + Math.max(timeout ?? budget.base_ms / 1000, ((budget.per_case_ms ?? 0) / 1000) * c), RUN_OVERHEAD);
}

/** The `run` command line of `s`, without the report options and the selection. */
export function runArgs(s: RunSettings): string[] {
  const args = ["run", "--driver", "exec:" + shellJoin(s.command), "--profile", s.profile];
  args.push(...(s.corpus !== null ? ["--corpus", s.corpus] : ["--no-corpus"]));
  if (s.seed !== null) args.push("--seed", s.seed);
  if (s.cases !== null) args.push("--cases", String(s.cases));
  if (s.timeout !== null) args.push("--timeout", String(s.timeout));
  if (s.callTimeout !== null) args.push("--call-timeout", String(s.callTimeout));
  if (s.jobs !== null) args.push("--jobs", String(s.jobs));
  if (s.bundleDir !== null) args.push("--bundle", s.bundleDir);
  return args;
}

/**
 * Runs the suite once over `s.selected` and reads its report. The
 * binary's stdin is a pipe this process holds until the run ended, with
 * `--stop-on-stdin-eof`: should this process die without ending the run
 * (SIGKILL), the kernel closes the pipe and the binary stops itself and
 * its drivers (docs/cli.md, "Signals"). Throws
 * RunError for a usage error or a driver that cannot be opened (quoting
 * the binary's stderr), a run outliving its deadline (it is stopped), or
 * no readable report.
 */
export async function runSuite(s: RunSettings, onEvent: (event: RunEvent) => void = () => {}): Promise<RunResult> {
  const base = runArgs(s);
  const shown = shellJoin([s.binary, ...base]);
  const dir = mkdtempSync(join(tmpdir(), "tinymemory-"));
  const output = join(dir, "report.json");
  // --stop-on-stdin-eof: the binary's stdin is a pipe only this process
  // holds (and never writes to), so the run and its drivers stop when this
  // process is gone, killed (SIGKILL) or not.
  // The events go to a file read as it grows: the binary renames it into
  // place once the driver answered, then appends a line at a time. (A
  // descriptor, `--events fd:3`, is no pipe here: node gives a child a
  // socket, which /dev/fd/3 does not open.)
  const events = join(dir, "events.jsonl");
  const args = [...base, "--format", "json", "--output", output, "--quiet", "--all-skipped", "pass", "--stop-on-stdin-eof"];
  args.push("--events", events);
  let plan: RunStarted | null = null;
  let finished: RunFinished | null = null;
  let stopped: RunStopped | null = null;
  const updated: ReportCheck[] = [];
  const stream = new EventsFile(events);
  // The deadline counts again from the first check: the start-ups and the
  // corpus load before it are the binary's to bound (each request within
  // --call-timeout), and a slow store's load may take minutes.
  let checksBegan = false;
  let rearm = () => {};
  const take = (line: string) => {
    if (line.trim() === "") return;
    let event: RunEvent;
    try {
      event = JSON.parse(line) as RunEvent;
    } catch {
      return;
    }
    if (event.event === "check-started" && !checksBegan) {
      checksBegan = true;
      rearm();
    }
    if (event.event === "run-started") plan = event as RunStarted;
    else if (event.event === "run-finished") finished = event as RunFinished;
    else if (event.event === "run-stopped") stopped = event as RunStopped;
    else if (event.event === "check-updated") updated.push((event as { entry: ReportCheck }).entry);
    onEvent(event);
  };
  for (const id of s.selected ?? []) args.push("--check", id);
  const limit = deadline(s.listing, s.ids, s.timeout, s.cases);
  const started = Date.now();
  try {
    const { status, signal, out, err, timedOut } = await new Promise<{
      status: number | null;
      signal: NodeJS.Signals | null;
      out: string;
      err: string;
      timedOut: boolean;
    }>((resolvePromise, reject) => {
      const child = spawn(s.binary, args, { env: s.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
      const ticker = setInterval(() => stream.lines().forEach(take), EVENTS_POLL_MS);
      // Never written to; a binary that exited early must not make its
      // end an unhandled error of this process.
      child.stdin.on("error", () => {});
      let out = "";
      let err = "";
      let timedOut = false;
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
      // SIGTERM first: the binary then ends its driver processes.
      const stop = () => {
        timedOut = true;
        try {
          process.kill(-(child.pid as number), "SIGTERM");
          setTimeout(() => {
            try {
              process.kill(-(child.pid as number), "SIGKILL");
            } catch {}
          }, 5000).unref();
        } catch {}
      };
      let timer = setTimeout(stop, limit * 1000);
      rearm = () => {
        clearTimeout(timer);
        timer = setTimeout(stop, limit * 1000);
      };
      child.on("error", (e) => {
        clearTimeout(timer);
        clearInterval(ticker);
        stream.close();
        reject(new RunError(`failed to start ${s.binary}: ${e.message}`));
      });
      child.on("close", (status, signal) => {
        clearInterval(ticker);
        stream.lines().forEach(take);
        stream.close().forEach(take);
        // After the last lines: a check-started read only now rearms the
        // deadline, and that timer would keep this process alive for the
        // run's whole limit after the run ended.
        clearTimeout(timer);
        rearm = () => {};
        child.stdin.destroy();
        resolvePromise({ status, signal, out, err, timedOut });
      });
    });
    if (timedOut) {
      throw new RunError(
        `the conformance run did not finish within ${limit}s${checksBegan ? " of its first check" : ""} (every check's timeout plus ${RUN_OVERHEAD}s), ` +
          `so it was stopped: \`${shown}\`; its output:\n${tail(out + err)}`,
      );
    }
    const codes = s.listing.exit_codes;
    if (status === codes.setup) throw new RunError(`the suite could not open the driver (exit ${status}): \`${shown}\`\n${tail(err)}`);
    if (status === codes.usage) throw new RunError(`the suite refused its arguments (exit ${status}): \`${shown}\`\n${tail(err)}`);
    if (status === codes.broken_environment) {
      // The stop as the binary reports it (run-stopped): the error and the remedy first, the driver's stderr after them.
      const said = (stopped as RunStopped | null)?.message ?? `the run stopped (exit ${status}) with no run-stopped event; its output:\n${tail(out + err)}`;
      throw new BrokenEnvironment(`${said}\nthe run: \`${shown}\``);
    }
    let report: Report;
    try {
      report = JSON.parse(readFileSync(output, "utf8"));
    } catch (e) {
      const how = signal ? `killed by ${signal}` : `exit status ${status}`;
      throw new RunError(
        `the conformance run (${how}, after ${((Date.now() - started) / 1000).toFixed(1)}s) left no readable report ` +
          `(${(e as Error).message}): \`${shown}\`\n${tail(out + err)}`,
      );
    }
    const checks = new Map<string, ReportCheck>();
    for (const c of report.checks ?? []) checks.set(c.id, c);
    const done = finished as RunFinished | null;
    const bundles = new Map<string, string>(Object.entries(done?.bundles ?? {}));
    return { checks, report, shown, bundles, started: plan as RunStarted | null, finished: done, updated };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
