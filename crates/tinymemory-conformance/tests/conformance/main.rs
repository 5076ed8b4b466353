//! The suite's own integration tests, one binary (a test binary per file
//! linked the whole graph 25 times on 2 cores). `named_checks.rs` stays a
//! binary of its own: it is cargo-mutants' test command
//! (`.cargo/mutants.toml`, docs/mutation.md).

mod support {
    pub mod fixed_report;
    pub mod one_check;
    pub mod xsd;
}

mod blind_spots_can_fail;
mod check_requests;
mod corpus_batches;
mod corpus_on_reference;
mod crate_stack;
mod harness_io;
mod hints_profile;
mod isolation_can_fail;
mod portability;
mod profiles;
mod progress;
mod properties_can_fail;
mod properties_model;
mod properties_null;
mod properties_reference;
mod properties_regressions;
mod properties_score_seeding;
mod property_batches;
mod report_bundle;
mod report_compare;
mod report_junit_xsd;
mod report_parse;
mod report_render;
mod run_loading;
mod self_test;
mod semantic_checks_can_fail;
mod suite_can_fail;
mod upsert_faults_can_fail;
