//! What the binary prints for programs (docs/reports.md): `list --format
//! json`, held to `fixtures/cli/list.schema.json` and to the human
//! listing.

use std::path::PathBuf;

use serde_json::Value;

use crate::support::bin::run;
use crate::support::schema_check::Schemas;

fn schemas() -> Schemas {
    Schemas::load_from(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/cli"))
}

fn listed(args: &[&str]) -> Value {
    let ran = run(args);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.dump()))
}

/// The ids of the human listing, in its order.
fn text_ids(args: &[&str]) -> Vec<String> {
    let ran = run(args);
    assert_eq!(ran.code, 0, "{}", ran.dump());
    ran.stdout
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(id, _)| id.to_owned()))
        .filter(|id| id.contains('.'))
        .collect()
}

fn ids(listing: &Value) -> Vec<String> {
    listing["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| c["id"].as_str().expect("an id").to_owned())
        .collect()
}

#[test]
fn list_json_matches_its_schema_and_the_human_listing() {
    let schemas = schemas();
    for profile in [None, Some("lexical"), Some("semantic")] {
        let mut args = vec!["list"];
        args.extend(profile.map(|p| ["--profile", p]).into_iter().flatten());
        let listing = listed(&[args.as_slice(), &["--format", "json"]].concat());
        schemas
            .validate("list.schema.json", &listing)
            .unwrap_or_else(|e| panic!("{profile:?}: {e}"));
        assert_eq!(ids(&listing), text_ids(&args), "{profile:?}");
        assert_eq!(listing["profile"], profile.map_or(Value::Null, Value::from));
    }
}

#[test]
fn list_json_gives_every_standard_check_its_mistake_and_a_property_check_its_per_case_time() {
    let listing = listed(&["list", "--format", "json"]);
    let checks = listing["checks"].as_array().expect("checks");
    for c in checks {
        assert!(c["usual_mistake"].is_string(), "{c}");
        let per_case = &c["budget"]["per_case_ms"];
        if c["family"] == "property" {
            assert_eq!(*per_case, Value::from(250), "{c}");
        } else {
            assert!(per_case.is_null(), "{c}");
        }
    }
    assert!(checks.iter().any(|c| c["family"] == "property"));
}

#[test]
fn the_list_schema_refuses_what_it_does_not_describe() {
    let schemas = schemas();
    let mut listing = listed(&["list", "--format", "json"]);
    listing["checks"][0]["budget"]["per_hour_ms"] = Value::from(1);
    assert!(schemas.validate("list.schema.json", &listing).is_err());
    let mut listing = listed(&["list", "--format", "json"]);
    listing.as_object_mut().unwrap().remove("exit_codes");
    assert!(schemas.validate("list.schema.json", &listing).is_err());
}
