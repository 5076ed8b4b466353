//! The section API: typed access to conversations, learnings, documents and
//! the other sections, and a recall that fans out over every namespace of a
//! section and merges the hits deterministically.
//!
//! Hosts use this instead of concatenating `"conversation:" + id`: every
//! addressed call builds its namespace with
//! [`Namespace`](tinymemory_api::Namespace), and every call refuses an
//! unusable section instead of reporting it empty.
//!
//! ```
//! use tinymemory_api::{MemoryCategory, MemorySection, MemoryTaint, RecallOptions};
//! use tinymemory_reference::ReferenceDriver;
//! use tinymemory_sections::Sections;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let driver = ReferenceDriver::new();
//! let sections = Sections::new(&driver);
//! sections
//!     .learnings()
//!     .put("rust-async", "k1", "async fn returns a future", MemoryCategory::Core, None, MemoryTaint::Internal)
//!     .await?;
//! sections
//!     .learnings()
//!     .put("tokio", "k1", "tokio runs async tasks", MemoryCategory::Core, None, MemoryTaint::Internal)
//!     .await?;
//!
//! let topics = sections.learnings().scopes().await?;
//! assert_eq!(topics.len(), 2);
//!
//! let found = sections
//!     .recall()
//!     .across_section(&MemorySection::Learning, "async", 10, &RecallOptions::default())
//!     .await?;
//! assert_eq!(found.hits.len(), 2);
//! assert_eq!(found.searched, ["learning:rust-async", "learning:tokio"]);
//! assert!(!found.truncated);
//! # Ok::<(), tinymemory_api::MemoryError>(())
//! # }).unwrap();
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod recall;
mod scope;
mod sections;
mod view;

pub use recall::fan_out::recall_failed_in;
pub use recall::hits::SectionHits;
pub use recall::merge::{compare_hits, merge_hits, MergeStrategy, DEFAULT_RRF_K};
pub use recall::{
    SectionRecall, DEFAULT_CONCURRENCY, MAX_SECTION_NAMESPACES, NAMESPACE_FILTER_CONFLICT,
};
pub use scope::SectionScope;
pub use sections::Sections;
pub use view::SectionView;
