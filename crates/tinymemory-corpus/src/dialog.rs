//! ChatterBot dialog files: YAML with a `conversations` list of lists of
//! turns.

use std::path::Path;

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};

use crate::{CorpusError, CorpusWarning, Origin};

/// One turn of a conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Turn {
    /// 0-based position in its conversation's list, counting skipped turns.
    pub index: usize,
    /// The turn's text.
    pub text: String,
    /// The 1-based line where the turn starts.
    pub line: usize,
}

/// One conversation: the turns that could be read, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conversation {
    /// 0-based position in the `conversations` list, counting skipped ones.
    pub index: usize,
    /// The turns kept, in order.
    pub turns: Vec<Turn>,
}

/// A parsed dialog file.
#[derive(Debug, Default)]
pub(crate) struct Dialog {
    /// The conversations kept, in file order.
    pub conversations: Vec<Conversation>,
    /// What was skipped or looks wrong, in file order.
    pub warnings: Vec<CorpusWarning>,
}

/// Parses the dialog file `file` (relative to the corpus root; used in
/// errors and warnings) whose text is `src`.
///
/// Kept: every turn that is a string, and every number or boolean turn as
/// its source text. Skipped with a warning: a conversation that is not a list
/// (a plain string is the usual case: a missing `- ` folds a question and its
/// answers into one scalar) and a turn that is null, a list, a mapping or
/// blank text.
/// Warned about but kept: a turn that is one plain scalar over several lines
/// whose continuation lines start with `- ` (list items indented too deep).
///
/// # Errors
///
/// [`CorpusError::Syntax`] for invalid YAML, [`CorpusError::Layout`] when the
/// document is not a mapping whose `conversations` is a list (or when the
/// file holds more than one document).
pub(crate) fn parse(file: &Path, src: &str) -> Result<Dialog, CorpusError> {
    // The YAML library recurses once per nesting level, so a few kilobytes
    // of `- - - …` would overflow the stack: bound the nesting first.
    if let Err((line, column)) = check_nesting(src) {
        return Err(CorpusError::Syntax {
            file: file.to_owned(),
            line,
            column,
            message: format!(
                "the YAML nests deeper than {MAX_NESTING} levels (block sequences, mappings or \
                 flow collections) here; a dialog file needs three"
            ),
        });
    }
    let docs = MarkedYaml::load_from_str(src).map_err(|e| CorpusError::Syntax {
        file: file.to_owned(),
        line: e.marker().line(),
        column: e.marker().col() + 1,
        message: e.info().to_owned(),
    })?;
    let layout = |line: usize, message: String| CorpusError::Layout {
        file: file.to_owned(),
        line,
        message,
    };
    let root = match docs.as_slice() {
        [] => {
            return Err(layout(
                1,
                "the file is empty; expected a mapping with a `conversations` list".into(),
            ))
        }
        [root] => root,
        [_, second, ..] => {
            return Err(layout(
                line_of(second),
                format!("the file holds {} YAML documents, expected one", docs.len()),
            ))
        }
    };
    if !root.data.is_mapping() {
        return Err(layout(
            line_of(root),
            format!(
                "the document is {}, expected a mapping with a `conversations` list",
                describe(root)
            ),
        ));
    }
    let Some(list) = root.data.as_mapping_get("conversations") else {
        return Err(layout(
            line_of(root),
            "the mapping has no `conversations` key".into(),
        ));
    };
    let Some(items) = list.data.as_vec() else {
        return Err(layout(
            line_of(list),
            format!("`conversations` is {}, expected a list", describe(list)),
        ));
    };

    let source = Source::new(src);
    let mut dialog = Dialog::default();
    for (index, item) in items.iter().enumerate() {
        let item = untag(item);
        let Some(turn_nodes) = item.data.as_vec() else {
            dialog.warnings.push(CorpusWarning::new(
                Origin::new(file, line_of(item)),
                format!(
                    "conversation {index} is {}, expected a list of turns; skipped",
                    describe(item)
                ),
            ));
            continue;
        };
        let mut turns = Vec::with_capacity(turn_nodes.len());
        for (t, node) in turn_nodes.iter().enumerate() {
            let node = untag(node);
            let origin = Origin::new(file, line_of(node));
            match turn_text(node, &source) {
                Some(text) if text.trim().is_empty() => dialog.warnings.push(CorpusWarning::new(
                    origin,
                    format!("conversation {index} turn {t} is empty text; skipped"),
                )),
                Some(text) => {
                    if let Some(last) = folded_list_line(node, &source) {
                        dialog.warnings.push(CorpusWarning::new(
                            origin.clone(),
                            format!(
                                "conversation {index} turn {t} is one plain scalar over lines {}-{last} \
                                 whose continuation lines start with \"- \" (list items indented too deep?); \
                                 kept as one turn",
                                origin.line
                            ),
                        ));
                    }
                    turns.push(Turn {
                        index: t,
                        text,
                        line: origin.line,
                    });
                }
                None => dialog.warnings.push(CorpusWarning::new(
                    origin,
                    format!(
                        "conversation {index} turn {t} is {}, expected text; skipped",
                        describe(node)
                    ),
                )),
            }
        }
        dialog.conversations.push(Conversation { index, turns });
    }
    Ok(dialog)
}

