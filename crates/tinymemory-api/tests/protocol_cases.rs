//! `fixtures/protocol-cases.json`, the table the Python and TypeScript
//! protocol libraries are held to, evaluated through this crate: the rules
//! are this crate's, so it is the table's oracle. Errors compare by kind
//! and rule, never by message text (the libraries word their messages as
//! their languages do). The functions that are the libraries' own helpers,
//! with nothing of the contract behind them here, are named in
//! [`LIBRARY_ONLY`], so a new function of the table must be placed.

use std::path::PathBuf;

use serde_json::{json, Value};
use tinymemory_api::text::words;
use tinymemory_api::{
    newest_timestamp, parse_rfc3339, validate_key, MemoryError, Namespace, RecallOptions,
};

/// The table's functions with no counterpart in this crate: the cursor
/// format, paging, case folding, the entry and record checks with their
/// positions, and score checks are the libraries' own (a Rust driver
/// writes its own cursor and validates through [`Namespace`] and
/// [`validate_key`], which the cases of `validate_namespace` and
/// `validate_key` hold).
const LIBRARY_ONLY: [&str; 10] = [
    "check_scores",
    "decode_cursor",
    "encode_cursor",
    "entry",
    "page_after",
    "sort_bytewise",
    "timestamp_key",
    "validate_entries",
    "validate_record",
    "words",
];

fn table() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/protocol-cases.json");
    let text = std::fs::read_to_string(&path).expect("the case table");
    let doc: Value = serde_json::from_str(&text).expect("the case table is JSON");
    doc["cases"].as_array().expect("cases").clone()
}

/// A float of the table: a number, or `{"$float": "nan" | "inf" | "-inf"}`.
fn float(v: &Value) -> Option<f64> {
    match v {
        Value::Null => None,
        Value::Object(o) => Some(match o["$float"].as_str() {
            Some("nan") => f64::NAN,
            Some("inf") => f64::INFINITY,
            Some("-inf") => f64::NEG_INFINITY,
            other => panic!("unknown $float {other:?}"),
        }),
        n => Some(n.as_f64().expect("a number")),
    }
}

/// `{"error": {"kind", "rule"}}`: what the table's errors are compared by.
fn error(e: &MemoryError) -> Value {
    json!({ "error": { "kind": e.kind(), "rule": e.rule() } })
}

fn unit(r: Result<(), MemoryError>) -> Value {
    r.map_or_else(|e| error(&e), |()| json!({ "result": null }))
}

/// What this crate gives for `case`, as the table writes it; `None` for a
/// function of [`LIBRARY_ONLY`].
fn outcome(case: &Value) -> Option<Value> {
    let arg = &case["args"][0];
    let text = || arg.as_str().expect("a string argument");
    Some(match case["fn"].as_str().expect("fn") {
        "validate_namespace" => unit(Namespace::parse(text()).map(drop)),
        "validate_key" => unit(validate_key(text())),
        "validate_min_score" => unit(
            RecallOptions {
                min_score: float(arg),
                ..RecallOptions::default()
            }
            .validate(),
        ),
        "split_words" => json!({ "result": words(text()).collect::<Vec<_>>() }),
        "is_rfc3339" => json!({ "result": parse_rfc3339(text()).is_some() }),
        "latest_timestamp" => {
            let all: Vec<&str> = arg
                .as_array()
                .expect("a list")
                .iter()
                .map(|t| t.as_str().expect("a timestamp"))
                .collect();
            json!({ "result": newest_timestamp(all.iter().copied()) })
        }
        f if LIBRARY_ONLY.contains(&f) => return None,
        f => panic!("the table's function {f} is neither evaluated here nor in LIBRARY_ONLY"),
    })
}

/// The case's `expect`, its error's message left out.
fn expected(case: &Value) -> Value {
    let mut expect = case["expect"].clone();
    if let Some(e) = expect.get_mut("error").and_then(Value::as_object_mut) {
        e.remove("message");
    }
    expect
}

#[test]
fn every_case_of_a_contract_function_is_what_this_crate_gives() {
    let cases = table();
    let mut evaluated = 0;
    let mut differ = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let Some(got) = outcome(case) else { continue };
        evaluated += 1;
        if got != expected(case) {
            differ.push(format!(
                "case {i} {}({}): the table says {}, this crate gives {got}",
                case["fn"], case["args"], case["expect"]
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // validate_namespace 34, validate_key 9, validate_min_score 7,
    // split_words 12, is_rfc3339 33, latest_timestamp 9.
    assert_eq!(evaluated, 104);
}

#[test]
fn the_table_holds_every_function_this_crate_evaluates() {
    let cases = table();
    let fns: std::collections::BTreeSet<&str> = cases
        .iter()
        .map(|c| c["fn"].as_str().expect("fn"))
        .collect();
    for f in LIBRARY_ONLY {
        assert!(fns.contains(f), "{f} is no function of the table");
    }
    assert_eq!(fns.len(), LIBRARY_ONLY.len() + 6, "{fns:?}");
}

#[test]
fn an_error_case_differing_in_rule_is_caught() {
    let case = json!({
        "fn": "validate_namespace", "args": ["a b"],
        "expect": { "error": { "kind": "invalid", "rule": "namespace.empty", "message": "x" } }
    });
    assert_ne!(outcome(&case), Some(expected(&case)));
    let case = json!({
        "fn": "validate_namespace", "args": ["a b"],
        "expect": { "error": { "kind": "invalid", "rule": "namespace.charset", "message": "any wording" } }
    });
    assert_eq!(outcome(&case), Some(expected(&case)));
}
