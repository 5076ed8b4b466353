//! The docs' check tables and counts, made from the table of standard
//! checks (`__tinymemory_standard_checks!`): the rules tables of
//! docs/protocol.md and docs/validate-python-driver.md, the applicability
//! table and the per-profile counts of docs/profiles.md, and README.md's
//! table of the contract family; and from tinymemory-doubles' catalogue
//! ([`tinymemory_doubles::mutants`]), the mutants table of its module docs
//! and docs/profiles.md's table of the semantic mutants. Each sits between `<!-- BEGIN GENERATED: NAME -->` and
//! `<!-- END GENERATED: NAME -->`, so the prose around it stays hand-written.
//!
//! The test fails when a table differs from what the registry gives, naming
//! the command that rewrites it (the way rust-analyzer's sourcegen tests and
//! insta's `INSTA_UPDATE` work): `TINYMEMORY_BLESS=1 cargo test -p
//! tinymemory-conformance --lib docs`.

use std::path::PathBuf;

use tinymemory_api::RecallProfile;

use crate::{Check, Family, Profiles, Registry};

/// The docs text of one row.
struct RowDocs {
    id: &'static str,
    mistake: &'static str,
    semantic: &'static str,
}

macro_rules! docs_of_row {
    ($id:literal, { cost_ms: $cost:literal, mistake: $mistake:literal $(,)? }) => {
        RowDocs {
            id: $id,
            mistake: $mistake,
            semantic: "",
        }
    };
    ($id:literal, { cost_ms: $cost:literal, mistake: $mistake:literal, semantic: $semantic:literal $(,)? }) => {
        RowDocs {
            id: $id,
            mistake: $mistake,
            semantic: $semantic,
        }
    };
}

macro_rules! docs_of {
    (; $($test:ident => $id:literal $def:tt $docs:tt;)*) => {
        vec![$(docs_of_row!($id, $docs)),*]
    };
}

/// Every row's docs, in run order, each with its check.
fn rows() -> Vec<(Check, RowDocs)> {
    let registry = Registry::standard();
    let docs: Vec<RowDocs> = crate::__tinymemory_standard_checks!([docs_of]);
    docs.into_iter()
        .map(|d| (*registry.get(d.id).expect("a row of the registry"), d))
        .collect()
}

/// ` (*lexical*)` for a check of one profile, nothing for both.
fn marker(profiles: Profiles) -> &'static str {
    match (
        profiles.contains(RecallProfile::Lexical),
        profiles.contains(RecallProfile::Semantic),
    ) {
        (true, false) => " (*lexical*)",
        (false, true) => " (*semantic*)",
        _ => "",
    }
}

/// The rules table: check, the rule (its description), the mistake.
fn rules() -> String {
    let mut t = String::from("| check | rule | usual first-attempt mistake |\n|---|---|---|\n");
    for (c, d) in rows() {
        assert!(!d.mistake.is_empty(), "{}: a row names its mistake", c.id);
        t.push_str(&format!(
            "| `{}`{} | {} | {} |\n",
            c.id,
            marker(c.profiles),
            c.description,
            d.mistake
        ));
    }
    t
}

/// The applicability table: check, lexical, semantic, what changes.
fn applicability() -> String {
    let mut t = String::from(
        "| check | lexical | semantic | what changes under semantic |\n|---|---|---|---|\n",
    );
    for (c, d) in rows() {
        let yes = |p| if c.profiles.contains(p) { "yes" } else { "—" };
        let note = if d.semantic.is_empty() {
            String::new()
        } else {
            format!("{} ", d.semantic)
        };
        t.push_str(&format!(
            "| `{}` | {} | {} | {note}|\n",
            c.id,
            yes(RecallProfile::Lexical),
            yes(RecallProfile::Semantic),
        ));
    }
    t
}

/// README.md's table of the contract family: check (marked with its
/// profile when it runs under one) and its rule.
fn contract() -> String {
    let mut t = String::from("| check | rule |\n|---|---|\n");
    for (c, _) in rows()
        .into_iter()
        .filter(|(c, _)| c.family == Family::Contract)
    {
        t.push_str(&format!(
            "| `{}`{} | {} |\n",
            c.id,
            marker(c.profiles),
            c.description
        ));
    }
    t
}

/// docs/profiles.md's sentence of how many checks each profile runs.
fn counts() -> String {
    let registry = Registry::standard();
    format!(
        "A run executes exactly the checks of its profile: {} of the {} under `lexical`, {} under `semantic`.\n",
        registry.for_profile(RecallProfile::Lexical).len(),
        registry.len(),
        registry.for_profile(RecallProfile::Semantic).len(),
    )
}

/// How many checks `examples/python/broken_driver.py` fails under
/// `run --no-corpus` (its three bugs, and the checks they reach; the
/// Python tests assert the same seven).
const BROKEN_PYTHON_DRIVER_FAILURES: usize = 7;

/// The closing lines of docs/validate-python-driver.md's transcript of
/// the broken driver: every lexical check but the corpus ones (skipped)
/// and its failures passed.
fn broken_closing() -> String {
    let lexical = Registry::standard().for_profile(RecallProfile::Lexical);
    let skipped = lexical.family(Family::Corpus).len();
    format!(
        "```text\n{} passed, {BROKEN_PYTHON_DRIVER_FAILURES} failed, {skipped} skipped\n$ echo $?\n1\n```\n",
        lexical.len() - BROKEN_PYTHON_DRIVER_FAILURES - skipped
    )
}

