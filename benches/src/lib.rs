//! Criterion benches for tinymemory live here (see `docs/benchmarks.md` once written).
#![forbid(unsafe_code)]
#![warn(missing_docs)]
