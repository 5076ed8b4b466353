//! Showing text that came from a driver: error messages, driver ids,
//! quoted answers and stderr can hold terminal escapes, NULs or megabytes,
//! and every command that prints them goes through these two functions.

use std::borrow::Cow;
use std::fmt::Write as _;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// The most characters of one driver-supplied string that is shown (a
/// driver id, an error message, a quoted answer): the rest is cut by
/// [`capped`], which says how many bytes it cut. A 50 MB driver id once
/// printed 52 MB for one check.
pub const MAX_SHOWN_CHARS: usize = 1_000;

/// `true` for characters shown as an escape rather than as themselves
/// (`next` is the character after `c`): every control character except
/// tab, line feed and the carriage return of a CRLF (the C0 set is
/// illegal in XML 1.0, escape sequences would drive a terminal, and a
/// lone carriage return would let a driver's message overwrite the start
/// of its own `FAIL` line with `PASS`), the non-characters U+FFFE and
/// U+FFFF (also illegal in XML 1.0), every format character (Unicode
/// category Cf: the bidi overrides and isolates U+202A-202E and
/// U+2066-2069, the marks U+200E and U+200F, zero-width U+200B and
/// U+FEFF, which reorder or hide what follows on the line) and the line
/// and paragraph separators U+2028 and U+2029 (categories Zl and Zp,
/// which break a line where no line feed shows).
fn hidden(c: char, next: Option<char>) -> bool {
    match c {
        '\t' | '\n' => false,
        '\r' => next != Some('\n'),
        '\u{FFFE}' | '\u{FFFF}' => true,
        c if c.is_ascii() => c.is_control(),
        c => matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        ),
    }
}

/// `s`, JSON text, with every hidden character (the C1 controls, format
/// characters, line and paragraph separators and U+FFFE/U+FFFF; JSON
/// writers already escape the C0 set) written as a JSON `\uXXXX` escape,
/// a surrogate pair above U+FFFF. Outside its strings JSON text is ASCII,
/// so every such character is in a string, and a JSON parser reads the
/// escaped text back as the same string: a report, a bundle or a `hello`
/// answer shown by `cat` or a web page cannot reorder how a line displays.
///
/// ```
/// use tinymemory_api::shown::json_escaped;
/// assert_eq!(json_escaped("\"a\u{202e}b\u{85}\""), "\"a\\u202eb\\u0085\"");
/// assert_eq!(json_escaped("\"é\""), "\"é\"");
/// ```
#[must_use]
pub fn json_escaped(json: &str) -> Cow<'_, str> {
    if json.is_ascii() || !json.chars().any(|c| hidden(c, None)) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if !c.is_ascii() && hidden(c, None) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` with every hidden character written as Rust's `\u{..}` escape, so
/// NUL shows as `\u{0}` and nothing in it can drive a terminal or break an
/// XML parser: for any text from a driver or a file that is printed.
///
/// ```
/// use tinymemory_api::shown::visible;
/// assert_eq!(visible("id\u{1b}[2J"), "id\\u{1b}[2J");
/// assert_eq!(visible("\rPASS"), "\\u{d}PASS");
/// assert_eq!(visible("line\r\nline"), "line\r\nline");
/// ```
#[must_use]
pub fn visible(s: &str) -> Cow<'_, str> {
    let with_next = || {
        s.chars()
            .zip(s.chars().skip(1).map(Some).chain(std::iter::once(None)))
    };
    if !with_next().any(|(c, next)| hidden(c, next)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for (c, next) in with_next() {
        if hidden(c, next) {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` cut after [`MAX_SHOWN_CHARS`] characters, followed by `… (N bytes
/// cut)` when it was longer; `s` itself otherwise.
///
/// ```
/// use tinymemory_api::shown::{capped, MAX_SHOWN_CHARS};
/// let long = "é".repeat(MAX_SHOWN_CHARS + 3);
/// assert_eq!(capped(&long), format!("{}… (6 bytes cut)", "é".repeat(MAX_SHOWN_CHARS)));
/// assert_eq!(capped("short"), "short");
/// ```
#[must_use]
pub fn capped(s: &str) -> Cow<'_, str> {
    match s.char_indices().nth(MAX_SHOWN_CHARS) {
        None => Cow::Borrowed(s),
        Some((at, _)) => Cow::Owned(format!("{}… ({} bytes cut)", &s[..at], s.len() - at)),
    }
}

/// [`capped`], then [`visible`]: the form in which a driver-supplied
/// string reaches a terminal or a report.
#[must_use]
pub fn shown(s: &str) -> String {
    visible(&capped(s)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_escapes() {
        assert_eq!(
            visible("a\u{0}b\u{1b}[31m\tc\n"),
            "a\\u{0}b\\u{1b}[31m\tc\n"
        );
        assert_eq!(visible("\u{FFFF}\u{7f}\u{7}"), "\\u{ffff}\\u{7f}\\u{7}");
        assert!(matches!(visible("plain é 中"), Cow::Borrowed(_)));
    }

    /// JSON text with hidden characters escaped reads back as the same
    /// strings, and holds none of them.
    #[test]
    fn json_escapes_read_back_the_same() {
        let original =
            "a\u{85}\u{9f}\u{61c}\u{200e}\u{202e}\u{2066}\u{2028}\u{feff}\u{e0001}é中\\u202e";
        let json = serde_json::to_string(&serde_json::json!({ "id": original })).unwrap();
        let escaped = json_escaped(&json);
        assert!(escaped.is_ascii() || !escaped.chars().any(|c| hidden(c, None)));
        assert!(escaped
            .contains("\\u0085\\u009f\\u061c\\u200e\\u202e\\u2066\\u2028\\ufeff\\udb40\\udc01é中"));
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back["id"], original);
        assert!(matches!(json_escaped("{\"a\":\"é\"}"), Cow::Borrowed(_)));
    }

    /// Bidi and other format characters (category Cf) and the line and
    /// paragraph separators reorder or break how the rest of a line
    /// displays: `FAIL  x \u{202e}SSAP` would show as `FAIL  x PASS`.
    #[test]
    fn format_characters_and_separators_become_escapes() {
        assert_eq!(
            visible("a\u{202e}b\u{2066}c\u{2069}d\u{200b}e\u{200e}\u{200f}\u{feff}f"),
            "a\\u{202e}b\\u{2066}c\\u{2069}d\\u{200b}e\\u{200e}\\u{200f}\\u{feff}f"
        );
        assert_eq!(
            visible("one\u{2028}two\u{2029}three\u{ad}\u{e0001}"),
            "one\\u{2028}two\\u{2029}three\\u{ad}\\u{e0001}"
        );
        // Marks and spaces that only combine or separate stay as they are.
        assert!(matches!(visible("e\u{301} \u{a0}x"), Cow::Borrowed(_)));
    }

    #[test]
    fn long_text_is_cut_and_says_by_how_much() {
        let exact = "x".repeat(MAX_SHOWN_CHARS);
        assert!(matches!(capped(&exact), Cow::Borrowed(_)));
        let long = "x".repeat(MAX_SHOWN_CHARS + 52_000_000);
        assert_eq!(capped(&long), format!("{exact}… (52000000 bytes cut)"));
        assert_eq!(
            shown(&format!("\u{1b}{}", "y".repeat(MAX_SHOWN_CHARS))),
            format!(
                "\\u{{1b}}{}… (1 bytes cut)",
                "y".repeat(MAX_SHOWN_CHARS - 1)
            )
        );
    }
}