/// docs/properties.md's sentence on the null driver: of the property
/// family only `properties.namespace_round_trip` needs no stored data.
fn null_properties() -> String {
    let n = Registry::standard().family(Family::Property).len();
    format!(
        "On the null driver the property family therefore reports `1 passed, 0 failed, {} skipped`: \
         of its {n} checks only `properties.namespace_round_trip` runs without stored data \
         (`tests/conformance/properties_null.rs`).\n",
        n - 1
    )
}

/// The `wrapper` cell of a mutant: its constructor, linked to the item
/// it calls (rustdoc resolves the link from the `mutants` module, and
/// `cargo doc -D warnings` fails on one that does not).
fn wrapper_link(wrapper: &str) -> String {
    let shown = wrapper.strip_prefix("crate::").unwrap_or(wrapper);
    let target = &wrapper[..wrapper.find('(').unwrap_or(wrapper.len())];
    format!("[`{shown}`]({target})")
}

/// The mutants module's table, as `//!` lines: name, profile, wrapper,
/// the check that must catch it, how it breaks the rule.
fn mutants_rustdoc() -> String {
    let mut t = String::from(
        "| name | profile | wrapper | check | how it breaks the rule |\n| --- | --- | --- | --- | --- |\n",
    );
    for m in tinymemory_doubles::mutants() {
        t.push_str(&format!(
            "| `{}` | {} | {} | `{}` | {} |\n",
            m.name,
            m.profile.as_str(),
            wrapper_link(m.wrapper),
            m.check,
            m.description
        ));
    }
    t.lines().map(|l| format!("//! {l}\n")).collect::<String>() + "//! "
}

/// docs/profiles.md's table of the semantic mutants: name, fault, the
/// check that must catch it.
fn semantic_mutants() -> String {
    let mut t = String::from("| mutant | fault | caught by |\n|---|---|---|\n");
    for m in tinymemory_doubles::mutants()
        .iter()
        .filter(|m| m.profile == RecallProfile::Semantic)
    {
        t.push_str(&format!(
            "| `{}` | {} | `{}` |\n",
            m.name, m.description, m.check
        ));
    }
    t
}

/// `text` with the region `name` holding `content`.
///
/// # Panics
///
/// When `doc` lacks either marker of the region.
fn with_region(text: &str, name: &str, content: &str, doc: &str) -> String {
    let begin = format!("<!-- BEGIN GENERATED: {name} -->\n");
    let end = format!("<!-- END GENERATED: {name} -->");
    let start = text
        .find(&begin)
        .unwrap_or_else(|| panic!("{doc} has no line {begin:?}"))
        + begin.len();
    let stop = start
        + text[start..]
            .find(&end)
            .unwrap_or_else(|| panic!("{doc} has no line {end:?}"));
    format!("{}{content}{}", &text[..start], &text[stop..])
}

/// docs/protocol.md's table of rule ids, from [`tinymemory_api::rules::RULES`]:
/// the specification states exactly the rules the contract enforces.
fn rule_ids() -> String {
    let mut out = String::from("| rule | broken when |\n|---|---|\n");
    for rule in tinymemory_api::rules::RULES {
        out.push_str(&format!("| `{}` | {} |\n", rule.id, rule.broken_when));
    }
    out
}

/// Each generated doc is what the registry and the catalogue give, or is rewritten to it
/// under `TINYMEMORY_BLESS=1`.
#[test]
fn docs_tables_are_generated_from_the_registry_and_the_catalogue() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bless = std::env::var_os("TINYMEMORY_BLESS").is_some();
    let regions: [(&str, &str, String); 10] = [
        ("docs/protocol.md", "rules", rules()),
        ("docs/protocol.md", "rule-ids", rule_ids()),
        ("docs/validate-python-driver.md", "rules", rules()),
        ("docs/profiles.md", "counts", counts()),
        ("docs/properties.md", "null-properties", null_properties()),
        (
            "docs/validate-python-driver.md",
            "broken-closing",
            broken_closing(),
        ),
        ("docs/profiles.md", "applicability", applicability()),
        ("README.md", "contract", contract()),
        ("docs/profiles.md", "semantic-mutants", semantic_mutants()),
        (
            "crates/tinymemory-doubles/src/mutants.rs",
            "mutants",
            mutants_rustdoc(),
        ),
    ];
    let mut stale = Vec::new();
    for (doc, name, content) in regions {
        let path = root.join(doc);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{doc}: {e}"));
        let want = with_region(&text, name, &content, doc);
        if want != text {
            if bless {
                std::fs::write(&path, want).unwrap_or_else(|e| panic!("{doc}: {e}"));
            } else {
                stale.push(format!("{doc} ({name})"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "the tables of {} differ from the registry's rows (src/checks.rs) or the \
         mutants catalogue (the entries of tinymemory-doubles/src/mutants/*.rs): \
         rewrite them with TINYMEMORY_BLESS=1 cargo test -p tinymemory-conformance --lib docs",
        stale.join(", ")
    );
}

#[test]
fn a_region_is_replaced_between_its_markers_only() {
    let text = "a\n<!-- BEGIN GENERATED: t -->\nold\n<!-- END GENERATED: t -->\nb\n";
    assert_eq!(
        with_region(text, "t", "new\n", "x.md"),
        "a\n<!-- BEGIN GENERATED: t -->\nnew\n<!-- END GENERATED: t -->\nb\n"
    );
}
