//! The portability family: export in pages with a cursor, and import.
//!
//! An export walks every entry of a store in `(namespace, key)` order,
//! ascending and bytewise (the order of `list(None, ..)`), one
//! [`ExportPage`] at a time:
//!
//! ```text
//! cursor = None
//! loop {
//!     page = export_page(cursor, limit)      // at most `limit` records
//!     ... page.records ...
//!     match page.next_cursor { None => break, next => cursor = next }
//! }
//! ```
//!
//! [`MemoryProvider::import`] writes [`MemoryRecord`]s back as upserts on
//! `(namespace, key)`, keeping every field as exported. Together they move
//! a store from one driver to another with nothing lost and nothing changed
//! (`tinymemory-conformance migrate`).
//!
//! [`MemoryProvider::import`]: crate::MemoryProvider::import

mod cursor;
mod import;
mod page;
mod record;

pub use cursor::{ExportCursor, KeysetCursor};
pub use import::{validate_record, ImportFailure, ImportOutcome};
pub use page::{export_from_list, ExportPage};
pub use record::MemoryRecord;

/// The family name carried by [`MemoryError::Unsupported`] for
/// `export_page` and `import`.
///
/// [`MemoryError::Unsupported`]: crate::MemoryError::Unsupported
pub const FAMILY: &str = "portability";
