/**
 * One conformance run of a driver: its `hello`, then the binary's `run`
 * with `--format json`, read back as the report (docs/reports.md). The
 * command line is the Python plugin's (python/tinymemory/testing/_run.py),
 * so the two integrations run the suite the same way.
 */

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
 * The binary stopped before any check on a broken environment (exit 5: a
 * missing module, a refused connection, a missing extension); the message
 * is its own, the error and what to install or start.
 */
export class BrokenEnvironment extends RunError {
  constructor(message: string) {
    super(message);
    this.name = "BrokenEnvironment";
  }
}

/** Seconds for the start, the corpus load and the report, besides the checks. */
const RUN_OVERHEAD = 600;
/** Seconds the driver may take to answer hello, and the binary to start and end it besides. */
const HELLO_TIMEOUT_S = 60;
const HELLO_OVERHEAD_S = 30;
const STDERR_LINES = 40;

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
}

/**
 * What the driver `command` (its words) declared in its `hello`: the
 * binary starts it, asks, checks the answer as a run does, and ends it.
 * Throws RunError for a driver that exits or hangs without answering,
 * answers something else, or speaks another protocol version, quoting
 * the binary's error (which quotes the driver's stderr).
 */
export function hello(binary: string, command: readonly string[], env: NodeJS.ProcessEnv): Declared {
  const shown = shellJoin(command);
  const args = ["hello", "--driver", "exec:" + shown, "--call-timeout", String(HELLO_TIMEOUT_S), "--format", "json"];
  const done = spawnSync(binary, args, {
    env,
    encoding: "utf8",
    timeout: (HELLO_TIMEOUT_S + HELLO_OVERHEAD_S) * 1000,
    killSignal: "SIGTERM",
    maxBuffer: 64 * 1024 * 1024,
  });
  const err = done.stderr ?? "";
  if (done.error && (done.error as NodeJS.ErrnoException).code === "ETIMEDOUT") {
    throw new RunError(`the driver \`${shown}\` did not answer hello within ${HELLO_TIMEOUT_S}s, so it was stopped; its output:\n${tail(err)}`);
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
}

/** What a run of the binary gave. */
export interface RunResult {
  checks: Map<string, ReportCheck>;
  report: { run?: { seed?: string; cases?: number } } & Record<string, unknown>;
  /** The command line, without the report options and the --check selection. */
  shown: string;
  /** Regression bundle paths by check id (with `bundleDir`). */
  bundles: Map<string, string>;
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
export async function runSuite(s: RunSettings): Promise<RunResult> {
  const base = runArgs(s);
  const shown = shellJoin([s.binary, ...base]);
  const dir = mkdtempSync(join(tmpdir(), "tinymemory-"));
  const output = join(dir, "report.json");
  const events = join(dir, "events.jsonl");
  // --stop-on-stdin-eof: the binary's stdin is a pipe only this process
  // holds (and never writes to), so the run and its drivers stop when this
  // process is gone, killed (SIGKILL) or not.
  const args = [...base, "--format", "json", "--output", output, "--events", events, "--quiet", "--all-skipped", "pass", "--stop-on-stdin-eof"];
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
      // Never written to; a binary that exited early must not make its
      // end an unhandled error of this process.
      child.stdin.on("error", () => {});
      let out = "";
      let err = "";
      let timedOut = false;
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
      // SIGTERM first: the binary then ends its driver processes.
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-(child.pid as number), "SIGTERM");
          setTimeout(() => {
            try {
              process.kill(-(child.pid as number), "SIGKILL");
            } catch {}
          }, 5000).unref();
        } catch {}
      }, limit * 1000);
      child.on("error", (e) => {
        clearTimeout(timer);
        reject(new RunError(`failed to start ${s.binary}: ${e.message}`));
      });
      child.on("close", (status, signal) => {
        clearTimeout(timer);
        child.stdin.destroy();
        resolvePromise({ status, signal, out, err, timedOut });
      });
    });
    if (timedOut) {
      throw new RunError(
        `the conformance run did not finish within ${limit}s (every check's timeout plus ${RUN_OVERHEAD}s), ` +
          `so it was stopped: \`${shown}\`; its output:\n${tail(out + err)}`,
      );
    }
    const codes = s.listing.exit_codes;
    if (status === codes.setup) throw new RunError(`the suite could not open the driver (exit ${status}): \`${shown}\`\n${tail(err)}`);
    if (status === codes.usage) throw new RunError(`the suite refused its arguments (exit ${status}): \`${shown}\`\n${tail(err)}`);
    if (status === codes.broken_environment) {
      // The binary's message whole: the error and the remedy first, the driver's stderr after them.
      throw new BrokenEnvironment(`${err.trim().replace(/^error: /, "")}\nthe run: \`${shown}\``);
    }
    let report: RunResult["report"];
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
    for (const c of (report.checks as ReportCheck[] | undefined) ?? []) checks.set(c.id, c);
    // The bundles written, by check id: the event stream's last event
    // (docs/reports.md, "Event stream").
    const bundles = new Map<string, string>();
    for (const line of readFileSync(events, "utf8").split("\n")) {
      if (!line) continue;
      const event = JSON.parse(line) as { event?: string; bundles?: Record<string, string> };
      if (event.event === "run-finished") for (const [id, path] of Object.entries(event.bundles ?? {})) bundles.set(id, path);
    }
    return { checks, report, shown, bundles };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
