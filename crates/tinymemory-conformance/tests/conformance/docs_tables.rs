//! The docs' hand-written check tables and counts agree with the registry:
//! README.md's table of the contract family and docs/profiles.md's counts.
//! (The rules tables and docs/profiles.md's applicability table are
//! generated from the registry's rows: `src/checks/docs.rs`.) Each table
//! is found by its header wherever it is, so the other sections of a file
//! may change freely.

use tinymemory_api::RecallProfile;
use tinymemory_conformance::{Check, Family, Profiles, Registry};

fn read(doc: &str) -> String {
    let path = format!("{}/../../{doc}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rows of the first table of `text` whose header line starts with
/// `header`, as cells (the separator row skipped).
fn table(text: &str, header: &str, doc: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(header))
        .unwrap_or_else(|| panic!("{doc} has no table headed {header:?}"));
    lines[start + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

/// `` `recall.limit` (*lexical*) `` → `("recall.limit", "(*lexical*)")`.
fn id_cell(cell: &str) -> (String, String) {
    let rest = cell.strip_prefix('`').unwrap_or_else(|| panic!("{cell}"));
    let end = rest.find('`').unwrap_or_else(|| panic!("{cell}"));
    (rest[..end].to_owned(), rest[end + 1..].trim().to_owned())
}

fn ids(checks: &[Check]) -> Vec<String> {
    checks.iter().map(|c| c.id.to_owned()).collect()
}

/// The marker a rules table gives a check of `profiles`: none for both.
fn marker(profiles: Profiles) -> &'static str {
    match (
        profiles.contains(RecallProfile::Lexical),
        profiles.contains(RecallProfile::Semantic),
    ) {
        (true, false) => "*lexical*",
        (false, true) => "*semantic*",
        _ => "",
    }
}

/// `twenty` → 20, for the counts README.md spells out.
fn number(word: &str) -> usize {
    const UNITS: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 3] = ["twenty", "thirty", "forty"];
    if let Some(n) = UNITS.iter().position(|u| *u == word) {
        return n;
    }
    let (tens, unit) = word.split_once('-').unwrap_or((word, "zero"));
    let t = TENS
        .iter()
        .position(|t| *t == tens)
        .unwrap_or_else(|| panic!("not a number word: {word:?}"));
    20 + 10 * t + number(unit)
}

/// The word after `before` in `text`.
fn word_after<'a>(text: &'a str, before: &str, doc: &str) -> &'a str {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("{doc} no longer says {before:?}"));
    text[at + before.len()..]
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .next()
        .unwrap_or_default()
}

#[test]
fn readme_lists_the_contract_family_and_counts_it() {
    let text = read("README.md");
    let rows = table(&text, "| check | the driver must |", "README.md");
    let contract = Registry::standard().family(Family::Contract);
    let mut got: Vec<String> = rows.iter().map(|r| id_cell(&r[0]).0).collect();
    got.sort();
    let mut want = ids(contract.checks());
    want.sort();
    assert_eq!(got, want, "README.md: the contract family's checks");
    for r in &rows {
        let (id, _) = id_cell(&r[0]);
        let check = contract.get(&id).expect("listed");
        let m = marker(check.profiles);
        assert_eq!(
            r[1].starts_with("*lexical*") || r[1].starts_with("*semantic*"),
            !m.is_empty(),
            "README.md: {id} is marked with its profile exactly when it runs under one"
        );
        assert!(m.is_empty() || r[1].starts_with(m), "README.md: {id}");
    }
    let sentences = number(word_after(&text, "rustdoc states the ", "README.md"));
    let more = number(word_after(&text, "the contract family adds ", "README.md"));
    assert_eq!(
        sentences + more,
        contract.len(),
        "README.md: the contract sentences and the checks the contract family adds"
    );
}

#[test]
fn profiles_md_states_the_counts_and_profiles_of_the_registry() {
    let text = read("docs/profiles.md");
    let registry = Registry::standard();
    let sentence = "A run executes exactly the checks of its profile: ";
    let at = text.find(sentence).expect("the counts sentence") + sentence.len();
    let numbers: Vec<usize> = text[at..]
        .split('.')
        .next()
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(
        numbers,
        [
            registry.for_profile(RecallProfile::Lexical).len(),
            registry.len(),
            registry.for_profile(RecallProfile::Semantic).len(),
        ],
        "docs/profiles.md: lexical, total, semantic"
    );
    let rows = table(
        &text,
        "| check | lexical | semantic | what changes under semantic |",
        "docs/profiles.md",
    );
    let mut covered: Vec<String> = Vec::new();
    for r in &rows {
        let (id, rest) = id_cell(&r[0]);
        let checks: Vec<&Check> = match id.strip_suffix('*') {
            Some(prefix) => {
                let group: Vec<&Check> = registry
                    .checks()
                    .iter()
                    .filter(|c| c.id.starts_with(prefix))
                    .collect();
                assert_eq!(
                    rest,
                    format!("({} checks)", group.len()),
                    "docs/profiles.md: the count of {id}"
                );
                group
            }
            None => vec![registry
                .get(&id)
                .unwrap_or_else(|| panic!("docs/profiles.md lists {id}, not in the registry"))],
        };
        for c in checks {
            let yes = |p| if c.profiles.contains(p) { "yes" } else { "—" };
            assert_eq!(
                (r[1].as_str(), r[2].as_str()),
                (yes(RecallProfile::Lexical), yes(RecallProfile::Semantic)),
                "docs/profiles.md: the profiles of {}",
                c.id
            );
            covered.push(c.id.to_owned());
        }
    }
    assert_eq!(
        covered,
        ids(registry.checks()),
        "docs/profiles.md: every check once, in run order"
    );
}
