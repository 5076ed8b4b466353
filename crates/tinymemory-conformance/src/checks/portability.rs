//! The portability family: export in pages with a cursor, and import.
//!
//! Every check opens its stores through [`support::portable`], which skips
//! the check, naming the reason, when the driver does not provide the
//! family ([`MemoryError::Unsupported`](tinymemory_api::MemoryError)): a
//! run is then never FULL, but the checks do not fail a driver for a family
//! it says it lacks.

pub(crate) mod support;

mod import;
mod paging;
mod restamp;
mod round_trip;

pub(crate) use import::{import_failures, import_hostile, taint_kept};
pub(crate) use paging::{
    cursor_stable, end_of_export, page_limits, pages_partition, unknown_cursor,
};
pub(crate) use restamp::store_after_import;
pub(crate) use round_trip::round_trip;
