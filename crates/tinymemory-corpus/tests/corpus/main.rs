//! The corpus loader's integration tests, one binary.

mod real_corpus;
mod temp_dirs;
