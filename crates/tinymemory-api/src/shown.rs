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
