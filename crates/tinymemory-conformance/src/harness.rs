//! The driver author's test harness: [`conformance_tests!`](crate::conformance_tests)
//! turns one driver factory into one `#[test]` per check, run through a
//! [`Harness`], with [`ExpectedFailures`] for the checks a driver is known
//! to fail and the run configuration read from the environment
//! ([`RunConfig::from_env`](crate::RunConfig::from_env)).

mod env;
mod expected;
mod macros;
mod suite;

pub use env::{ConfigError, CASES_ENV, PROPTEST_CASES_ENV, SEED_ENV};
pub use expected::{ExpectationError, ExpectedFailures};
pub use suite::{Harness, HarnessError};
