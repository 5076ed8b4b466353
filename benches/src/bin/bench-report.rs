//! `bench-report [DIR]`: prints the Markdown tables and target checks of
//! one criterion run (the figures of `docs/benchmarks.md`).
//!
//! `DIR` is criterion's home directory: the argument, else
//! `$CRITERION_HOME`, else `target/criterion`. Exit status 0 on success, 1
//! when the directory cannot be read.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::path::PathBuf;
use std::process::ExitCode;

use tinymemory_benches::report;
use tinymemory_sections::{DEFAULT_CONCURRENCY, MAX_SECTION_NAMESPACES};

fn main() -> ExitCode {
    let dir = std::env::args_os()
        .nth(1)
        .or_else(|| std::env::var_os("CRITERION_HOME"))
        .map_or_else(|| PathBuf::from("target/criterion"), PathBuf::from);
    let all = match report::load(&dir) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("bench-report: {e}");
            return ExitCode::from(1);
        }
    };
    print!("{}", report::render(&all, MAX_SECTION_NAMESPACES));
    println!("#### Targets\n");
    for t in report::targets(&all, DEFAULT_CONCURRENCY, MAX_SECTION_NAMESPACES) {
        println!("{t}");
    }
    ExitCode::SUCCESS
}
