//! The section API's integration tests, one binary.

mod oracle;

mod merge_oracle;
mod section_api;
mod with_doubles;
