/** What both adapters share: export and import over a sorted position list. */

import type { Entry, ExportPage, ImportAnswer, MemoryRecord } from "../protocol/types.js";
import { DriverError } from "../protocol/errors.js";
import { comparePositions, type Position } from "../protocol/order.js";
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
