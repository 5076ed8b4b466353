//! Licence texts: plain text split into paragraphs.

/// One paragraph of a text file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Paragraph {
    /// The paragraph's lines joined with `\n`, trimmed; never empty.
    pub text: String,
    /// The 1-based line of its first line.
    pub line: usize,
}

/// Splits `text` into paragraphs, in file order.
///
/// A paragraph is a run of lines between blank lines, a blank line being one
/// that holds only whitespace (form feeds included). Lines end at `\n` or
/// `\r\n`; a leading byte-order mark is ignored. Each paragraph is its lines
/// joined with `\n` and trimmed.
pub(crate) fn paragraphs(text: &str) -> Vec<Paragraph> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut start = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            flush(&mut out, &mut current, start);
        } else {
            if current.is_empty() {
                start = i + 1;
            }
            current.push(line);
        }
    }
    flush(&mut out, &mut current, start);
    out
}

fn flush(out: &mut Vec<Paragraph>, current: &mut Vec<&str>, line: usize) {
    if current.is_empty() {
        return;
    }
    let text = current.join("\n").trim().to_owned();
    current.clear();
    if !text.is_empty() {
        out.push(Paragraph { text, line });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str, line: usize) -> Paragraph {
        Paragraph {
            text: text.to_owned(),
            line,
        }
    }

    #[test]
    fn splits_on_blank_lines_and_counts_lines() {
        let text = "\n  Title\n\n  one\n  two  \r\n \t\n\u{c}\nlast";
        assert_eq!(
            paragraphs(text),
            vec![p("Title", 2), p("one\n  two", 4), p("last", 8)]
        );
    }

    #[test]
    fn ignores_a_byte_order_mark_and_empty_text() {
        assert_eq!(paragraphs("\u{feff}a\nb\n"), vec![p("a\nb", 1)]);
        assert_eq!(paragraphs(""), vec![]);
        assert_eq!(paragraphs("\n \n\u{c}\n"), vec![]);
    }
}
