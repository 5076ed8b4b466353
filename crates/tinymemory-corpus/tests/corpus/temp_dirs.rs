//! The loader over small corpora made in temporary directories: errors name
//! their file and line, warnings theirs, and nothing is silently empty.

use std::fs;
use std::path::Path;

use tempfile::TempDir;
use tinymemory_api::{MemoryCategory, MemorySection};
use tinymemory_corpus::{Corpus, CorpusError, Origin};

/// A temporary corpus holding `files` (path relative to the root, bytes).
fn corpus_dir(files: &[(&str, &[u8])]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, bytes) in files {
        let full = dir.path().join(path);
        fs::create_dir_all(full.parent().unwrap()).unwrap();
        fs::write(full, bytes).unwrap();
    }
    dir
}

fn load(files: &[(&str, &[u8])]) -> Result<Corpus, CorpusError> {
    let dir = corpus_dir(files);
    Corpus::load(dir.path())
}

fn contents(corpus: &Corpus) -> Vec<(String, &str, &str)> {
    corpus
        .entries
        .iter()
        .map(|e| (e.namespace_name(), e.key.as_str(), e.content.as_str()))
        .collect()
}

const GREETINGS: &[u8] = b"categories:\n- greetings\nconversations:\n- - Hello\n  - Hi\n  - Hey\n";

#[test]
fn a_small_corpus_maps_as_documented() {
    let corpus = load(&[
        ("chatterbot/english/Tech Support.yml", GREETINGS),
        (
            "chatterbot/french/greetings.yaml",
            b"conversations:\n- - Bonjour\n",
        ),
        (
            "licenses/MIT-0.txt",
            b"MIT No Attribution\n\n  Permission is hereby\n  granted.\n\n\n",
        ),
        ("README.md", b"not a corpus file"),
        ("chatterbot/english/notes.txt", b"ignored"),
        ("chatterbot/.hidden/x.yml", b"{{{ never parsed"),
        ("licenses/.draft.txt", b"ignored"),
    ])
    .unwrap();
    assert_eq!(
        corpus.files,
        vec![
            Path::new("chatterbot/english/Tech Support.yml"),
            Path::new("chatterbot/french/greetings.yaml"),
            Path::new("licenses/MIT-0.txt"),
        ]
    );
    assert_eq!(
        contents(&corpus),
        vec![
            (
                "conversation:english-tech-support".into(),
                "c0000-t00",
                "Hello"
            ),
            (
                "conversation:english-tech-support".into(),
                "c0000-t01",
                "Hi"
            ),
            (
                "conversation:english-tech-support".into(),
                "c0000-t02",
                "Hey"
            ),
            (
                "conversation:french-greetings".into(),
                "c0000-t00",
                "Bonjour"
            ),
            ("document:mit-0".into(), "p0000", "MIT No Attribution"),
            (
                "document:mit-0".into(),
                "p0001",
                "Permission is hereby\n  granted."
            ),
            ("learning:tech-support".into(), "c0000-a01", "Hi"),
            ("learning:tech-support".into(), "c0000-a02", "Hey"),
        ]
    );
    let paragraph = &corpus.entries[5];
    assert_eq!(paragraph.section, MemorySection::Document);
    assert_eq!(paragraph.category, MemoryCategory::Core);
    assert_eq!(paragraph.language, None);
    assert_eq!(paragraph.origin, Origin::new("licenses/MIT-0.txt", 3));
    let bonjour = &corpus.entries[3];
    assert_eq!(bonjour.category, MemoryCategory::Conversation);
    assert_eq!(bonjour.language.as_deref(), Some("french"));
    assert_eq!(
        bonjour.origin.to_string(),
        "chatterbot/french/greetings.yaml:2"
    );
    assert!(corpus.warnings.is_empty());
    assert_eq!(
        corpus.namespaces().into_iter().collect::<Vec<_>>(),
        vec![
            ("conversation:english-tech-support".to_owned(), 3),
            ("conversation:french-greetings".to_owned(), 1),
            ("document:mit-0".to_owned(), 2),
            ("learning:tech-support".to_owned(), 2),
        ]
    );
}

#[test]
fn a_yaml_syntax_error_names_file_line_and_column() {
    let err = load(&[
        ("chatterbot/english/greetings.yml", GREETINGS),
        (
            "chatterbot/english/broken.yml",
            b"categories:\n- x\nconversations:\n- - hello\n  - a: b: c\n",
        ),
    ])
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to read chatterbot/english/broken.yml:5:9: mapping values are not allowed in this context"
    );
    assert_eq!(err.file(), Some(Path::new("chatterbot/english/broken.yml")));
    assert_eq!(err.line(), Some(5));
}

