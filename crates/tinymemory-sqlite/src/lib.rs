//! The embedded default tinymemory driver: SQLite with full-text recall over
//! a per-namespace inverted index.
//!
//! [`SqliteDriver`] implements [`tinymemory_api::MemoryProvider`] over one
//! SQLite database, either a file ([`SqliteDriver::open`]) or memory
//! ([`SqliteDriver::open_in_memory`]). SQLite is compiled in (the `bundled`
//! feature of `rusqlite`), so nothing needs installing.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
//! use tinymemory_sqlite::SqliteDriver;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let memory = SqliteDriver::open(dir.path().join("memory.db"))?;
//! memory
//!     .store("global", "lock", "use a read AND write lock", MemoryCategory::Core, None, MemoryTaint::Internal)
//!     .await?;
//! let hits = memory.recall("read AND write", 10, &RecallOptions::default()).await?;
//! assert_eq!(hits[0].key, "lock");
//! assert!(hits[0].score.is_some_and(|s| s > 0.0));
//! # Ok::<(), tinymemory_api::MemoryError>(())
//! # }).unwrap();
//! ```
//!
//! # Storage
//!
//! One row per `(namespace, key)` in a plain table, and beside it an
//! inverted index in plain tables: postings keyed by (namespace id, term,
//! entry) and each namespace's entry count and total length, all written in
//! one transaction per call ([`MemoryProvider::store_many`] and
//! [`MemoryProvider::import`] included: all or nothing). A version table
//! records [`SCHEMA_VERSION`]; a file from a newer version is refused on
//! open and left untouched, a version-1 file (FTS5) is migrated in one
//! transaction. Ids are decimal rowids, kept when an entry is replaced and
//! never reused. Timestamps come from [`tinymemory_api::now_rfc3339`]
//! (an import keeps its records' timestamps); taint and category are stored
//! in their text forms and decoded with `MemoryTaint::from_text` (unknown
//! values fail closed to `ExternalSync`) and `MemoryCategory::from_text`.
//! Exports are keyset pages in `(namespace, key)` bytewise order.
//!
//! [`MemoryProvider::store_many`]: tinymemory_api::MemoryProvider::store_many
//! [`MemoryProvider::import`]: tinymemory_api::MemoryProvider::import
//!
//! # Recall
//!
//! - **Scope**: one namespace,
//!   [`RecallOptions::effective_namespace`](tinymemory_api::RecallOptions::effective_namespace)
//!   (`namespace: None` searches `global` only), plus the category and
//!   session filters, `min_score` and `limit` (`0` gives no hits). Only
//!   that namespace's postings are read, so a recall costs what its
//!   namespace holds.
//! - **Query**: plain text, never syntax. The text is cut into words
//!   (below) and an entry holding any of them is a candidate; see
//!   [`MAX_QUERY_TERMS`]. A query with no word in it (empty, whitespace,
//!   only punctuation or operators such as `" * ( :`) returns no hits.
//!   `AND`, `OR`, `NOT`, `NEAR` are searched as words.
//! - **Score**: Okapi BM25 with FTS5's parameters (k1 = 1.2, b = 0.75,
//!   IDF clamped to 10⁻⁶), higher is better, computed with the statistics
//!   of the recalled namespace alone: the value FTS5's `bm25()` would give,
//!   negated, on a table holding only that namespace. Scores are therefore
//!   the same bits whatever other namespaces hold (contract sentence 11).
//!   Equal scores are ordered by key, so the same data gives the same order
//!   whatever the insertion order. Scores are positive and unbounded.
//!
//! # Words
//!
//! Text (content and query alike) is normalised to NFC and cut at every
//! character that is not a letter, number, combining mark or private-use
//! character. In scripts that separate words with spaces, each run is a
//! word, found by that word (case-insensitively, each character folded to
//! lowercase; diacritics significant).
//! In scripts written without spaces (Chinese, Japanese kana and kanji,
//! Thai, Lao, Khmer, Myanmar) the index holds each run's overlapping
//! character bigrams, so **any substring of a run, one character or
//! longer, is a word**: a query run of two or more characters is searched as
//! its bigrams joined with `OR`, plus the whole run as a phrase of them (so
//! entries holding the whole run score highest), a one-character query as
//! that character's prefix. FTS5's
//! `unicode61` tokenizer alone treats a whole run (often a whole sentence)
//! as one token, and without `M*` in its categories it cuts Indic words at
//! their vowel signs; `docs/sqlite.md` has the measured hit rates per
//! language before and after, and the index size each costs.
//!
//! # Concurrency and durability
//!
//! One writer connection behind a mutex and, for a file, four reader
//! connections in WAL mode: many tasks may write and recall through one
//! handle at once without `SQLITE_BUSY` reaching them. SQLite work runs on
//! Tokio's blocking pool, except a read (`recall`, `get`, `namespaces`,
//! `list`, `export_page`) that finishes within [`INLINE_READ_BUDGET`] on
//! the calling thread, and on an in-memory database a write of at most
//! [`INLINE_WRITE_BYTES`] that finishes within [`INLINE_WRITE_BUDGET`]
//! there (a longer call is interrupted, rolled back and run again on the
//! pool). Writes commit with
//! `synchronous = FULL` before returning `Ok`, so they survive a reopen (and a crash). Lock contention
//! with *another* process or handle on the same file waits up to
//! [`BUSY_TIMEOUT`], then surfaces as `MemoryError::Unavailable`; other
//! SQLite failures are `MemoryError::Backend`.
//!
//! # Errors
//!
//! Input is validated before any SQL runs: an invalid namespace is
//! `MemoryError::Invalid` with the rule broken (on every method), as is an
//! invalid key or a non-finite `min_score`. Keys, namespaces and contents
//! are bound as parameters, stored byte for byte (NUL, quotes, `%`, `_`,
//! emoji and right-to-left text included) and compared with `=`, never
//! `LIKE`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod budget;
mod driver;
mod error;
mod index;
mod open;
mod ops;
mod pool;
mod query;
mod read_only;
mod recall;
mod schema;
mod score;
mod write;

pub use driver::{SqliteDriver, INLINE_READ_BUDGET, INLINE_WRITE_BUDGET, INLINE_WRITE_BYTES};
pub use open::BUSY_TIMEOUT;
pub use query::MAX_QUERY_TERMS;
pub use schema::SCHEMA_VERSION;

/// The [`driver_id`](tinymemory_api::MemoryProvider::driver_id) of
/// [`SqliteDriver`]: `"sqlite"`.
pub const DRIVER_ID: &str = "sqlite";
