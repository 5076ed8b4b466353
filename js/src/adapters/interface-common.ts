/**
 * What the interface family's scenarios share in both JavaScript adapters
 * (docs/protocol.md, "The interface op"): a call observed as `{ ok }` or
 * `{ error }`, the sync path every JavaScript interface lacks, and the
 * answer for a check the adapter has no scenario for.
 */

import { DriverError } from "../protocol/errors.js";

/**
 * The inputs the suite sent for a scenario (docs/protocol.md, "The
 * interface op" gives each check's): reading one the request lacks throws
 * a `backend` DriverError naming it.
 */
export type Inputs = Record<string, any>;

function required(inputs: Record<string, unknown>, check: string): Inputs {
  return new Proxy(inputs, {
    get(target, name) {
      if (typeof name === "string" && !Object.hasOwn(target, name)) {
        throw new DriverError("backend", `the inputs of ${JSON.stringify(check)} lack ${JSON.stringify(name)} (docs/protocol.md, "The interface op")`);
      }
      return Reflect.get(target, name);
    },
  });
}

/** One call as the observation carries it. */
export type Observed = { ok: unknown } | { error: string };

/**
 * Raised inside a scenario when the store lacks what the path needs (a
 * method LangChain.js leaves optional, VectorStore's default `delete`):
 * the path answers `{ not_implemented }` and the suite does not judge it.
 */
export class PathNotImplemented extends Error {}

/** `error` as the observation shows it: "Type: message". */
export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `${typeof error}: ${String(error)}`;
}

/** `value` as JSON carries it: `undefined` as null, anything JSON cannot hold by its text. */
export function jsonOf(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" || (typeof v === "number" && !Number.isFinite(v)) ? String(v) : v)) ?? "null");
}

/**
 * The observation of a scenario: `{ not_implemented }` for the sync path
 * (`sync` names why: the JavaScript interface is async only) and for a
 * path the store lacks a method of, else what `scenario` saw run with
 * `inputs`. An unknown
 * check is a `backend` DriverError naming the known ones, as the Python
 * adapters answer.
 */
export async function observe<C>(
  scenarios: Record<string, (calls: C, inputs: Inputs) => Promise<Record<string, unknown>>>,
  interfaceName: string,
  check: string,
  useAsync: boolean,
  inputs: Record<string, unknown>,
  sync: string,
  calls: () => C,
): Promise<Record<string, unknown>> {
  const scenario = scenarios[check];
  if (scenario === undefined) {
    throw new DriverError("backend", `no scenario for check ${JSON.stringify(check)} of ${interfaceName}: known are ${JSON.stringify(Object.keys(scenarios).sort())}`);
  }
  if (!useAsync) return { not_implemented: sync };
  try {
    return await scenario(calls(), required(inputs, check));
  } catch (e) {
    if (e instanceof PathNotImplemented) return { not_implemented: e.message };
    throw e;
  }
}
