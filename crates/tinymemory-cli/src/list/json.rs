//! `list --format json`: the checks as programs read them, with what the
//! runner grants each (its budget) and the exit codes a run ends with, so
//! a host (the pytest plugin, the TypeScript package) computes its own
//! deadline and reads an exit code from the binary rather than from a
//! copy. `fixtures/cli/list.schema.json` is the schema.

use serde::Serialize;
use tinymemory_api::RecallProfile;
use tinymemory_conformance::{
    usual_mistake, Check, Family, Registry, RunConfig, DEFAULT_CALL_TIMEOUT, DEFAULT_CHECK_TIMEOUT,
    DEFAULT_REQUEST_ALLOWANCE, PROPERTY_TIME_PER_CASE,
};

use crate::exit;

/// The version of this document's shape: bumped as the JSON report's is
/// (CHANGELOG.md), when a reader would misread it.
pub(crate) const SCHEMA_VERSION: u32 = 1;

/// The whole document.
#[derive(Debug, Serialize)]
struct Listing {
    schema_version: u32,
    tool: &'static str,
    tool_version: &'static str,
    /// The exec protocol version this build speaks.
    protocol_version: u32,
    /// `--profile` as given; `None` lists every check.
    profile: Option<String>,
    defaults: Defaults,
    exit_codes: ExitCodes,
    checks: Vec<Listed>,
}

/// `run`'s defaults, in milliseconds and cases.
#[derive(Debug, Serialize)]
struct Defaults {
    /// `--timeout`: the base of every check's budget.
    check_timeout_ms: u128,
    /// What each request a check makes adds to its budget.
    request_allowance_ms: u128,
    /// A property check's base is at least this times the cases.
    property_time_per_case_ms: u128,
    /// `--cases`.
    cases: u32,
    /// `--call-timeout`: one driver call unanswered this long is hung.
    call_timeout_ms: u128,
}

/// `crates/tinymemory-cli/src/exit.rs`, by name.
#[derive(Debug, Serialize)]
struct ExitCodes {
    success: u8,
    failures: u8,
    usage: u8,
    setup: u8,
    no_checks_ran: u8,
    broken_environment: u8,
}

/// One check.
#[derive(Debug, Serialize)]
struct Listed {
    id: &'static str,
    family: &'static str,
    /// `true` when the check runs only for a driver whose hello declares
    /// a framework interface ([`Family::needs_interface`]): a driver
    /// serving none skips it.
    needs_interface: bool,
    /// `lexical`, `semantic` or both, in that order.
    profiles: Vec<String>,
    /// What the driver must do (`list`'s description).
    rule: &'static str,
    /// `None` for a check that is not a standard one.
    usual_mistake: Option<&'static str>,
    budget: Budget,
}

/// What the runner grants one check under the defaults: `max(base_ms,
/// per_case_ms × cases) + per_request_ms × requests made`; a run's
/// `--timeout SECS` replaces `base_ms`.
#[derive(Debug, Serialize)]
struct Budget {
    base_ms: u128,
    per_request_ms: u128,
    /// Property checks only; `None` for the others.
    per_case_ms: Option<u128>,
}

/// The JSON listing of `all`'s checks (only those applying to `profile`,
/// when given), pretty-printed, with a final newline.
pub(super) fn text(all: &Registry, profile: Option<RecallProfile>) -> String {
    let listed = match profile {
        Some(p) => all.for_profile(p),
        None => all.clone(),
    };
    let listing = Listing {
        schema_version: SCHEMA_VERSION,
        tool: "tinymemory-conformance",
        tool_version: env!("CARGO_PKG_VERSION"),
        protocol_version: tinymemory_exec::protocol::PROTOCOL_VERSION,
        profile: profile.map(|p| p.to_string()),
        defaults: Defaults {
            check_timeout_ms: DEFAULT_CHECK_TIMEOUT.as_millis(),
            request_allowance_ms: DEFAULT_REQUEST_ALLOWANCE.as_millis(),
            property_time_per_case_ms: PROPERTY_TIME_PER_CASE.as_millis(),
            cases: RunConfig::DEFAULT_CASES,
            call_timeout_ms: DEFAULT_CALL_TIMEOUT.as_millis(),
        },
        exit_codes: ExitCodes {
            success: exit::SUCCESS,
            failures: exit::FAILURES,
            usage: exit::USAGE,
            setup: exit::SETUP,
            no_checks_ran: exit::NO_CHECKS_RAN,
            broken_environment: exit::BROKEN_ENVIRONMENT,
        },
        checks: listed.checks().iter().map(listed_check).collect(),
    };
    tinymemory_conformance::report::to_json_text(&listing)
}

