//! How a check gets a fresh driver: the [`DriverFactory`] and
//! [`FnFactory`] of `tinymemory-api`, re-exported, so a driver crate
//! implements the factory without depending on this suite.

pub use tinymemory_api::{DriverFactory, FnFactory};
