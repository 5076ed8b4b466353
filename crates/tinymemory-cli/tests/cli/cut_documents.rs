//! A document a command writes for programs (a report, `merge`'s, `list`
//! and `hello --format json`), on standard output or through `--output
//! /dev/stdout`, that its reader stops reading after 10 bytes (`| head -c
//! 10`) was not written whole: exit 2, as `run --format json | head -c
//! 10` is, never the command's own verdict.

use crate::support;

use std::path::Path;

use support::bin::{python_driver, run, scratch};

/// `ARGS` with stdout read for 10 bytes, then closed: its exit code and
/// stderr.
#[cfg(target_os = "linux")]
fn cut_after_ten_bytes(args: &[&str]) -> (Option<i32>, String) {
    let cut = support::bin::cut_after_ten_bytes(args);
    (cut.code, cut.stderr)
}

/// Two shard reports of a reference run without the corpus.
fn shards(dir: &Path) -> [String; 2] {
    [1, 2].map(|k| {
        let out = dir.join(format!("s{k}.json"));
        let shard = format!("{k}/2");
        let ran = run(&[
            "run",
            "--driver",
            "reference",
            "--no-corpus",
            "--check",
            "store.*",
            "--quiet",
            "--format",
            "json",
            "--shard",
            &shard,
            "--output",
            out.to_str().unwrap(),
        ]);
        assert_eq!(ran.code, 0, "{}", ran.dump());
        out.to_str().unwrap().to_owned()
    })
}

const CUT: &str = "error: failed to write the report to standard output: its reader closed the \
                   pipe before the report was written whole (Broken pipe (os error 32))\n";

#[cfg(target_os = "linux")]
#[test]
fn every_document_cut_by_its_reader_is_exit_2() {
    let dir = scratch();
    let [s1, s2] = shards(dir.path());
    let driver = python_driver("examples/python/memory_driver.py");
    let stdout = ["--output", "/dev/stdout"];
    let cases: [Vec<&str>; 6] = [
        vec!["merge", &s1, &s2, "--format", "json"],
        [&["merge", &s1, &s2, "--format", "json"][..], &stdout].concat(),
        [
            &[
                "run",
                "--driver",
                "reference",
                "--no-corpus",
                "--check",
                "store.upsert",
                "--quiet",
                "--format",
                "json",
            ][..],
            &stdout,
        ]
        .concat(),
        vec!["list", "--format", "json"],
        vec!["hello", "--driver", &driver, "--format", "json"],
        [&["merge", &s1, &s2, "--format", "markdown"][..], &stdout].concat(),
    ];
    for args in cases {
        let (code, stderr) = cut_after_ten_bytes(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.ends_with(CUT), "{args:?}: {stderr}");
    }
}

/// Text for people is not a document: `list | head -c 10` is a reader
/// that chose to stop.
#[cfg(target_os = "linux")]
#[test]
fn text_cut_by_its_reader_is_no_error() {
    let (code, stderr) = cut_after_ten_bytes(&["list"]);
    assert_eq!(code, Some(0), "{stderr}");
}
