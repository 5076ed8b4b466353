//! Making arbitrary driver output safe to show: messages quote what a
//! driver returned, which can hold NUL, escape sequences or markup.

pub use tinymemory_api::shown::visible;

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

/// One Markdown table cell: hidden characters made visible, `|`, `\`,
/// `[` and `]` escaped, line breaks as `<br>`, and `<`, `>`, `&` as entities so
/// nothing a driver returned becomes HTML.
pub(crate) fn markdown_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in visible(s).chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\\' => out.push_str("\\\\"),
            '`' => out.push_str("\\`"),
            '*' => out.push_str("\\*"),
            // A link or image (`![](https://host/pixel)`) would load or
            // link when the report is pasted.
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
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

/// `s` as one inline code span, shown as it is: hidden characters made
/// visible and line breaks as `\n` and `\r` (a span in a heading must
/// stay on its line), between backtick runs one longer than any inside,
/// padded with a space where the text starts or ends with a backtick or a
/// space (CommonMark takes one off each side). No escape or entity is
/// read inside a span, so none is written.
pub(crate) fn markdown_code(s: &str) -> String {
    let body = visible(s).replace('\r', "\\r").replace('\n', "\\n");
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if body.is_empty() || body.starts_with(['`', ' ']) || body.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
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

    /// A link or an image in a driver's text (`![](https://host/pixel)`)
    /// stays text: a pasted report loads nothing and links nowhere.
    #[test]
    fn markdown_cells_hold_no_link_or_image() {
        assert_eq!(
            markdown_cell("![x](https://host/p.png) [y](z)"),
            "!\\[x\\](https://host/p.png) \\[y\\](z)"
        );
    }

    /// An inline code span shows its text as it is: a backtick inside does
    /// not end it, no escape or entity shows as typed, and a line break
    /// cannot end the heading it is in.
    #[test]
    fn markdown_code_spans_cannot_be_closed_early() {
        assert_eq!(markdown_code("acme-db"), "`acme-db`");
        assert_eq!(markdown_code("a`b <i> & *c*"), "``a`b <i> & *c*``");
        assert_eq!(markdown_code("`x``"), "``` `x`` ```");
        assert_eq!(markdown_code(" padded "), "`  padded  `");
        assert_eq!(
            markdown_code("one\ntwo\r\n## FULL"),
            "`one\\ntwo\\r\\n## FULL`"
        );
    }

    #[test]
    fn fences_outgrow_the_content() {
        assert_eq!(markdown_fence("x"), "```text\nx\n```\n");
        assert_eq!(markdown_fence("a ```` b\n"), "`````text\na ```` b\n`````\n");
    }
}
