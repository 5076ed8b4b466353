/**
 * Text as the Python library (python/tinymemory/protocol.py) writes it in
 * error messages, so that a JavaScript driver's messages are the same
 * bytes as a Python driver's for the same input (fixtures/protocol-cases.json
 * holds both to that). Every function here works on code points, never
 * on UTF-16 code units: cutting a string by `.slice` could split a
 * surrogate pair, and a lone surrogate cannot be written as UTF-8.
 */

/** The code points of `text`. */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

/**
 * `json.dumps(text, ensure_ascii=False)`: the text in double quotes with
 * `"`, `\` and control characters below U+0020 escaped. `JSON.stringify`
 * escapes the same set for a well-formed string (ECMA-262 QuoteJSONString).
 */
export function jsonQuote(text: string): string {
  return JSON.stringify(text);
}

/**
 * At most `limit` code points of `text`, with "…" when cut, quoted as
 * jsonQuote does: the library's `_shorten` (Rust's `shown` quoting).
 */
export function shorten(text: string, limit = 80): string {
  const points = codePoints(text);
  const shown = points.length <= limit ? text : points.slice(0, limit).join("") + "\u2026";
  return jsonQuote(shown);
}

// Python's str.isprintable() is false for these general categories
// (Objects/unicodectype.c), and for no other character but those.
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

/**
 * Python's `repr()` of a string (Objects/unicodeobject.c, unicode_repr):
 * single quotes unless the text holds `'` and no `"`; `\\`, the quote,
 * `\t`, `\n`, `\r` escaped; other ASCII controls and DEL as `\xNN`; a
 * non-ASCII character Python does not print as `\xNN`, `\uNNNN` or
 * `\UNNNNNNNN`. The namespace rule's message quotes the name this way.
 */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += "\\x" + hex(cp, 2);
    else if (cp < 0x7f) out += ch;
    else if (!NOT_PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += "\\x" + hex(cp, 2);
    else if (cp <= 0xffff) out += "\\u" + hex(cp, 4);
    else out += "\\U" + hex(cp, 8);
  }
  return out + quote;
}

/**
 * A number as Python's `str(float)` writes the values that reach a
 * message here: `nan`, `inf` and `-inf` for the non-finite ones (where
 * JavaScript writes NaN and Infinity), JavaScript's own spelling otherwise.
 */
export function pyFloat(value: unknown): string {
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "nan";
    if (value === Infinity) return "inf";
    if (value === -Infinity) return "-inf";
  }
  return String(value);
}
