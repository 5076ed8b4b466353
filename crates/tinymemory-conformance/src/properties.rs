//! The property checks: randomised properties of the section API over a
//! driver, each run for [`RunConfig::cases`](crate::RunConfig::cases)
//! generated cases on fresh drivers, shrunk to a minimal counterexample on
//! failure. `docs/properties.md` states each property and what it compares.
//! A case writes its data by one `store_many` per run of entries without a
//! repeated `(namespace, key)` (`batch`), its fault left to
//! `properties.store_many_matches_store`.

pub(crate) mod batch;
mod cap;
mod concurrency;
mod cost;
pub(crate) mod data;
pub(crate) mod engine;
mod memo;
mod namespace_names;
mod normalisation;
mod ordering;
mod portability;
pub(crate) mod retention;
mod run;
mod store_many;
mod truncation;

pub(crate) use cap::CHECK as CAP_DETERMINISM;
pub(crate) use concurrency::CHECK as CONCURRENCY;
pub(crate) use cost::CHECK as PINNING_COST;
pub(crate) use namespace_names::CHECK as NAMESPACE_ROUND_TRIP;
pub(crate) use normalisation::CHECK as CUSTOM_SPELLING;
pub(crate) use ordering::CHECK as ACROSS_ORDERING;
pub(crate) use portability::{PARTITION as EXPORT_PARTITION, ROUND_TRIP as EXPORT_ROUND_TRIP};
pub(crate) use store_many::CHECK as STORE_MANY_MATCHES_STORE;
pub(crate) use truncation::CHECK as TRUNCATION;
