//! The SQLite driver's integration tests, one binary (a binary per file
//! linked the whole graph 11 times on 2 cores). `tests/fixtures` holds the
//! files they open.

mod common;

mod bulk;
mod concurrency;
mod conformance;
mod contract;
mod durability;
mod hostile;
mod migration;
mod ordering;
mod portability;
mod read_only;
mod scripts;
