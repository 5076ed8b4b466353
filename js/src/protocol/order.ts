/**
 * Bytewise (UTF-8) order, the contract's order of namespaces, keys and
 * export records. JavaScript's `<` and the default `sort()` compare UTF-16
 * code units, which is not the same order: "\u{1F600}" (a surrogate pair,
 * 0xD83D...) sorts before "\uFFFD" in UTF-16 and after it in UTF-8.
 * `localeCompare` is further off still (it folds case and accents).
 */

/**
 * Negative, zero or positive as `a` sorts before, with or after `b` by
 * their UTF-8 bytes (which is code point order). Linear in the common prefix.
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Code units from 0xD800 up: surrogates (0xD800-0xDFFF) stand for code
    // points above 0xFFFF, so they sort after 0xE000-0xFFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** An entry's place in a store: (namespace, key). */
export type Position = readonly [namespace: string, key: string];

/** Orders positions by namespace, then key, each bytewise. */
export function comparePositions(a: Position, b: Position): number {
  return compareBytes(a[0], b[0]) || compareBytes(a[1], b[1]);
}

/** `values` sorted bytewise, a new array. */
export function sortBytewise(values: Iterable<string>): string[] {
  return Array.from(values).sort(compareBytes);
}