/// The node under any user-defined tags.
/// The deepest nesting of collections a dialog file may have. A dialog
/// needs three (the mapping, `conversations`, a conversation); the YAML
/// library recurses once per level, and this many levels fit in any
/// thread's stack.
pub const MAX_NESTING: usize = 128;

/// Checks that `src` nests collections at most [`MAX_NESTING`] deep,
/// without parsing it: an upper bound of the depth from the indentation of
/// block nodes, the `- ` and `? ` indicators that open a node on the same
/// line, and unquoted flow brackets. Returns the 1-based line and column
/// where the bound is passed.
fn check_nesting(src: &str) -> Result<(), (usize, usize)> {
    // The columns of the block nodes open at the current line.
    let mut open: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    for (n, line) in src.lines().enumerate() {
        let body = line.trim_start_matches(' ');
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let mut column = line.len() - body.len();
        if flow == 0 {
            while open.last().is_some_and(|c| *c >= column) {
                open.pop();
            }
        }
        let mut rest = body;
        loop {
            if flow == 0 {
                open.push(column);
            }
            if open.len() + flow > MAX_NESTING {
                return Err((n + 1, column + 1));
            }
            let indicator = rest.starts_with(['-', '?'])
                && rest[1..]
                    .chars()
                    .next()
                    .is_none_or(|c| c == ' ' || c == '\t');
            if !indicator {
                break;
            }
            let after = rest[1..].trim_start_matches([' ', '\t']);
            column += rest.len() - after.len();
            rest = after;
            if rest.is_empty() {
                break;
            }
        }
        let mut quote = None;
        for (i, c) in rest.char_indices() {
            match (quote, c) {
                (None, '\'' | '"') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '#') if i > 0 && rest[..i].ends_with(' ') => break,
                (None, '[' | '{') => {
                    flow += 1;
                    if open.len() + flow > MAX_NESTING {
                        return Err((n + 1, column + i + 1));
                    }
                }
                (None, ']' | '}') => flow = flow.saturating_sub(1),
                _ => {}
            }
        }
    }
    Ok(())
}

fn untag<'a, 'i>(mut node: &'a MarkedYaml<'i>) -> &'a MarkedYaml<'i> {
    while let YamlData::Tagged(_, inner) = &node.data {
        node = inner;
    }
    node
}

fn line_of(node: &MarkedYaml<'_>) -> usize {
    node.span.start.line().max(1)
}

/// The text of a turn node, or `None` when it is not a scalar with text.
fn turn_text(node: &MarkedYaml<'_>, source: &Source<'_>) -> Option<String> {
    match &node.data {
        YamlData::Value(Scalar::String(s)) | YamlData::Representation(s, _, _) => {
            Some(s.to_string())
        }
        YamlData::Value(
            scalar @ (Scalar::Integer(_) | Scalar::FloatingPoint(_) | Scalar::Boolean(_)),
        ) => {
            // The text as written (`1_000`, `0x1F`, `1.50`, `True`), not the
            // value re-rendered; an alias or a tagged scalar has no plain
            // source text of its own, so it falls back to the value.
            let written = source.slice(node).trim();
            if written.is_empty() || written.starts_with(['*', '!', '&']) {
                Some(render(scalar))
            } else {
                Some(written.to_owned())
            }
        }
        _ => None,
    }
}

fn render(scalar: &Scalar<'_>) -> String {
    match scalar {
        Scalar::Null => String::new(),
        Scalar::Boolean(b) => b.to_string(),
        Scalar::Integer(i) => i.to_string(),
        Scalar::FloatingPoint(f) => f.to_string(),
        Scalar::String(s) => s.to_string(),
    }
}

