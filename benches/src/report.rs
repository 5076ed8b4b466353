//! The report of one bench run: criterion's saved estimates, each median
//! next to its floor, and the targets checked.
//!
//! Criterion writes `<id>/new/benchmark.json` and
//! `<id>/new/estimates.json` under its home directory (`$CRITERION_HOME`,
//! else `target/criterion`) for every benchmark it measured. [`load`] reads
//! them all, [`render`] prints the Markdown tables of
//! `docs/benchmarks.md`, [`targets`] checks the targets.

mod load;
mod table;
mod targets;

pub use load::{load, Measurement, ReportError};
pub use table::{format_ns, ratio_to_floor, render};
pub use targets::{targets, Target};
