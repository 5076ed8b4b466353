//! The tinymemory conformance suite.
//!
//! A driver author's path, in three lines:
//!
//! 1. `cargo add --dev tinymemory-conformance tinymemory-corpus` in the
//!    driver's crate (which implements `tinymemory_api::MemoryProvider`);
//! 2. a factory: a closure returning a fresh, empty `Box<dyn MemoryProvider>`
//!    on every call;
//! 3. `conformance_tests!(my_driver, factory, corpus = Corpus::default_root());`
//!    in `tests/conformance.rs`, then `cargo test`: one test per check.
//!
//! ```
//! # use tinymemory_reference::ReferenceDriver as MyDriver;
//! // tests/conformance.rs of a driver crate
//! tinymemory_conformance::conformance_tests!(
//!     my_driver,
//!     || Ok(Box::new(MyDriver::new()) as _),
//!     corpus = tinymemory_corpus::Corpus::default_root(),
//! );
//! # fn main() {}
//! ```
//!
//! The corpus is the one `tinymemory-corpus` carries (real dialogs and
//! licence texts); without `corpus = ..` the corpus checks skip. The rest
//! of this page is what the suite is made of.
//!
//! A [`Registry`] of named [`Check`]s, each with an id
//! (`recall.none_means_global`), a [`Family`], a one-line description, and
//! an [`Outcome`] when run: pass, fail with a message, or skip with a
//! reason. Checks run against a [`DriverFactory`] that opens a fresh, empty
//! driver for every check, so checks cannot see each other's data.
//!
//! The [`Runner`] runs checks one at a time; a check that panics, or
//! whose driver leaves a call unanswered past the per-call limit, fails;
//! one that runs past its budget while the driver keeps answering ends
//! with [`Outcome::Timeout`]; the run goes on.
//!
//! ```
//! use std::sync::Arc;
//! use tinymemory_conformance::{FnFactory, Registry, Runner};
//! use tinymemory_reference::ReferenceDriver;
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let factory = Arc::new(FnFactory::new("reference", || Ok(Box::new(ReferenceDriver::new()) as _)));
//! let summary = Runner::new(Registry::standard()).run(factory, None, |_| {}).await;
//! assert_eq!(summary.failed(), 0);
//! # });
//! ```
//!
//! # Property checks and the model check
//!
//! The checks of [`Family::Property`] generate [`RunConfig::cases`] cases
//! each from [`RunConfig::seed`] (proptest strategies), run every case on
//! fresh drivers, and shrink the first failing one to a minimal
//! [`Counterexample`] that the same seed reproduces. `model.differential`
//! applies random call sequences to the driver and to the reference driver
//! and compares every answer ([`model`]). A driver that retains nothing is
//! reported as skipped by every property that reads data back, never as
//! passing. `docs/properties.md` states each property.
//!
//! # One `#[test]` per check
//!
//! [`conformance_tests!`] expands a driver factory into a module with one
//! test per check, so `cargo test` lists them one by one; declared expected
//! failures need a reason, and fail their test once they start passing.
//!
//! ```
//! # use tinymemory_reference::ReferenceDriver as MyDriver;
//! // tests/conformance.rs of a driver crate
//! use tinymemory_conformance::RunConfig;
//!
//! tinymemory_conformance::conformance_tests!(
//!     my_driver,
//!     || Ok(Box::new(MyDriver::new()) as _),
//!     config = RunConfig { cases: 128, ..RunConfig::default() },
//!     expected_failures = {
//!         "recall.min_score" => "the engine reports no scores yet; tracked in issue 12",
//!     },
//! );
//! # fn main() {}
//! ```
//!
//! `cargo test` then runs `my_driver::store_upsert`, ...,
//! `my_driver::model_differential` and
//! `my_driver::expected_failures_are_valid`; `TINYMEMORY_CASES` and
//! `TINYMEMORY_SEED` override the configuration ([`RunConfig::from_env`]).
//! [`Harness`] is the same without the macro.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod check;
mod checks;
mod corpus_store;
mod factory;
mod failure;
mod harness;
pub mod hostile;
mod meter;
pub mod model;
pub mod noise;
mod observe;
mod progress;
mod properties;
mod registry;
pub mod report;
mod runner;
pub mod self_test;
pub mod shard;
mod slots;
mod start_order;
pub mod stress;
pub use shard::Shard;
mod summary;

pub use check::{
    Check, CheckContext, CheckFuture, Counterexample, DriverError, Failure, Family, Outcome,
    Profiles, RunConfig,
};
pub use checks::usual_mistake;
pub use corpus_store::{LoadReport, LoadedCorpus, Sample};
pub use factory::{DriverFactory, FnFactory};
pub use harness::{
    ConfigError, ExpectationError, ExpectedFailures, Harness, HarnessError, CASES_ENV,
    PROPTEST_CASES_ENV, SEED_ENV,
};
pub use noise::ScoreNoise;
pub use observe::{CheckStarted, RunObserver};
pub use progress::CaseProgress;
pub use registry::Registry;
pub use report::{Bundle, Comparison, Report, ReportError};
pub use runner::{
    Runner, CALL_TIMEOUT_GRACE, DEFAULT_CALL_TIMEOUT, DEFAULT_CHECK_TIMEOUT,
    DEFAULT_REQUEST_ALLOWANCE, PROPERTY_TIME_PER_CASE,
};
pub use summary::{CheckReport, RunSummary};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