/// What a node is, for messages: "a string", "null", "a list", ...
fn describe(node: &MarkedYaml<'_>) -> &'static str {
    match &untag(node).data {
        YamlData::Value(Scalar::String(_)) | YamlData::Representation(..) => "a string",
        YamlData::Value(Scalar::Null) => "null",
        YamlData::Value(Scalar::Boolean(_)) => "a boolean",
        YamlData::Value(Scalar::Integer(_)) => "an integer",
        YamlData::Value(Scalar::FloatingPoint(_)) => "a number",
        YamlData::Sequence(_) => "a list",
        YamlData::Mapping(_) => "a mapping",
        YamlData::Tagged(..) | YamlData::Alias(_) | YamlData::BadValue => "an unreadable value",
    }
}

/// For a string turn written as a plain scalar over several lines, the last
/// line when one of its continuation lines starts with `- `.
fn folded_list_line(node: &MarkedYaml<'_>, source: &Source<'_>) -> Option<usize> {
    let (start, end) = (node.span.start.line(), node.span.end.line());
    if end <= start {
        return None;
    }
    let written = source.slice(node);
    // A quoted scalar's span starts at its quote; a block scalar's (`|`,
    // `>`) at its first content line, with only indentation before it.
    if written.starts_with(['"', '\'']) || source.starts_own_line(node) {
        return None;
    }
    written
        .lines()
        .skip(1)
        .any(|l| l.trim_start().starts_with("- "))
        .then_some(end)
}

/// The source text, addressable by the parser's character indices.
struct Source<'a> {
    text: &'a str,
    /// Byte offset of every character, then `text.len()`; built on first use.
    offsets: std::cell::OnceCell<Vec<usize>>,
}

