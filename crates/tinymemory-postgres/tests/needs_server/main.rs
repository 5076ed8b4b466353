//! The PostgreSQL driver against a real server: the server's URL comes from
//! `TINYMEMORY_POSTGRES_URL` (`.ci/run` starts a throwaway server and sets
//! it). Without it each test prints `SKIPPED <test>: needs a PostgreSQL
//! server …` to stderr and returns; with `CI` set, it fails instead.
//!
//! Every test works in scratch schemas of its own (a `PostgresFactory`
//! each), so tests running at once, and runs sharing a server, never see
//! each other's data; the schemas are dropped at the end.

mod bulk;
mod common;
mod concurrency;
mod conformance;
mod connection;
mod contract;
mod hostile;
mod isolation;
mod portability;
mod schema;
