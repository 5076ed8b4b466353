/**
 * Driver text quoted in error messages as the suite quotes it (Rust's
 * `tinymemory_api::shown`): JSON-quoted, cut at a number of code points.
 * Every function here works on code points, never on UTF-16 code units:
 * cutting a string by `.slice` could split a surrogate pair, and a lone
 * surrogate cannot be written as UTF-8. Messages are for people; tests
 * and hosts match an error by its kind and rule (fixtures/protocol-cases.json).
 */

/** The code points of `text`. */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

/** `text` in double quotes with `"`, `\` and control characters below U+0020 escaped. */
export function jsonQuote(text: string): string {
  return JSON.stringify(text);
}

/** At most `limit` code points of `text`, with "…" when cut, quoted as jsonQuote does. */
export function shorten(text: string, limit = 80): string {
  const points = codePoints(text);
  const shown = points.length <= limit ? text : points.slice(0, limit).join("") + "\u2026";
  return jsonQuote(shown);
}
