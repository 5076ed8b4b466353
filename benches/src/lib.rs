//! Shared set-up for tinymemory's criterion benches, and the report that
//! turns one bench run into the tables of `docs/benchmarks.md`.
//!
//! The benches themselves live in `benches/benches/*.rs` (one criterion
//! binary each, `harness = false`):
//!
//! | bench | what it times | floor |
//! | --- | --- | --- |
//! | `fan_out` | `across_section` over N namespaces, reference and SQLite | the same pinned recalls issued one after another |
//! | `fan_out_latency` | the fan-out under `tinymemory_doubles::Latency` (1 ms, 5 ms per call), sequential and at several bounds | [`latency_floor`] |
//! | `merge` | the score merge by total hits | sorting the same scores as plain `f64` |
//! | `enumerate` | the section's namespace filtering | one `namespaces()` call |
//! | `sqlite` | SQLite store and recall at 1k, 10k, 100k entries | the same SQL through bare `rusqlite` |
//! | `sqlite_scale` | a recall pinned to one 1,000-entry namespace of a 100,000- and a 1,000,000-entry SQLite file ([`zipf`] texts, cached under [`bench_data_dir`]) | the same recall on a file holding only that namespace |
//! | `bulk_load` | the corpus into a fresh SQLite file and PostgreSQL schema: `store_many` in batches of 1,000, one `store()` per entry | one `store_many` of the whole corpus |
//! | `hooked` | `get`, `store` and `recall` through `tinymemory_api::Hooked` with the no-op hook, and through a bare forwarding wrapper (`&ReferenceDriver`) | the bare reference driver |
//! | `portability` | `export_page` in pages of 1,000; `import` into a fresh store (SQLite, PostgreSQL) | `list(None, ..)`; `store_many` of the same entries |
//!
//! Every group names its floor [`FLOOR`], or has a computed floor
//! ([`latency_floor`]); [`report`] pairs each median with its floor. Where
//! a floor is measured, the subject is timed alternately with it in the
//! same samples ([`Paired`]), so the ratio holds on a busy machine.
//!
//! Run them all and print the tables with `benches/run.sh` (see
//! `docs/benchmarks.md`); `cargo test -p tinymemory-benches --benches` runs
//! each bench once, on small inputs ([`smoke_run`]), so they cannot rot.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod async_iter;
mod bench_data;
mod config;
mod corpus_entries;
mod fill;
mod ids;
mod merge;
mod mode;
mod paired;
mod ratio;
pub mod report;
mod scores;
mod texts;
pub mod zipf;

pub use async_iter::{iter_async, runtime};
pub use bench_data::{bench_data_dir, disk_dir, memory_backed_dir};
pub use config::criterion_config;
pub use corpus_entries::{corpus_new_entries, record_entry};
pub use fill::{fill_section, scope_name, HITS_PER_NAMESPACE};
pub use ids::{latency_floor, LatencyCase, FLOOR, LATENCY_GROUP_PREFIX};
pub use merge::{
    fingerprint, merge_before, merge_by_full_sort, merge_by_score, merge_keyed_refs,
    merge_keyed_select, merge_kway, Merge, CANDIDATES,
};
pub use mode::{sizes, smoke_from_args, smoke_run};
pub use paired::{bench_paired_async, criterion_home, Paired, PAIRED_DIR};
pub use ratio::report_paired;
pub use scores::{
    fan_out_shape, flatten_floats, hit_lists, scores, shuffled, ScoreMix, SplitMix64,
};
pub use texts::{corpus_texts, texts_with_word, QUERY, QUERY_WORD};
