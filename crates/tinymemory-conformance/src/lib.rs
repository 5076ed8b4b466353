//! The tinymemory conformance suite.
//!
//! A [`Registry`] of named [`Check`]s, each with an id
//! (`recall.none_means_global`), a [`Family`], a one-line description, and
//! an [`Outcome`] when run: pass, fail with a message, or skip with a
//! reason. Checks run against a [`DriverFactory`] that opens a fresh, empty
//! driver for every check, so checks cannot see each other's data.
//!
//! The [`Runner`] runs checks one at a time; a check that panics or
//! overruns its timeout fails, and the run goes on.
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
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod check;
mod checks;
mod corpus_store;
mod factory;
mod failure;
mod harness;
pub mod hostile;
pub mod model;
mod properties;
mod registry;
pub mod report;
mod runner;
mod summary;

pub use check::{
    Check, CheckContext, CheckFuture, Counterexample, Failure, Family, Outcome, RunConfig,
};
pub use corpus_store::{LoadReport, LoadedCorpus, Sample};
pub use factory::{DriverFactory, FnFactory};
pub use harness::{
    ConfigError, ExpectationError, ExpectedFailures, Harness, HarnessError, CASES_ENV,
    PROPERTY_TIME_PER_CASE, PROPTEST_CASES_ENV, SEED_ENV,
};
pub use registry::Registry;
pub use report::{Bundle, Comparison, Report, ReportError};
pub use runner::{Runner, DEFAULT_CHECK_TIMEOUT};
pub use summary::{CheckReport, RunSummary};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
