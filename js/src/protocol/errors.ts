/** Error answers: `DriverError` and the helpers that build the contract's ones. */

import type { ErrorKind, WireError } from "./types.js";
import { shorten } from "./quote.js";

/**
 * An error answer. Throw it from a store method: `serve` answers it as
 * `{"error": {"kind", "message", "rule"}}`. `kind` is `invalid` (the
 * caller's input broke `rule`, one of the contract's rule ids or the
 * driver's own: 1 to 64 bytes of `a-z 0-9 _ - .`), `unavailable`
 * (transient) or `backend` (the engine failed).
 */
export class DriverError extends Error {
  readonly kind: ErrorKind;
  readonly rule: string | null;

  constructor(kind: ErrorKind, message: string, rule: string | null = null) {
    super(message);
    this.name = "DriverError";
    this.kind = kind;
    this.rule = rule;
  }

  /** The error as the wire carries it (`rule` only when there is one). */
  toWire(): WireError {
    const wire: WireError = { kind: this.kind, message: this.message };
    if (this.rule !== null) wire.rule = this.rule;
    return wire;
  }
}

/** A `DriverError` of kind `invalid` for `rule` (tinymemory_api::rules). */
export function invalid(rule: string, message: string): DriverError {
  return new DriverError("invalid", message, rule);
}

/**
 * `error` as the error of entry `index` (0-based) of a batch of `length`:
 * the same kind and rule, the message prefixed as
 * tinymemory_api::batch::in_batch does (`entry 3 of 10 (namespace "a b",
 * key "k"): ...`). An error of another kind than `invalid` is returned as is.
 */
export function inBatch(error: DriverError, index: number, length: number, namespace: string, key: string): DriverError {
  if (error.kind !== "invalid") return error;
  return invalid(
    error.rule as string,
    `entry ${index} of ${length} (namespace ${shorten(namespace)}, key ${shorten(key)}): ${error.message}`,
  );
}