impl<'a> Source<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            offsets: std::cell::OnceCell::new(),
        }
    }

    /// Byte offset of every character, then `text.len()`.
    fn offsets(&self) -> &[usize] {
        self.offsets.get_or_init(|| {
            self.text
                .char_indices()
                .map(|(b, _)| b)
                .chain(std::iter::once(self.text.len()))
                .collect()
        })
    }

    /// The text a node spans; empty when the span is unknown.
    fn slice(&self, node: &MarkedYaml<'_>) -> &'a str {
        let offsets = self.offsets();
        let (start, end) = (node.span.start.index(), node.span.end.index());
        match (offsets.get(start), offsets.get(end)) {
            (Some(&s), Some(&e)) if s <= e => &self.text[s..e],
            _ => "",
        }
    }

    /// `true` when only whitespace precedes the node on its first line.
    fn starts_own_line(&self, node: &MarkedYaml<'_>) -> bool {
        let Some(&start) = self.offsets().get(node.span.start.index()) else {
            return false;
        };
        let before = &self.text[..start];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        before[line_start..].trim().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> &'static Path {
        Path::new("chatterbot/test/t.yml")
    }

    fn ok(src: &str) -> Dialog {
        parse(file(), src).unwrap()
    }

    /// (conversation, turn, text, line) of every kept turn.
    fn turns(d: &Dialog) -> Vec<(usize, usize, &str, usize)> {
        d.conversations
            .iter()
            .flat_map(|c| {
                c.turns
                    .iter()
                    .map(|t| (c.index, t.index, t.text.as_str(), t.line))
            })
            .collect()
    }

    fn warnings(d: &Dialog) -> Vec<String> {
        d.warnings.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn reads_lists_of_turns_with_their_lines() {
        let d = ok("categories:\n- t\nconversations:\n- - Hello\n  - Hi\n- - 'Quoted: yes'\n  - \"two\\nlines\"\n");
        assert_eq!(
            turns(&d),
            vec![
                (0, 0, "Hello", 4),
                (0, 1, "Hi", 5),
                (1, 0, "Quoted: yes", 6),
                (1, 1, "two\nlines", 7),
            ]
        );
        assert!(d.warnings.is_empty());
    }

    #[test]
    fn numbers_and_booleans_keep_their_source_text() {
        let d = ok("conversations:\n- - 42\n  - 3.10\n  - true\n  - 0x1F\n  - 1_000\n  - !!int 7\n  - &a 8\n  - *a\n  - .inf\n");
        assert_eq!(
            turns(&d),
            vec![
                (0, 0, "42", 2),
                (0, 1, "3.10", 3),
                (0, 2, "true", 4),
                (0, 3, "0x1F", 5),
                (0, 4, "1_000", 6),
                (0, 5, "7", 7),
                (0, 6, "8", 8),
                (0, 7, "8", 9),
                (0, 8, ".inf", 10),
            ]
        );
        assert!(d.warnings.is_empty());
    }

    #[test]
    fn a_string_conversation_is_skipped_with_its_line() {
        let d = ok("conversations:\n- - a\n  - b\n- Question\n  - Answer\n- - c\n");
        assert_eq!(
            turns(&d),
            vec![(0, 0, "a", 2), (0, 1, "b", 3), (2, 0, "c", 6)]
        );
        assert_eq!(
            warnings(&d),
            vec![
                "chatterbot/test/t.yml:4: conversation 1 is a string, expected a list of turns; skipped"
            ]
        );
    }

    #[test]
    fn other_conversation_shapes_are_skipped_with_a_warning() {
        let d = ok("conversations:\n- {q: a}\n- 12\n-\n- []\n");
        assert!(turns(&d).is_empty());
        assert_eq!(d.conversations.len(), 1, "the empty list is a conversation");
        assert_eq!(
            warnings(&d),
            vec![
                "chatterbot/test/t.yml:2: conversation 0 is a mapping, expected a list of turns; skipped",
                "chatterbot/test/t.yml:3: conversation 1 is an integer, expected a list of turns; skipped",
                "chatterbot/test/t.yml:4: conversation 2 is null, expected a list of turns; skipped",
            ]
        );
    }

    #[test]
    fn non_text_turns_are_skipped_with_a_warning() {
        let d = ok("conversations:\n- - first\n  - ~\n  - [x, y]\n  - {k: v}\n  - last\n  - ' '\n");
        assert_eq!(turns(&d), vec![(0, 0, "first", 2), (0, 4, "last", 6)]);
        assert_eq!(
            warnings(&d),
            vec![
                "chatterbot/test/t.yml:3: conversation 0 turn 1 is null, expected text; skipped",
                "chatterbot/test/t.yml:4: conversation 0 turn 2 is a list, expected text; skipped",
                "chatterbot/test/t.yml:5: conversation 0 turn 3 is a mapping, expected text; skipped",
                "chatterbot/test/t.yml:7: conversation 0 turn 5 is empty text; skipped",
            ]
        );
    }

    #[test]
    fn an_over_indented_list_folded_into_a_turn_is_kept_and_warned() {
        let d = ok("conversations:\n- - Q?\n    - A.\n    - B.\n- - |\n    code:\n    - item\n  - \"x\n    - y\"\n");
        assert_eq!(
            turns(&d),
            vec![
                (0, 0, "Q? - A. - B.", 2),
                (1, 0, "code:\n- item\n", 6),
                (1, 1, "x - y", 8),
            ]
        );
        assert_eq!(
            warnings(&d),
            vec![
                "chatterbot/test/t.yml:2: conversation 0 turn 0 is one plain scalar over lines 2-4 \
                 whose continuation lines start with \"- \" (list items indented too deep?); kept as one turn"
            ]
        );
    }

    #[test]
    fn byte_order_mark_and_crlf_are_read() {
        let d = ok("\u{feff}conversations:\r\n- - a\r\n  - b c\r\n");
        assert_eq!(turns(&d), vec![(0, 0, "a", 2), (0, 1, "b c", 3)]);
    }

    #[test]
    fn syntax_errors_name_file_line_and_column() {
        let e = parse(
            file(),
            "categories:\n- x\nconversations:\n- - hello\n  - a: b: c\n",
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                CorpusError::Syntax {
                    line: 5,
                    column: 9,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "failed to read chatterbot/test/t.yml:5:9: mapping values are not allowed in this context"
        );
    }

    #[test]
    fn nesting_past_the_bound_is_a_syntax_error_with_its_line_not_a_stack_overflow() {
        let deep_block = format!("conversations:\n{}x\n", "- ".repeat(20_000));
        let deep_flow = format!("conversations:\n- {}\n", "[".repeat(20_000));
        let deep_indent: String = std::iter::once("conversations:\n".to_owned())
            .chain((0..200).map(|i| format!("{}- \n", " ".repeat(i))))
            .collect();
        for src in [deep_block, deep_flow, deep_indent] {
            match parse(file(), &src) {
                Err(CorpusError::Syntax { line, message, .. }) => {
                    assert!(line >= 2, "line {line}");
                    assert!(
                        message.contains("nests deeper than 128 levels"),
                        "{message}"
                    );
                }
                other => panic!("expected a syntax error, got {other:?}"),
            }
        }
        // The bound leaves room for any real dialog: nesting well under it
        // parses as YAML (and fails only as a dialog).
        let fine = format!("conversations:\n- - {}x\n", "- ".repeat(50));
        assert!(!matches!(
            parse(file(), &fine),
            Err(CorpusError::Syntax { .. })
        ));
    }

    #[test]
    fn files_that_are_not_dialogs_are_layout_errors() {
        let layout = |src: &str| match parse(file(), src) {
            Err(CorpusError::Layout { line, message, .. }) => (line, message),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            layout(""),
            (
                1,
                "the file is empty; expected a mapping with a `conversations` list".into()
            )
        );
        assert_eq!(
            layout("\n- a\n"),
            (
                2,
                "the document is a list, expected a mapping with a `conversations` list".into()
            )
        );
        assert_eq!(
            layout("categories: [x]\n"),
            (1, "the mapping has no `conversations` key".into())
        );
        assert_eq!(
            layout("conversations:\n  a: b\n"),
            (2, "`conversations` is a mapping, expected a list".into())
        );
        assert_eq!(
            layout("conversations: []\n---\nconversations: []\n"),
            (3, "the file holds 2 YAML documents, expected one".into())
        );
    }
}
