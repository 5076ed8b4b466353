/** What both adapters share: export and import over a sorted position list. */

import type { Entry, ExportPage, ImportAnswer, MemoryRecord } from "../protocol/types.js";
import { DriverError } from "../protocol/errors.js";
import { compareBytes, comparePositions, type Position } from "../protocol/order.js";
import { pageAfter } from "../protocol/cursor.js";
import { validateRecord } from "../protocol/validate.js";
import { importFailure, record } from "../protocol/wire.js";

/** One export page over `entries` (every entry of the store, any order), keyset-paged. */
export function exportFrom(entries: readonly Entry[], cursor: string | null, limit: number): ExportPage {
  const byPosition = new Map<string, Entry>();
  const positions: Position[] = [];
  for (const e of entries) {
    positions.push([e.namespace, e.key]);
    byPosition.set(JSON.stringify([e.namespace, e.key]), e);
  }
  positions.sort(comparePositions);
  const { page, nextCursor } = pageAfter(positions, cursor, limit);
  const records = page.map((p) => record(byPosition.get(JSON.stringify(p)) as Entry));
  return { records, next_cursor: nextCursor };
}

/** Imports `records` one by one through `write`, reporting each invalid one with its index and rule. */
export async function importEach(records: readonly MemoryRecord[], write: (r: MemoryRecord) => Promise<void>): Promise<ImportAnswer> {
  let imported = 0;
  const failures = [];
  for (const [index, r] of records.entries()) {
    try {
      validateRecord(r);
    } catch (error) {
      if (!(error instanceof DriverError)) throw error;
      failures.push(importFailure(index, r, error));
      continue;
    }
    await write(r);
    imported++;
  }
  return { imported, failures };
}

/** The largest limit handed to an engine: a JavaScript engine's integers are safe up to 2^53 - 1. */
export const ENGINE_MAX_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * `hits` with each run of adjacent equal scores ordered by key, bytewise:
 * the contract's tie order, which no framework interface promises (an
 * engine's ties come in insertion or internal order). Nothing else moves:
 * the engine's ranking stands.
 */
export function tiesByKey(hits: readonly Entry[]): Entry[] {
  const out: Entry[] = [];
  let run: Entry[] = [];
  const flush = () => {
    run.sort((a, b) => compareBytes(a.key, b.key));
    out.push(...run);
    run = [];
  };
  for (const h of hits) {
    if (run.length > 0 && !Object.is(run[0]!.score, h.score)) flush();
    run.push(h);
  }
  flush();
  return out;
}

/**
 * The `limit` best hits with ties by key: `fetch(n)` asks the engine for
 * its best n. When the answer is full and its last hit ties with the
 * limit-th, the entries tied at the cut may continue past it, so the
 * engine is asked again for twice as many (up to `most`, what it can
 * hold or answer), until they are all seen. The Python adapters do the same.
 */
export async function bestWithTies(limit: number, most: number, fetch: (n: number) => Promise<Entry[]>): Promise<Entry[]> {
  let ask = Math.min(limit, most);
  for (;;) {
    const hits = await fetch(ask);
    const full = hits.length >= ask;
    const cut = hits[Math.min(limit, hits.length) - 1];
    const last = hits[hits.length - 1];
    if (full && ask < most && cut !== undefined && last !== undefined && Object.is(cut.score, last.score)) {
      ask = Math.min(ask * 2, most);
      continue;
    }
    return tiesByKey(hits).slice(0, limit);
  }
}

/** The text every failure the mapping itself causes starts with (the Python adapters' too). */
export const MAPPING_LIMIT = "mapping limit (docs/adapters.md)";

/** A `backend` DriverError for what the mapping cannot serve, its message starting with MAPPING_LIMIT. */
export function mappingLimit(message: string): DriverError {
  return new DriverError("backend", `${MAPPING_LIMIT}: ${message}`);
}

/** A score as a store answered it, for a message: `undefined`, `NaN` and the infinities by name, anything else as JSON. */
export function shownScore(score: unknown): string {
  return typeof score === "number" || score === undefined ? String(score) : JSON.stringify(score);
}
