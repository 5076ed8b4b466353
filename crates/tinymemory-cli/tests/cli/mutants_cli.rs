//! `tinymemory-conformance mutants`: the self-test table, as a user sees it.

use tinymemory_api::RecallProfile;
use tinymemory_conformance::Registry;

fn mutants() -> (i32, String, String) {
    let out = crate::support::bin::command()
        .arg("mutants")
        .output()
        .expect("the binary runs");
    (
        out.status.code().expect("exited with a code"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// One run serves both assertions: it runs every check on every mutant.
#[test]
fn prints_the_self_test_table_and_exits_0() {
    let (code, out, err) = mutants();
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(err, "");

    // Each mutant of the catalogue has a `caught` row naming its recall
    // profile and its check, with its rule on the next line, in catalogue
    // order.
    let lines: Vec<&str> = out.lines().collect();
    let catalogue = tinymemory_doubles::mutants();
    assert_eq!(lines.len(), 3 + 2 * catalogue.len() + 1);
    let of = |p| catalogue.iter().filter(|m| m.profile == p).count();
    let checks = |p| Registry::standard().for_profile(p).len();
    assert_eq!(
        lines[0],
        format!(
            "{} mutants of tinymemory-doubles, each wrapped around the reference driver of its \
             recall profile and run against that profile's checks: {} lexical (reference, {} checks), \
             {} semantic (semantic-reference, {} checks)",
            catalogue.len(),
            of(RecallProfile::Lexical),
            checks(RecallProfile::Lexical),
            of(RecallProfile::Semantic),
            checks(RecallProfile::Semantic),
        )
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["result", "mutant", "profile", "expected", "check", "caught", "by"]
    );
    for (i, m) in catalogue.iter().enumerate() {
        let row: Vec<&str> = lines[3 + 2 * i].split_whitespace().collect();
        assert_eq!(
            row[..4],
            ["caught", m.name, m.profile.as_str(), m.check],
            "row of {}",
            m.name
        );
        let caught_by = row[4..].join(" ");
        let mut got: Vec<&str> = caught_by.split(", ").collect();
        got.sort_unstable();
        let mut want = m.expected_failures();
        want.sort_unstable();
        assert_eq!(got, want, "caught by of {}", m.name);
        assert_eq!(lines[4 + 2 * i].trim_start(), m.rule);
    }
    assert_eq!(
        lines.last().copied(),
        Some(format!("{} passed, 0 failed", catalogue.len()).as_str())
    );

    // The layout (column widths, the rule under the name), on the first
    // mutant: the rows and counts above come from the catalogue and the
    // registry, so a new mutant changes no snapshot.
    insta::assert_snapshot!(lines[1..5].join("\n"));
}
