//! `run --check PATTERN` and `run --family NAME`: run some checks only.

use tinymemory_api::RecallProfile;
use tinymemory_conformance::Registry;

use crate::support::bin::{corpus_dir, ran_ids, run_parts as run};

/// The ids `list --profile` gives for `profile`, in run order.
fn ids_of(profile: &str) -> Vec<String> {
    let (code, out, err) = run(&["list", "--profile", profile]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter_map(|l| l.split_once(' ').map(|(id, _)| id.to_owned()))
        .filter(|id| id.contains('.'))
        .collect()
}

#[test]
fn one_exact_check_runs_alone_and_loads_no_corpus() {
    // The corpus directory does not exist: loading it would exit 3.
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "store.upsert",
        "--corpus",
        "/nonexistent",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(ran_ids(&out), ["store.upsert"]);
    assert!(!out.contains("loaded"), "{out}");
    assert!(!out.contains("example:"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "conformance: PARTIAL (lexical, filtered: contract)",
            "1 passed, 0 failed"
        ]
    );
    assert!(
        !out.contains("FULL"),
        "a filtered run never says FULL: {out}"
    );
}

#[test]
fn a_glob_selects_by_id_prefix_and_suffix() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--cases",
        "2",
        "--check",
        "recall.*",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let expected: Vec<String> = ids_of("lexical")
        .into_iter()
        .filter(|id| id.starts_with("recall."))
        .collect();
    // `list` names the registry's recall checks of the profile.
    let registry: Vec<&str> = Registry::standard()
        .for_profile(RecallProfile::Lexical)
        .checks()
        .iter()
        .map(|c| c.id)
        .filter(|id| id.starts_with("recall."))
        .collect();
    assert_eq!(expected, registry);
    assert_eq!(ran_ids(&out), expected);

    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--corpus",
        "/nonexistent",
        "--check",
        "*self_retrieval",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    // corpus.self_retrieval applies to the semantic profile only.
    assert_eq!(ran_ids(&out), ["recall.self_retrieval"]);
}

#[test]
fn a_selected_corpus_check_loads_the_corpus() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "semantic",
        "--corpus",
        &corpus_dir(),
        "--check",
        "*self_retrieval",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        ran_ids(&out),
        ["recall.self_retrieval", "corpus.self_retrieval"]
    );
    assert!(out.lines().any(|l| l.starts_with("loaded ")), "{out}");

    let (code, _, err) = run(&[
        "run",
        "--driver",
        "semantic",
        "--corpus",
        "/nonexistent",
        "--check",
        "corpus.self_retrieval",
    ]);
    assert_eq!(code, 3, "{err}");
}

#[test]
fn a_pattern_matches_family_names_and_patterns_add_up() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--corpus",
        "/nonexistent",
        "--check",
        "sections",
        "--check",
        "forget.idempotent",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let mut expected = vec!["forget.idempotent".to_owned()];
    expected.extend(
        ids_of("lexical")
            .into_iter()
            .filter(|id| id.starts_with("sections.")),
    );
    assert_eq!(expected.len(), 9);
    assert_eq!(ran_ids(&out), expected);
    assert!(
        out.lines()
            .any(|l| l == "conformance: PARTIAL (lexical, filtered: contract, sections)"),
        "{out}"
    );
}

#[test]
fn family_selects_a_whole_family() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--corpus",
        &corpus_dir(),
        "--family",
        "corpus",
        "--quiet",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "conformance: PARTIAL (lexical, filtered: corpus)",
            "2 passed, 0 failed"
        ]
    );

    let (code, _, err) = run(&["run", "--driver", "reference", "--family", "corpora"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("corpora"), "{err}");
}

#[test]
fn a_pattern_matching_no_check_is_a_usage_error_naming_it() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "store.upsert",
        "--check",
        "recall.limt",
    ]);
    assert_eq!(code, 2, "stdout:\n{out}\nstderr:\n{err}");
    // Refused before the driver is opened: it matches no check at all.
    assert_eq!(
        err,
        "error: --check recall.limt matches no check id or family; \
         `tinymemory-conformance list` lists them\n"
    );
    assert_eq!(ran_ids(&out), Vec::<String>::new());
    // A check of the other profile only: refused once the driver's
    // profile is known.
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--check",
        "recall.ranking_higher_better",
    ]);
    assert_eq!(code, 2, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(
        err,
        "error: --check recall.ranking_higher_better matches no check id or family of the \
         lexical recall profile; `tinymemory-conformance list --profile lexical` lists them\n"
    );
    // With --profile, that is known before the driver is opened too.
    let (code, _, err) = run(&[
        "run",
        "--driver",
        "exec:false",
        "--profile",
        "lexical",
        "--check",
        "recall.ranking_higher_better",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("error: --check recall.ranking_higher_better matches no check id or family of the lexical"), "{err}");

    let (code, _, err) = run(&["run", "--driver", "reference", "--check", "recall.[a"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("recall.[a"), "{err}");
}

#[test]
fn the_json_report_records_the_filter() {
    let (code, out, err) = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--format",
        "json",
        "--check",
        "store.upsert",
        "--family",
        "sections",
    ]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        v["run"]["filter"],
        serde_json::json!({ "checks": ["store.upsert"], "families": ["sections"] })
    );
    assert_eq!(v["conformance"]["level"], "partial");
    assert_eq!(v["conformance"]["filtered"], true);
    assert_eq!(v["counts"]["total"], 9);

    // An unfiltered run writes neither field.
    let (code, out, _) = run(&[
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--format",
        "json",
        "--cases",
        "1",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(v["run"].get("filter").is_none(), "{out}");
    assert!(v["conformance"].get("filtered").is_none(), "{out}");
}

#[test]
fn a_selection_whose_every_check_is_skipped_exits_4_unless_allowed() {
    let args = [
        "run",
        "--driver",
        "reference",
        "--no-corpus",
        "--family",
        "corpus",
    ];
    let (code, out, err) = run(&args);
    let corpus = ids_of("lexical")
        .into_iter()
        .filter(|id| id.starts_with("corpus."))
        .count();
    assert_eq!(code, 4, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(ran_ids(&out).len(), corpus);
    assert!(
        out.ends_with(&format!("0 passed, 0 failed, {corpus} skipped\n")),
        "{out}"
    );
    assert_eq!(
        err,
        format!(
            "error: every selected check was skipped ({corpus} of {corpus}), so nothing was \
             verified; --all-skipped warn or pass accepts such a run\n"
        )
    );

    let (code, _, err) = run(&[&args[..], &["--all-skipped", "warn"]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        format!(
            "warning: every selected check was skipped ({corpus} of {corpus}), so nothing was \
             verified\n"
        )
    );
    let (code, _, err) = run(&[&args[..], &["--all-skipped", "pass"]].concat());
    assert_eq!((code, err.as_str()), (0, ""));
}
