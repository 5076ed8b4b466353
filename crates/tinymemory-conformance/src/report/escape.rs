//! Making arbitrary driver output safe to show: messages quote what a
//! driver returned, which can hold NUL, escape sequences or markup.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `true` for characters shown as an escape rather than as themselves:
/// every control character except tab, line feed and carriage return (the
/// C0 set is illegal in XML 1.0, and escape sequences would drive a
/// terminal), and the non-characters U+FFFE and U+FFFF (also illegal in
/// XML 1.0).
fn hidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{FFFE}' | '\u{FFFF}')
}

/// `s` with every hidden character written as Rust's `\u{..}` escape, so
/// NUL shows as `\u{0}` and nothing in it can drive a terminal or break an
/// XML parser: for any text from a driver or a file that is printed.
///
/// ```
/// use tinymemory_conformance::report::visible;
/// assert_eq!(visible("id\u{1b}[2J"), "id\\u{1b}[2J");
/// ```
#[must_use]
pub fn visible(s: &str) -> Cow<'_, str> {
    if !s.chars().any(hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hidden(c) {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// XML character data: hidden characters made visible, then `&`, `<` and
/// `>` escaped.
pub(crate) fn xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in visible(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            // A bare CR in character data is normalised to LF by parsers.
            '\r' => out.push_str("&#13;"),
            _ => out.push(c),
        }
    }
    out
}

/// An XML attribute value (for double quotes): as [`xml_text`], plus
/// quotes, and tab, line feed and carriage return as character references
/// so attribute-value normalisation does not turn them into spaces.
pub(crate) fn xml_attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in visible(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            _ => out.push(c),
        }
    }
    out
}

/// One Markdown table cell: hidden characters made visible, `|` and `\`
/// escaped, line breaks as `<br>`, and `<`, `>`, `&` as entities so
/// nothing a driver returned becomes HTML.
pub(crate) fn markdown_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in visible(s).chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\\' => out.push_str("\\\\"),
            '`' => out.push_str("\\`"),
            '*' => out.push_str("\\*"),
            '_' => out.push_str("\\_"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' => out.push_str("<br>"),
            '\r' => {}
            _ => out.push(c),
        }
    }
    out
}

/// A fenced code block holding `s` verbatim (hidden characters made
/// visible): the fence is one backtick longer than the longest backtick
/// run inside, so no content can close it.
pub(crate) fn markdown_fence(s: &str) -> String {
    let body = visible(s);
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let mut out = format!("{fence}text\n{body}");
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
    out
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
        assert_eq!(visible("\u{FFFF}\u{7f}"), "\\u{ffff}\\u{7f}");
        assert!(matches!(visible("plain é 中"), Cow::Borrowed(_)));
    }

    #[test]
    fn xml_escapes_markup_and_line_breaks_in_attributes() {
        assert_eq!(
            xml_text("<a & b>\r\n\u{0}"),
            "&lt;a &amp; b&gt;&#13;\n\\u{0}"
        );
        assert_eq!(
            xml_attr("\"x\"\n'y'\t"),
            "&quot;x&quot;&#10;&apos;y&apos;&#9;"
        );
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        assert_eq!(
            markdown_cell("a|b\nc <i> `d`"),
            "a\\|b<br>c &lt;i&gt; \\`d\\`"
        );
    }

    #[test]
    fn fences_outgrow_the_content() {
        assert_eq!(markdown_fence("x"), "```text\nx\n```\n");
        assert_eq!(markdown_fence("a ```` b\n"), "`````text\na ```` b\n`````\n");
    }
}
