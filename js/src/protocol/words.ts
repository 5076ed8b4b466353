/**
 * The contract's words (tinymemory_api::text::words): maximal runs of
 * word characters, which are Unicode alphabetic characters (the
 * `Alphabetic` property: letters, letter numbers and the circled and
 * squared letters), numbers (`N*`), combining marks (`M*`) and
 * private-use characters (`Co`), as Rust's `char::is_alphanumeric` plus
 * `is_combining_mark` plus the private-use ranges. Everything else
 * (spaces, punctuation, query operators, emoji, controls) separates words.
 */

const WORD = /[\p{Alphabetic}\p{N}\p{M}\p{Co}]+/gu;
const ONLY_WHITE_SPACE = /^\p{White_Space}*$/u;

/** The words of `text`, in order, as written. Queries are plain text: this is the only thing done to them. */
export function splitWords(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** splitWords(text), each lowercased (`toLowerCase`: Unicode's full, locale-independent mapping). */
export function words(text: string): string[] {
  return splitWords(text).map((w) => w.toLowerCase());
}

/**
 * True for a query with nothing but Unicode White_Space in it (or
 * nothing): the characters Rust's `str::trim` removes, which a recall
 * answers with no hits. Not `text.trim() === ""`: JavaScript's trim
 * removes U+FEFF, which is not White_Space, and keeps U+0085, which is.
 */
export function isBlank(text: string): boolean {
  return ONLY_WHITE_SPACE.test(text);
}
