//! Every JSON the binary writes (the report, bundles, `hello --format
//! json`, the trace) holds no character that reorders or hides how a
//! line displays: C1 controls, bidi and other format characters and the
//! line and paragraph separators from a driver's id are `\uXXXX` escapes
//! (serde_json escapes only C0), and a JSON parser reads back the
//! driver's id as it sent it.

use crate::support;

use support::bin::{repo, scratch};

/// What a driver may put in its id: C1 controls (NEL, CSI), bidi
/// overrides, isolates and marks, zero-width characters, the line and
/// paragraph separators, a byte order mark and a format character above
/// U+FFFF (a tag, written as a surrogate pair).
const HIDDEN: &str = "id\u{85}\u{9b}\u{61c}\u{200b}\u{200e}\u{200f}\u{202a}\u{202e}\u{2066}\
                      \u{2069}\u{2028}\u{2029}\u{feff}\u{e0001}end";

/// `true` when `text` holds a character that must be escaped.
fn has_hidden(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        matches!(u32::from(c), 0x80..=0x9f)
            || "\u{61c}\u{200b}\u{200e}\u{200f}\u{202a}\u{202e}\u{2066}\u{2069}\u{2028}\u{2029}\u{feff}\u{e0001}"
                .contains(c)
    })
}

/// [`HIDDEN`] as the inside of a Python string literal: each character
/// as `\UXXXXXXXX`, so the script is ASCII.
fn hidden_literal() -> String {
    HIDDEN
        .chars()
        .map(|c| format!("\\U{:08x}", u32::from(c)))
        .collect()
}

/// The `exec:` driver of a Python script written to `dir/name`: `body`
/// after the import of the protocol library as `tp`, with
/// examples/python's drivers importable.
fn script_driver(dir: &std::path::Path, name: &str, body: &str) -> String {
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!(
            "import sys\nsys.dont_write_bytecode = True\nsys.path[:0] = [{:?}, {:?}]\n\
             import tinymemory.protocol as tp\n{body}",
            repo("examples/python").display().to_string(),
            repo("python").display().to_string(),
        ),
    )
    .unwrap();
    format!("exec:python3 {}", script.display())
}

/// A broken driver (examples/python/broken_driver.py, which fails
/// `recall.limit`) answering `hello` with the id [`HIDDEN`].
fn driver(dir: &std::path::Path) -> String {
    script_driver(
        dir,
        "hidden_id.py",
        &format!(
            "from broken_driver import BrokenStore\ntp.serve(BrokenStore(), \"{}\")\n",
            hidden_literal()
        ),
    )
}

#[test]
fn hidden_characters_are_json_escapes_and_read_back_the_same() {
    let dir = scratch();
    let driver = driver(dir.path());
    let (report, bundles, trace) = (
        dir.path().join("r.json"),
        dir.path().join("bdl"),
        dir.path().join("t.jsonl"),
    );
    let ran = support::bin::run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "recall.limit",
        "--no-rerun",
        "--format",
        "json",
        "--output",
        report.to_str().unwrap(),
        "--bundle",
        bundles.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let hello = support::bin::run(&["hello", "--driver", &driver, "--format", "json"]);
    assert_eq!(hello.code, 0, "{}", hello.dump());
    let bundle = std::fs::read_dir(&bundles)
        .unwrap()
        .next()
        .expect("a bundle")
        .unwrap()
        .path();
    let trace = std::fs::read_to_string(&trace).unwrap();
    let hello_line = trace
        .lines()
        .find(|l| l.contains("\"answer\"") && l.contains("\"driver\""))
        .expect("the hello answer in the trace")
        .to_owned();
    for (what, text, id) in [
        (
            "report",
            std::fs::read_to_string(&report).unwrap(),
            "/run/driver_id",
        ),
        ("hello", hello.stdout.clone(), "/driver"),
        (
            "bundle",
            std::fs::read_to_string(&bundle).unwrap(),
            "/driver_id",
        ),
        ("trace", hello_line, "/answer/result/driver"),
    ] {
        assert_eq!(has_hidden(&text), None, "{what}: {text}");
        assert!(text.contains("id\\u0085\\u009b\\u061c"), "{what}: {text}");
        assert!(text.contains("\\udb40\\udc01end"), "{what}: {text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value.pointer(id).and_then(|v| v.as_str()),
            Some(HIDDEN),
            "{what}"
        );
    }
}

/// `run --events`: a driver's error text reaches the stream's lines
/// (each check's entry, the shared errors) with the same characters as
/// `\uXXXX` escapes as every other JSON the binary writes, and a JSON
/// parser reads the message back as the driver sent it.
#[test]
fn the_event_stream_holds_no_hidden_characters() {
    let dir = scratch();
    // Every `get` fails with the hidden text as its message.
    let driver = script_driver(
        dir.path(),
        "hidden_error.py",
        &format!(
            "from memory_driver import MemoryStore\n\
             class Hidden(MemoryStore):\n    def get(self, namespace, key):\n        \
             raise tp.DriverError(\"backend\", \"{}\")\n\
             tp.serve(Hidden(), \"hidden-error\")\n",
            hidden_literal()
        ),
    );
    let events = dir.path().join("e.jsonl");
    let ran = support::bin::run(&[
        "run",
        "--driver",
        &driver,
        "--no-corpus",
        "--check",
        "store.upsert",
        "--no-rerun",
        "--quiet",
        "--events",
        events.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 1, "{}", ran.dump());
    let text = std::fs::read_to_string(&events).unwrap();
    assert_eq!(has_hidden(&text), None, "{text}");
    let finished: serde_json::Value = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["event"] == "check-finished")
        .expect("a check-finished line");
    let message = finished["entry"]["message"].as_str().unwrap();
    assert!(message.contains(HIDDEN), "{message}");
}
