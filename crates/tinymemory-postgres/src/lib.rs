//! The PostgreSQL tinymemory driver: the full contract over a PostgreSQL
//! server, recall by PostgreSQL full-text search.
//!
//! [`PostgresDriver`] implements [`tinymemory_api::MemoryProvider`] over one
//! schema of one database, through a pool of
//! [tokio-postgres](tokio_postgres) connections
//! ([deadpool-postgres](deadpool_postgres)). It is configured by a
//! connection URL; it creates its tables on connect, and keeps a version
//! with them.
//!
//! ```no_run
//! # async fn example() -> Result<(), tinymemory_api::MemoryError> {
//! use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
//! use tinymemory_postgres::PostgresDriver;
//!
//! let memory = PostgresDriver::connect("postgres://app@127.0.0.1:5432/app").await?;
//! memory
//!     .store("global", "lock", "use a read AND write lock", MemoryCategory::Core, None, MemoryTaint::Internal)
//!     .await?;
//! let hits = memory.recall("read AND write", 10, &RecallOptions::default()).await?;
//! assert_eq!(hits[0].key, "lock");
//! assert!(hits[0].score.is_some_and(|s| s > 0.0));
//! # Ok(())
//! # }
//! ```
//!
//! # Storage
//!
//! One row per `(namespace, key)` in `memory_entries`, in the schema
//! [`DEFAULT_SCHEMA`] unless [`PostgresConfig::with_schema`] names another;
//! a version table records [`SCHEMA_VERSION`], and a schema from a newer
//! version is refused and left untouched (the `schema` module's docs give
//! the layout). Ids are decimal identity values, kept when an entry is
//! replaced and never reused. Timestamps come from
//! [`tinymemory_api::now_rfc3339`]; taint and category are stored in their
//! text forms and decoded with `MemoryTaint::from_text` (unknown values fail
//! closed to `ExternalSync`) and `MemoryCategory::from_text`.
//!
//! **NUL characters.** PostgreSQL `TEXT` cannot hold U+0000, which the
//! contract allows in keys, contents, session ids and custom categories.
//! Rather than refuse them or escape them, the driver stores those four as
//! `BYTEA` holding the UTF-8 bytes exactly as given: every value
//! round-trips byte for byte, NUL included, and `BYTEA` compares and orders
//! bytewise, as Rust orders strings. (Namespaces are ASCII without NUL by
//! the contract, and are `TEXT COLLATE "C"`.) To read a content in `psql`:
//! `convert_from(content, 'UTF8')`, which fails only on the rare NUL.
//!
//! # Bulk writes and portability
//!
//! - `store_many` is all-or-nothing: validated first, then written in one
//!   transaction as multi-row upserts (`unnest` of one array per column, at
//!   most 1,000 rows or about 8 MiB per statement); a key the batch repeats
//!   keeps its last entry, and rows are written in `(namespace, key)` order
//!   so that concurrent batches over the same keys cannot deadlock.
//! - `export_page` is a keyset read after a
//!   [`KeysetCursor`](tinymemory_api::portability::KeysetCursor), ordered by
//!   `(namespace, key)` bytewise (`namespace` in the `C` collation, `key`
//!   as `BYTEA`) on the `UNIQUE (namespace, key)` index; it reads one row
//!   more than the page to know whether another follows.
//! - `import` writes the valid records the same way, in one transaction,
//!   each keeping its timestamp as the text it was given (the column is
//!   `TEXT`, so no round trip through `timestamptz` rewrites it), and
//!   reports the others.
//!
//! # Recall
//!
//! - **Scope**: one namespace, [`RecallOptions::effective_namespace`](tinymemory_api::RecallOptions::effective_namespace)
//!   (`namespace: None` searches `global` only), plus the category and
//!   session filters, `min_score` and `limit` (`0` gives no hits).
//! - **Words**: the same as the SQLite driver's, cut in Rust (the `text`
//!   module, a copy of the SQLite driver's): NFC, then runs of letters,
//!   numbers and marks; runs of scripts written without spaces (Chinese,
//!   Japanese, Thai, Lao, Khmer, Myanmar) as overlapping character bigrams,
//!   so any substring of such a run is found. Words are lowercased in Rust.
//!   The server's parser and dictionaries are not used, so recall does not
//!   depend on the database's locale.
//! - **Query**: plain text, never `tsquery` syntax. Its words are written as
//!   quoted lexemes joined with `|` (OR) and bound as a parameter; `&`,
//!   `!`, `<->`, `:*`, quotes and parentheses typed by the user are
//!   separators, and `AND`, `OR`, `NOT`, `NEAR` are words. A query with no
//!   word returns no hits. At most [`MAX_QUERY_TERMS`] terms are used.
//! - **Index**: a `tsvector` column with a GIN index, matched with `@@`.
//! - **Score**: `ts_rank`, widened exactly from `real` to `f64`: finite,
//!   positive, higher is better; equal scores are ordered by key, so the
//!   same data gives the same order whatever the insertion order.
//!   `ts_rank` has no document-frequency term, so scores compare across
//!   namespaces and databases, and what other namespaces hold never
//!   changes a pinned recall's hits or scores (contract sentence 11).
//! - **`pg_trgm`** is not used: the bigram words above already find every
//!   word of every script of the corpus (the measurement is in
//!   `docs/postgres.md`), and a trigram index cannot match the one- and
//!   two-character words those scripts are full of. Not needing the
//!   extension also means the driver runs on a server where the user may
//!   not install extensions.
//!
//! # Connections and errors
//!
//! A pool of at most [`PostgresConfig::max_connections`] plain (non-TLS)
//! connections, opened on demand, shared by clones. Every method validates
//! its input before any I/O: an invalid namespace, key or `min_score` is
//! `MemoryError::Invalid` with the rule broken. Every value is a bound
//! parameter; nothing the caller gives is formatted into SQL. A lost
//! connection (server restarted or shutting down, backend terminated,
//! network down, connect timeout) fails the call that was using it with
//! `MemoryError::Unavailable`, and the next call opens a new connection;
//! server errors a retry cannot fix (no permission, no such database) are
//! `MemoryError::Backend`. A `store` that returned `Ok` was committed.
//!
//! # Testing against a server
//!
//! [`PostgresFactory`] opens fresh, empty stores (one scratch schema each)
//! and drops them afterwards; it is a `tinymemory_api::DriverFactory`, the
//! conformance suite's way to fresh stores. This crate's own tests read the server's URL from the
//! environment variable [`URL_ENV`]; `.ci/run` starts a throwaway server
//! and sets it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bulk;
mod config;
mod driver;
mod error;
mod export;
mod factory;
mod ops;
mod pool;
pub mod rules;
mod schema;
mod score;
mod sql;
mod tsearch;

pub use config::{
    PostgresConfig, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_SCHEMA,
    MAX_SCHEMA_LEN, POOL_WAIT_TIMEOUT,
};
pub use driver::{PostgresDriver, StoreIdentity};
pub use factory::{PostgresFactory, SCRATCH_PREFIX};
pub use schema::SCHEMA_VERSION;
pub use tsearch::MAX_QUERY_TERMS;

/// The [`driver_id`](tinymemory_api::MemoryProvider::driver_id) of
/// [`PostgresDriver`]: `"postgres"`.
pub const DRIVER_ID: &str = "postgres";

/// The environment variable naming the server this crate's tests (and
/// `.ci/run`'s conformance run) use: a URL such as
/// `postgres://postgres@127.0.0.1:55432/postgres`.
pub const URL_ENV: &str = "TINYMEMORY_POSTGRES_URL";
