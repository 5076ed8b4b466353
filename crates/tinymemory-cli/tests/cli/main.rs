//! The command line's integration tests, one binary (a binary per file
//! linked the whole graph 17 times on 2 cores). They run the built
//! `tinymemory-conformance` (`support::bin`); `tests/drivers` holds the
//! exec drivers they start.

#[allow(dead_code, reason = "each helper is used by some of the modules")]
mod support {
    pub mod bin;
    pub mod server;
    // The conformance crate's tests validate JUnit the same way: one file.
    #[path = "../../../../tinymemory-conformance/tests/conformance/support/xsd.rs"]
    pub mod xsd;
    // The exec crate's validator of the protocol's schemas reads
    // fixtures/cli's the same way.
    #[path = "../../../../tinymemory-exec/tests/exec/schema_check.rs"]
    pub mod schema_check;
}

mod alone;
mod baseline;
mod bundle_replay;
mod cli;
mod corpus_measured;
mod cut_documents;
mod docs_rules_table;
mod environment;
mod events;
mod filter;
mod gate;
mod interrupts;
mod jobs;
mod json_escapes;
mod load_progress;
mod machine;
mod migrate;
mod migrate_postgres;
mod mutants_cli;
mod outputs;
mod portability_across;
mod report_formats;
mod reproduce;
mod shared_errors;
mod slow_driver;
mod trace;
mod unattended;
