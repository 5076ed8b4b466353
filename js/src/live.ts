/**
 * One run of the binary as it goes: its plan once the driver answered and
 * each check's report entry once the check finished, read from the run's
 * event stream (`run --events`, docs/reports.md "Event stream"), so a
 * test framework reports each check's test as its check finishes rather
 * than all of them when the run ends.
 */

import { shellJoin } from "./shell.js";
import { runArgs, runSuite, type ReportCheck, type RunResult, type RunSettings, type RunStarted } from "./run.js";

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Awaited or not: a run that failed must not be an unhandled rejection.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** A run started with `runSuite`, its plan and its checks' entries as they come. */
export class LiveRun {
  /** The plan (`run-started`); null when the run ended without one (its `done` says why). */
  readonly started: Promise<RunStarted | null>;
  /** The command line, without the report options and the selection. */
  readonly shown: string;
  /** The whole run: rejects with a RunError as `runSuite` does. */
  readonly done: Promise<RunResult>;
  private readonly plan = deferred<RunStarted | null>();
  private readonly entries = new Map<string, Deferred<ReportCheck | undefined>>();
  private ended = false;

  constructor(settings: RunSettings) {
    this.started = this.plan.promise;
    this.shown = shellJoin([settings.binary, ...runArgs(settings)]);
    this.done = runSuite(settings, (event) => {
      if (event.event === "run-started") this.plan.resolve(event as RunStarted);
      else if (event.event === "check-finished") this.slot((event as { entry: ReportCheck }).entry.id).resolve((event as { entry: ReportCheck }).entry);
    });
    this.done.then(
      (result) => {
        this.ended = true;
        this.plan.resolve(null);
        // A check the stream did not give (none should be missing): the report's entry.
        for (const [id, slot] of this.entries) slot.resolve(result.checks.get(id));
      },
      (error: unknown) => {
        this.ended = true;
        this.plan.resolve(null);
        for (const slot of this.entries.values()) slot.reject(error);
      },
    );
    this.done.catch(() => {});
  }

  private slot(id: string): Deferred<ReportCheck | undefined> {
    let slot = this.entries.get(id);
    if (slot === undefined) {
      slot = deferred();
      this.entries.set(id, slot);
      // Asked after the run ended: the report has it, or the run failed.
      if (this.ended) this.done.then((r) => slot!.resolve(r.checks.get(id)), (e: unknown) => slot!.reject(e));
    }
    return slot;
  }

  /**
   * The entry of the check `id` once it finished (`check-finished`), or
   * undefined when the run ended without it. Rejects with the run's
   * RunError when the run failed before the check finished.
   */
  entry(id: string): Promise<ReportCheck | undefined> {
    return this.slot(id).promise;
  }
}

