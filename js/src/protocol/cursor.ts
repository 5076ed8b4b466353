/**
 * Export cursors and paging: the keyset token of tinymemory_api::
 * portability::KeysetCursor, which the in-tree drivers and the Python
 * library issue too, so a cursor means the same position in every one.
 */

import { DriverError, invalid } from "./errors.js";
import { codePoints, jsonQuote, shorten } from "./quote.js";
import { comparePositions, type Position } from "./order.js";
import { decodeUtf8 } from "./utf8.js";
import { validateKey, validateNamespace } from "./validate.js";

/** The token's prefix; the version in it changes with the format. */
export const CURSOR_PREFIX = "tm-export-1.";

const HEX16 = /^[0-9a-fA-F]{16}$/;
const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const U64 = 0xffffffffffffffffn;

/** 64-bit FNV-1a (Fowler, Noll, Vo) of `data`. */
export function fnv1a64(data: Uint8Array): bigint {
  let h = FNV_OFFSET;
  for (const byte of data) h = ((h ^ BigInt(byte)) * FNV_PRIME) & U64;
  return h;
}

const utf8 = (text: string) => Buffer.from(text, "utf8");

/**
 * The export cursor for the position after `after` (a [namespace, key]
 * pair), or for the start of the store when `after` is `null`:
 * "tm-export-1.", the namespace's and the key's UTF-8 bytes in lowercase
 * hex separated by ".", then "." and a 64-bit FNV-1a checksum (16 hex
 * digits) of what precedes it, so an edited or truncated token is refused
 * rather than read as another position.
 */
export function encodeCursor(after: Position | null): string {
  const body =
    after === null
      ? CURSOR_PREFIX + "."
      : CURSOR_PREFIX + utf8(after[0]).toString("hex") + "." + utf8(after[1]).toString("hex");
  return `${body}.${fnv1a64(utf8(body)).toString(16).padStart(16, "0")}`;
}

function quoted(token: string): string {
  const points = codePoints(token);
  return jsonQuote(points.slice(0, 60).join("")) + (points.length > 60 ? "\u2026" : "");
}

/**
 * The position (a [namespace, key] pair, or `null` for the start) of a
 * token encodeCursor made. Throws `invalid("export.cursor_unknown")` for
 * any other text, saying what is wrong with it: an export never silently
 * restarts.
 */
export function decodeCursor(token: string): Position | null {
  const unknown = () =>
    invalid(
      "export.cursor_unknown",
      `export cursor ${typeof token === "string" ? quoted(token) : JSON.stringify(token) ?? String(token)} was not issued by this driver`,
    );
  if (typeof token !== "string") throw unknown();
  const dot = token.lastIndexOf(".");
  if (dot < 0) throw unknown();
  const body = token.slice(0, dot);
  const checksum = token.slice(dot + 1);
  if (!HEX16.test(checksum)) throw unknown();
  if (BigInt("0x" + checksum) !== fnv1a64(utf8(body)) || !body.startsWith(CURSOR_PREFIX)) throw unknown();
  const rest = body.slice(CURSOR_PREFIX.length);
  if (rest === ".") return null;
  const sep = rest.indexOf(".");
  if (sep < 0) throw unknown();
  const namespaceHex = rest.slice(0, sep);
  const keyHex = rest.slice(sep + 1);
  if (!LOWER_HEX.test(namespaceHex) || !LOWER_HEX.test(keyHex)) throw unknown();
  // The checksum matched, so the token is one encodeCursor made (edits are
  // refused above): past here the position itself is what is wrong.
  const unusable = (what: string, detail: string) =>
    invalid(
      "export.cursor_unknown",
      `export cursor ${quoted(token)} has a valid checksum but names ${what} that no store can hold (${detail}): ` +
        "it was encoded from a position that is not an entry's (encode_cursor takes the (namespace, key) of a stored entry)",
    );
  const decodePart = (hex: string, what: string): string => {
    const decoded = decodeUtf8(Buffer.from(hex, "hex"));
    if (!decoded.ok) throw unusable(what, `its bytes are not UTF-8: ${decoded.reason} at byte ${decoded.start}`);
    return decoded.text;
  };
  const namespace = decodePart(namespaceHex, "a namespace");
  const key = decodePart(keyHex, "a key");
  const rethrow = (what: string, check: () => void) => {
    try {
      check();
    } catch (e) {
      if (e instanceof DriverError) throw unusable(what, `${e.rule}: ${e.message}`);
      throw e;
    }
  };
  rethrow(`namespace ${shorten(namespace, 60)}`, () => validateNamespace(namespace));
  rethrow(`key ${shorten(key, 60)}`, () => validateKey(key));
  return [namespace, key];
}

/** The index of the first of the sorted `positions` after `after` (bisect_right). */
function firstAfter(positions: readonly Position[], after: Position): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePositions(after, positions[mid] as Position) < 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One export page over `positions`, every (namespace, key) of the store
 * sorted by comparePositions (bytewise, not JavaScript's `sort()`): the
 * positions of the page, at most `limit` strictly after the cursor's, and
 * `nextCursor`, `null` exactly when none follows the page (a limit of 0
 * with positions left gives an empty page with a cursor). Keyset paging:
 * stable while entries are stored or forgotten. Throws decodeCursor's
 * error for a cursor it did not make.
 */
export function pageAfter(
  positions: readonly Position[],
  cursor: string | null,
  limit: number,
): { page: Position[]; nextCursor: string | null } {
  const after = cursor === null ? null : decodeCursor(cursor);
  const start = after === null ? 0 : firstAfter(positions, after);
  // A limit up to 2^64 - 1 arrives as a number above 2^53: slice clamps it.
  const page = positions.slice(start, start + Math.min(limit, positions.length));
  if (start + page.length >= positions.length) return { page, nextCursor: null };
  return { page, nextCursor: encodeCursor(page.length > 0 ? (page[page.length - 1] as Position) : after) };
}
