//! The standard checks on the PostgreSQL driver, run as any Rust driver's
//! own tests run them: `conformance_tests!`, one `#[test]` per check
//! (`conformance::postgres::recall_limit`), each store a scratch schema of
//! a `PostgresFactory` of the test's own, the bundled corpus loaded for
//! the corpus checks. Without a server each test prints
//! `SKIPPED needs_server::conformance::postgres::<test>: needs a
//! PostgreSQL server …`
//! and passes; with `CI` set it fails instead.

use crate::common::suite_factory;

tinymemory_conformance::conformance_tests!(
    postgres,
    factory = suite_factory(),
    corpus = tinymemory_corpus::Corpus::default_root(),
);