#[test]
fn a_bad_indentation_names_its_line() {
    let err = load(&[(
        "chatterbot/english/indent.yml",
        b"categories:\n- x\nconversations:\n- - hello\n - bad indent\n",
    )])
    .unwrap_err();
    assert!(
        matches!(
            err,
            CorpusError::Syntax {
                line: 5,
                column: 2,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err
        .to_string()
        .starts_with("failed to read chatterbot/english/indent.yml:5:2: "));
}

#[test]
fn a_string_conversation_warns_with_its_line_and_is_skipped() {
    let corpus = load(&[(
        "chatterbot/english/trivia.yml",
        b"categories:\n- trivia\nconversations:\n- - Q1\n  - A1\n- Q2 without its dash\n  - A2\n- - Q3\n  - A3\n",
    )])
    .unwrap();
    assert_eq!(
        corpus.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![
            "chatterbot/english/trivia.yml:6: conversation 1 is a string, expected a list of turns; skipped"
        ]
    );
    assert_eq!(
        corpus.warnings[0].origin,
        Origin::new("chatterbot/english/trivia.yml", 6)
    );
    let keys: Vec<&str> = corpus.entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(
        keys,
        vec![
            "c0000-t00",
            "c0000-t01",
            "c0002-t00",
            "c0002-t01",
            "c0000-a01",
            "c0002-a01"
        ]
    );
}

#[test]
fn a_numeric_turn_is_kept_as_written() {
    let corpus = load(&[(
        "chatterbot/english/numbers.yml",
        b"conversations:\n- - When?\n  - 1984\n- - Pi?\n  - 3.140\n  - yes\n  - false\n  - ~\n",
    )])
    .unwrap();
    assert_eq!(
        contents(&corpus)
            .into_iter()
            .filter(|(ns, _, _)| ns.starts_with("conversation:"))
            .map(|(_, k, c)| (k, c))
            .collect::<Vec<_>>(),
        vec![
            ("c0000-t00", "When?"),
            ("c0000-t01", "1984"),
            ("c0001-t00", "Pi?"),
            ("c0001-t01", "3.140"),
            ("c0001-t02", "yes"),
            ("c0001-t03", "false"),
        ]
    );
    assert_eq!(
        corpus.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec!["chatterbot/english/numbers.yml:8: conversation 1 turn 4 is null, expected text; skipped"]
    );
}

#[test]
fn a_file_that_is_not_utf8_is_an_error_naming_it() {
    let err = load(&[(
        "chatterbot/french/latin1.yml",
        b"conversations:\n- - Bonjour\n  - Ca va tr\xe8s bien\n",
    )])
    .unwrap_err();
    assert!(
        matches!(
            err,
            CorpusError::NotUtf8 {
                line: 3,
                column: 13,
                offset: 39,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "failed to read chatterbot/french/latin1.yml:3:13: not valid UTF-8 (byte offset 39)"
    );

    let err = load(&[("licenses/Bad.txt", b"ok\n\xff\n")]).unwrap_err();
    assert_eq!(err.file(), Some(Path::new("licenses/Bad.txt")));
    assert_eq!(err.line(), Some(2));
}

#[test]
fn an_empty_or_missing_directory_is_an_error_not_an_empty_corpus() {
    let empty = tempfile::tempdir().unwrap();
    let err = Corpus::load(empty.path()).unwrap_err();
    assert!(
        matches!(&err, CorpusError::Empty { root } if root == empty.path()),
        "{err:?}"
    );
    assert!(err.to_string().contains("holds no corpus files"), "{err}");

    let missing = empty.path().join("nowhere");
    let err = Corpus::load(&missing).unwrap_err();
    assert!(
        matches!(&err, CorpusError::Root { root, .. } if *root == missing),
        "{err:?}"
    );
    assert!(
        err.to_string().starts_with(&format!(
            "corpus directory {} cannot be read: ",
            missing.display()
        )),
        "{err}"
    );

    // Directories without a single corpus file are no better.
    let err = load(&[
        ("README.md", b"# nothing"),
        ("chatterbot/english/notes.md", b"x"),
        ("licenses/LICENSE", b"x"),
    ])
    .unwrap_err();
    assert!(matches!(err, CorpusError::Empty { .. }), "{err:?}");

    // A file given as the root.
    let file = corpus_dir(&[("x.yml", GREETINGS)]);
    let err = Corpus::load(&file.path().join("x.yml")).unwrap_err();
    assert!(matches!(err, CorpusError::Root { .. }), "{err:?}");
}

#[test]
fn a_file_that_is_not_a_dialog_is_a_layout_error() {
    let err = load(&[("chatterbot/english/list.yml", b"- - a\n  - b\n")]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to read chatterbot/english/list.yml:1: \
         the document is a list, expected a mapping with a `conversations` list"
    );
    let err = load(&[("chatterbot/english/cats.yml", b"categories:\n- x\n")]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to read chatterbot/english/cats.yml:1: the mapping has no `conversations` key"
    );
}

#[test]
fn two_files_with_one_namespace_collide() {
    let err = load(&[
        ("chatterbot/spanish/IA.yml", GREETINGS),
        ("chatterbot/spanish/ia.yml", GREETINGS),
    ])
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "chatterbot/spanish/IA.yml and chatterbot/spanish/ia.yml both map to namespace conversation:spanish-ia"
    );
    let err = load(&[("licenses/GPL-3.txt", b"a"), ("licenses/gpl-3.TXT", b"b")]).unwrap_err();
    assert!(
        matches!(err, CorpusError::Collision { namespace, .. } if namespace == "document:gpl-3")
    );
}

#[test]
fn a_name_too_long_for_a_namespace_is_an_error() {
    let name = format!("chatterbot/english/{}.yml", "t".repeat(200));
    let err = load(&[(name.as_str(), GREETINGS)]).unwrap_err();
    assert!(matches!(err, CorpusError::Namespace { .. }), "{err:?}");
    assert_eq!(err.file(), Some(Path::new(&name)));
    assert!(err.to_string().contains("the limit is 200"), "{err}");
}

#[test]
fn a_licence_without_paragraphs_warns() {
    let corpus = load(&[("licenses/Blank.txt", b"\n  \n\x0c\n")]).unwrap();
    assert!(corpus.entries.is_empty());
    assert_eq!(
        corpus
            .warnings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec!["licenses/Blank.txt:1: the text has no paragraph; no entry made"]
    );
}

#[cfg(unix)]
#[test]
fn broken_symbolic_links_are_skipped_with_a_warning() {
    let dir = corpus_dir(&[("chatterbot/english/greetings.yml", GREETINGS)]);
    let english = dir.path().join("chatterbot/english");
    std::os::unix::fs::symlink(english.join("gone.yml"), english.join("dangling.yml")).unwrap();
    std::os::unix::fs::symlink(english.join("b.yml"), english.join("a.yml")).unwrap();
    std::os::unix::fs::symlink(english.join("a.yml"), english.join("b.yml")).unwrap();
    fs::create_dir_all(dir.path().join("licenses")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/MIT.txt", dir.path().join("licenses/MIT.txt"))
        .unwrap();
    let corpus = Corpus::load(dir.path()).unwrap();
    let warnings: Vec<String> = corpus.warnings.iter().map(ToString::to_string).collect();
    let skipped = "a symbolic link whose target is missing or loops; skipped";
    assert_eq!(
        warnings,
        [
            format!("chatterbot/english/a.yml:1: {skipped}"),
            format!("chatterbot/english/b.yml:1: {skipped}"),
            format!("chatterbot/english/dangling.yml:1: {skipped}"),
            format!("licenses/MIT.txt:1: {skipped}"),
        ]
    );
    assert_eq!(
        corpus.files,
        vec![Path::new("chatterbot/english/greetings.yml")]
    );
}

/// A corpus file name that leads to a device, a FIFO or a socket (a
/// symlink to `/dev/zero`, say) is no corpus file: skipped with a warning
/// naming it, never left out in silence nor read (a FIFO would block the
/// load, `/dev/zero` never end).
#[cfg(unix)]
#[test]
fn a_name_leading_to_a_device_or_fifo_is_skipped_with_a_warning() {
    let dir = corpus_dir(&[("chatterbot/english/greetings.yml", GREETINGS)]);
    let english = dir.path().join("chatterbot/english");
    std::os::unix::fs::symlink("/dev/zero", english.join("zero.yml")).unwrap();
    fs::create_dir_all(dir.path().join("licenses")).unwrap();
    let fifo = dir.path().join("licenses/Fifo.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let corpus = Corpus::load(dir.path()).unwrap();
    let warnings: Vec<String> = corpus.warnings.iter().map(ToString::to_string).collect();
    let skipped = "not a regular file (a device, a FIFO or a socket); skipped";
    assert_eq!(
        warnings,
        [
            format!("chatterbot/english/zero.yml:1: {skipped}"),
            format!("licenses/Fifo.txt:1: {skipped}"),
        ]
    );
    assert_eq!(
        corpus.files,
        vec![Path::new("chatterbot/english/greetings.yml")]
    );
}

/// A corpus file over the size bound is an error naming it and the
/// bound, once that much is read: a sparse file of gigabytes is not read
/// into memory (and then parsed for minutes).
#[test]
fn a_file_over_the_size_bound_is_an_error_naming_it() {
    let dir = corpus_dir(&[("chatterbot/english/greetings.yml", GREETINGS)]);
    let huge = dir.path().join("chatterbot/english/huge.yml");
    fs::File::create(&huge)
        .and_then(|f| f.set_len(tinymemory_corpus::MAX_FILE_BYTES + 1))
        .unwrap();
    let err = Corpus::load(dir.path()).unwrap_err();
    assert!(matches!(err, CorpusError::TooLarge { .. }), "{err:?}");
    assert_eq!(err.file(), Some(Path::new("chatterbot/english/huge.yml")));
    assert_eq!(
        err.to_string(),
        "failed to read chatterbot/english/huge.yml: it holds more than 67108864 bytes \
         (64 MiB), more than a corpus file may"
    );
    // At the bound exactly, it is read (and refused for what it holds).
    fs::File::create(&huge)
        .and_then(|f| f.set_len(tinymemory_corpus::MAX_FILE_BYTES))
        .unwrap();
    let err = Corpus::load(dir.path()).unwrap_err();
    assert!(!matches!(err, CorpusError::TooLarge { .. }), "{err:?}");
}
