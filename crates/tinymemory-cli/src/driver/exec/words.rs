//! The files a word of an `exec:` command line could name, by every
//! reasonable parse of it: a program reads its arguments as it likes, and
//! a file left unclaimed here is a file a run's output may replace, so
//! each parse adds a name and none removes one.

use std::collections::HashSet;

/// A file a word names, with the word of the command line it was read
/// from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Named {
    /// The name, as the word spells it (relative to the working
    /// directory).
    pub(super) file: String,
    /// The word of the command line (or of a `sh -c '…'` script in one) it
    /// was read from.
    pub(super) word: String,
}

/// Every file `words` could name, each once, in the order first found:
/// each word itself, then what [`readings`] finds in it, again and again
/// in what those give (`--url=sqlite:///my.db` gives `sqlite:///my.db`,
/// which gives `my.db`), and the words a shell would split a word with
/// white space into (the script of `sh -c '…'`), read the same way.
pub(super) fn files_named<'a>(words: impl IntoIterator<Item = &'a str>) -> Vec<Named> {
    let mut found: Vec<Named> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for word in words {
        let mut inner = vec![word.to_owned()];
        if word.contains(char::is_whitespace) {
            inner.extend(shlex::split(word).unwrap_or_default());
        }
        for source in inner {
            // Each reading is shorter than what it was read from, so the
            // queue ends.
            let mut queue = vec![source.clone()];
            let mut at = 0;
            while let Some(candidate) = queue.get(at).cloned() {
                at += 1;
                if candidate.is_empty() || !seen.insert(candidate.clone()) {
                    continue;
                }
                queue.extend(readings(&candidate));
                found.push(Named {
                    file: candidate,
                    word: source.clone(),
                });
            }
        }
    }
    found
}

/// What one word could name besides itself, one step deep:
///
/// - after its first and its last `=` (`--db=my.db`);
/// - the target of a redirection written in one word (`2>>drv.log`,
///   `>&out`, `<in`);
/// - after a short option's letter (`-dmy.db`);
/// - after its first and its last `:` (`path:my.db`, `--db:my.db`), after
///   `//` and after `///` (`sqlite:///my.db`, `file:///tmp/x.db`);
/// - before a `?` or a `#` (a URI's query or fragment:
///   `file:x.db?mode=rwc`);
/// - every string value of a JSON word, at any depth (`{"db":"my.db"}`),
///   white space before it allowed;
/// - each part between `;` and `,` (a connection string, `Data
///   Source=my.db;Version=3`, options, `db=my.db,cache=1`), each without
///   the white space around it;
/// - the word with `%XX` escapes decoded (`file:my%2Edb`), and with a
///   leading `~/` as the home directory.
fn readings(word: &str) -> Vec<String> {
    let mut out: Vec<&str> = Vec::new();
    if word.contains([';', ',']) {
        out.extend(word.split([';', ',']).map(str::trim));
    }
    if word.trim() != word {
        out.push(word.trim());
    }
    if let Some((_, v)) = word.split_once('=') {
        out.push(v);
    }
    if let Some((_, v)) = word.rsplit_once('=') {
        out.push(v);
    }
    if let Some(i) = word.rfind(['>', '<']) {
        out.push(word[i + 1..].trim_start_matches('&'));
    }
    let mut chars = word.chars();
    if let (Some('-'), Some(letter)) = (chars.next(), chars.next()) {
        if letter.is_ascii_alphabetic() {
            out.push(chars.as_str());
        }
    }
    if let Some((_, v)) = word.split_once(':') {
        out.push(v);
    }
    if let Some((_, v)) = word.rsplit_once(':') {
        out.push(v);
    }
    for authority in ["//", "///"] {
        if let Some((_, v)) = word.split_once(authority) {
            out.push(v);
        }
    }
    if let Some((v, _)) = word.split_once(['?', '#']) {
        out.push(v);
    }
    let mut out: Vec<String> = out.into_iter().map(str::to_owned).collect();
    if word.trim_start().starts_with(['{', '[', '"']) {
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(word) {
            json_strings(&value, &mut out);
        }
    }
    if let Some(decoded) = percent_decoded(word) {
        out.push(decoded);
    }
    if let (Some(rest), Some(home)) = (word.strip_prefix("~/"), std::env::var_os("HOME")) {
        if let Some(home) = home.to_str() {
            out.push(format!("{}/{rest}", home.trim_end_matches('/')));
        }
    }
    out
}

/// `word` with its `%XX` escapes decoded, when it holds one that decodes
/// to UTF-8 text other than `word`.
fn percent_decoded(word: &str) -> Option<String> {
    let decoded = percent_encoding::percent_decode_str(word).decode_utf8().ok()?;
    (decoded != word).then(|| decoded.into_owned())
}

/// The string values in `value`, at any depth, in document order.
fn json_strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| json_strings(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| json_strings(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(words: &[&str]) -> Vec<String> {
        files_named(words.iter().copied())
            .into_iter()
            .map(|n| n.file)
            .collect()
    }

    fn names(word: &str, file: &str) -> bool {
        files_named([word])
            .iter()
            .any(|n| n.file == file && n.word == word)
    }

    #[test]
    fn every_spelling_of_a_database_names_it() {
        for word in [
            "my.db",
            "--db=my.db",
            "--url=sqlite:///my.db",
            "sqlite:///my.db",
            "sqlite:my.db",
            "-dmy.db",
            "-d=my.db",
            "--db:my.db",
            "path:my.db",
            "file:my.db?mode=rwc",
            "file:my.db#x",
            "2>>my.db",
            ">&my.db",
            r#"{"db":"my.db"}"#,
            r#"{"stores":[{"url":"sqlite:///my.db?mode=rwc"}]}"#,
            r#"["a", "my.db"]"#,
            r#"{"url": "--db=path:my.db"}"#,
        ] {
            assert!(names(word, "my.db"), "{word}: {:?}", files(&[word]));
        }
        for word in [
            "Data Source=my.db;Version=3",
            "db=my.db,cache=1",
            " {\"db\":\"my.db\"}",
            "\n{\"db\":\"my.db\"}",
            "file:my%2Edb",
            "sqlite:///my.db?cache=shared&mode=rwc",
        ] {
            assert!(names(word, "my.db"), "{word:?}: {:?}", files(&[word]));
        }
        assert!(names("file:///tmp/x.db", "/tmp/x.db"));
        assert!(names("sqlite:////tmp/x.db", "/tmp/x.db"));
    }

    #[test]
    fn the_words_of_a_shell_script_are_read_too() {
        let found = files_named(["drv --url sqlite:///my.db 2>>drv.log"]);
        let my_db = found.iter().find(|n| n.file == "my.db").unwrap();
        assert_eq!(my_db.word, "sqlite:///my.db");
        assert!(found.iter().any(|n| n.file == "drv.log"));
    }

    #[test]
    fn each_file_once_in_the_order_found() {
        assert_eq!(
            files(&["python3", "drv.py", "--db=my.db", "my.db"]),
            ["python3", "drv.py", "--db=my.db", "my.db"]
        );
        assert_eq!(files(&["-c"]), ["-c"]);
    }
}
