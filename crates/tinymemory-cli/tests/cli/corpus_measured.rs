//! A report says which corpus it measured (`run.corpus`): path, digest
//! and counts, or `none`; `merge` refuses shards of different corpora and
//! `diff` notes a change of corpus.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::bin::{repo, run, scratch};
use tinymemory_corpus::Corpus;

/// A corpus of one licence of the paragraphs `text` gives, at `dir/name`.
fn licence_corpus(dir: &Path, name: &str, text: &str) -> PathBuf {
    let root = dir.join(name);
    std::fs::create_dir_all(root.join("licenses")).unwrap();
    std::fs::write(root.join("licenses/tiny.txt"), text).unwrap();
    root
}

/// The JSON report of `run --driver reference` with `args` (seed 7, 8
/// cases), written to `out`; its exit code must be 0.
fn report(args: &[&str], out: &Path) -> Value {
    let mut all = vec![
        "run",
        "--driver",
        "reference",
        "--seed",
        "7",
        "--cases",
        "8",
        "--quiet",
        "--format",
        "json",
        "--output",
        out.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let ran = run(&all);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

#[test]
fn the_report_names_the_corpus_with_the_loaders_digest_and_counts() {
    let dir = scratch();
    let fixtures = repo("fixtures/corpora");
    let loaded = Corpus::load(&fixtures).unwrap();
    let json = dir.path().join("r.json");
    let r = report(
        &[
            "--corpus",
            fixtures.to_str().unwrap(),
            "--check",
            "corpus.namespace_counts",
        ],
        &json,
    );
    assert_eq!(
        r["run"]["corpus"],
        serde_json::json!({
            "path": fixtures.to_str().unwrap(),
            "digest": loaded.digest(),
            "entries": loaded.entries.len(),
            "namespaces": loaded.namespaces().len(),
        })
    );
    // The figures the issue quotes for the bundled corpus.
    assert_eq!(
        (loaded.entries.len(), loaded.namespaces().len()),
        (22_688, 272)
    );
    // The text report says it under the header; --no-corpus says none.
    let text = dir.path().join("r.txt");
    let ran = run(&[
        "run",
        "--driver",
        "reference",
        "--corpus",
        fixtures.to_str().unwrap(),
        "--check",
        "corpus.namespace_counts",
        "--quiet",
        "--output",
        text.to_str().unwrap(),
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let text = std::fs::read_to_string(&text).unwrap();
    assert_eq!(
        text.lines().nth(1),
        Some(
            format!(
                "corpus: {} (22688 entries in 272 namespaces, {})",
                fixtures.display(),
                loaded.digest()
            )
            .as_str()
        ),
        "{text}"
    );
    let none = report(
        &[
            "--no-corpus",
            "--check",
            "corpus.*",
            "--all-skipped",
            "pass",
        ],
        &dir.path().join("none.json"),
    );
    assert_eq!(none["run"]["corpus"], "none");
    // A run that selects no corpus check loads none, and says nothing.
    let unneeded = report(
        &["--check", "store.upsert"],
        &dir.path().join("unneeded.json"),
    );
    assert_eq!(unneeded["run"].get("corpus"), None, "{unneeded}");
}

#[test]
fn merge_refuses_shards_measured_on_different_corpora() {
    let dir = scratch();
    let a = licence_corpus(dir.path(), "a", "Permission is granted.\n");
    // One namespace more: a driver capped below it passes over `a`.
    let b = dir.path().join("b");
    std::fs::create_dir_all(b.join("licenses")).unwrap();
    std::fs::write(b.join("licenses/tiny.txt"), "Permission is granted.\n").unwrap();
    std::fs::write(b.join("licenses/other.txt"), "Another licence.\n").unwrap();
    // The lexical corpus family is two checks: one per shard.
    let shard = |k: u32, corpus: Option<&Path>, name: &str| {
        let out = dir.path().join(name);
        let mut args = vec!["--family", "corpus", "--shard"];
        let k = format!("{k}/2");
        args.push(&k);
        let root;
        match corpus {
            Some(c) => {
                root = c.to_str().unwrap().to_owned();
                args.extend(["--corpus", &root]);
            }
            None => args.extend(["--no-corpus", "--all-skipped", "pass"]),
        }
        report(&args, &out);
        out.to_str().unwrap().to_owned()
    };
    let (a1, a2, b2, none2) = (
        shard(1, Some(&a), "a1.json"),
        shard(2, Some(&a), "a2.json"),
        shard(2, Some(&b), "b2.json"),
        shard(2, None, "none2.json"),
    );
    let facts = |root: &Path| {
        let c = Corpus::load(root).unwrap();
        format!(
            "{} ({} entries in {} namespaces, {})",
            root.display(),
            c.entries.len(),
            c.namespaces().len(),
            c.digest()
        )
    };
    for (other, theirs) in [(&b2, facts(&b)), (&none2, "none (--no-corpus)".to_owned())] {
        let ran = run(&["merge", &a1, other]);
        assert_eq!(ran.code, 2, "{}", ran.dump());
        assert_eq!(
            ran.stderr,
            format!(
                "error: {other} and {a1} are not shards of one run: their corpora differ \
                 ({theirs} against {}); the corpus checks' verdicts hold for the corpus they \
                 measured\n",
                facts(&a)
            )
        );
        assert_eq!(ran.stdout, "");
    }
    // The same corpus read from another directory is the same corpus.
    let copy = licence_corpus(dir.path(), "copy-of-a", "Permission is granted.\n");
    let moved = shard(2, Some(&copy), "moved2.json");
    let merged = dir.path().join("merged.json");
    let ran = run(&[
        "merge",
        "--format",
        "json",
        "--output",
        merged.to_str().unwrap(),
        &a1,
        &moved,
    ]);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    let merged: Value = serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    let a_report: Value = serde_json::from_str(&std::fs::read_to_string(&a2).unwrap()).unwrap();
    assert_eq!(merged["run"]["corpus"], a_report["run"]["corpus"]);
    // diff notes the change of corpus (and gates on the checks alone).
    let ran = run(&["diff", &a2, &b2]);
    assert!(
        ran.stdout.starts_with(&format!(
            "note: the baseline measured the corpus {}, this run {}: the corpus checks measured \
             other data\n",
            facts(&a),
            facts(&b)
        )),
        "{}",
        ran.dump()
    );
}
