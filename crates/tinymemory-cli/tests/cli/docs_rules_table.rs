//! docs/protocol.md opens with the rules table, and
//! docs/validate-python-driver.md has it after its install-and-pytest
//! opening: one row per check of `list`, in run order.

fn listed_ids() -> Vec<String> {
    let out = crate::support::bin::command()
        .arg("list")
        .output()
        .expect("the binary runs");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(id, _)| id.to_owned()))
        .filter(|id| id.contains('.'))
        .collect()
}

/// The check ids of the first `| check | rule | ... |` table of `doc`,
/// and the line it starts on.
fn table_ids(doc: &str) -> (usize, Vec<String>) {
    let path = format!("{}/../../docs/{doc}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect(&path);
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("| check | rule | usual first-attempt mistake |"))
        .expect("the rules table");
    let ids = lines[start + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let id = l.trim_start_matches("| `");
            id[..id.find('`').expect(l)].to_owned()
        })
        .collect();
    (start, ids)
}

#[test]
fn both_docs_open_with_one_row_per_check() {
    let ids = listed_ids();
    assert!(!ids.is_empty(), "list printed no check");
    for doc in ["protocol.md", "validate-python-driver.md"] {
        let (start, rows) = table_ids(doc);
        assert_eq!(rows, ids, "{doc}");
        // The Python walkthrough opens with its three routes, install and
        // pytest, then the options every route shares, then the rules; the
        // protocol opens with its rules.
        let within = if doc == "protocol.md" { 40 } else { 200 };
        assert!(start < within, "{doc}: the table starts on line {start}");
    }
}