fn listed_check(c: &Check) -> Listed {
    Listed {
        id: c.id,
        family: c.family.as_str(),
        needs_interface: c.family.needs_interface(),
        profiles: [RecallProfile::Lexical, RecallProfile::Semantic]
            .into_iter()
            .filter(|&p| c.profiles.contains(p))
            .map(|p| p.to_string())
            .collect(),
        rule: c.description,
        usual_mistake: usual_mistake(c.id),
        budget: Budget {
            base_ms: DEFAULT_CHECK_TIMEOUT.as_millis(),
            per_request_ms: DEFAULT_REQUEST_ALLOWANCE.as_millis(),
            per_case_ms: (c.family == Family::Property).then(|| PROPERTY_TIME_PER_CASE.as_millis()),
        },
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use tinymemory_conformance::{Outcome, Profiles};

    use super::*;

    fn check(id: &'static str, family: Family, profiles: Profiles) -> Check {
        Check {
            id,
            family,
            profiles,
            description: "what the driver must do",
            run: |_| Box::pin(async { Outcome::Pass }),
        }
    }

    fn listing(profile: Option<RecallProfile>) -> Value {
        let registry = Registry::from_checks(vec![
            check("store.upsert", Family::Contract, Profiles::BOTH),
            check("recall.ranked", Family::Contract, Profiles::SEMANTIC),
            check("property.model", Family::Property, Profiles::LEXICAL),
            check("interface.x.get", Family::Interface, Profiles::BOTH),
        ]);
        serde_json::from_str(&text(&registry, profile)).expect("JSON")
    }

    #[test]
    fn each_check_with_its_rule_mistake_and_budget() {
        let all = listing(None);
        assert_eq!(all["profile"], Value::Null);
        assert_eq!(
            all["checks"],
            json!([
                {
                    "id": "store.upsert", "family": "contract", "needs_interface": false,
                    "profiles": ["lexical", "semantic"],
                    "rule": "what the driver must do",
                    "usual_mistake": usual_mistake("store.upsert").unwrap(),
                    "budget": { "base_ms": 60000, "per_request_ms": 1000, "per_case_ms": null }
                },
                {
                    "id": "recall.ranked", "family": "contract", "needs_interface": false,
                    "profiles": ["semantic"],
                    "rule": "what the driver must do",
                    "usual_mistake": null,
                    "budget": { "base_ms": 60000, "per_request_ms": 1000, "per_case_ms": null }
                },
                {
                    "id": "property.model", "family": "property", "needs_interface": false,
                    "profiles": ["lexical"],
                    "rule": "what the driver must do",
                    "usual_mistake": null,
                    "budget": { "base_ms": 60000, "per_request_ms": 1000, "per_case_ms": 250 }
                },
                {
                    "id": "interface.x.get", "family": "interface", "needs_interface": true,
                    "profiles": ["lexical", "semantic"],
                    "rule": "what the driver must do",
                    "usual_mistake": null,
                    "budget": { "base_ms": 60000, "per_request_ms": 1000, "per_case_ms": null }
                }
            ])
        );
    }

    #[test]
    fn the_defaults_and_exit_codes_are_the_binarys() {
        let all = listing(None);
        assert_eq!(all["schema_version"], 1);
        assert_eq!(all["tool_version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(all["protocol_version"], 1);
        assert_eq!(
            all["defaults"],
            json!({
                "check_timeout_ms": 60000, "request_allowance_ms": 1000,
                "property_time_per_case_ms": 250, "cases": 64, "call_timeout_ms": 30000
            })
        );
        assert_eq!(
            all["exit_codes"],
            json!({ "success": 0, "failures": 1, "usage": 2, "setup": 3, "no_checks_ran": 4,
                    "broken_environment": 5 })
        );
    }

    #[test]
    fn a_profile_lists_its_checks_only() {
        let semantic = listing(Some(RecallProfile::Semantic));
        assert_eq!(semantic["profile"], "semantic");
        let ids: Vec<&str> = semantic["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["store.upsert", "recall.ranked", "interface.x.get"]);
    }
}
