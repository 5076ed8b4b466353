//! The PostgreSQL server the tests that need one use: the URL in
//! `TINYMEMORY_POSTGRES_URL`, which `.ci/run` sets for its throwaway
//! server.

use std::io::Write;

/// The variable naming the server.
pub const URL_ENV: &str = "TINYMEMORY_POSTGRES_URL";

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The server's URL, or `None` with a `SKIPPED what: …` line on stderr.
///
/// # Panics
///
/// With `CI` set and no URL: in CI, `what` must run.
pub fn url(what: &str) -> Option<String> {
    match std::env::var(URL_ENV) {
        Ok(url) if !url.trim().is_empty() => Some(url.trim().to_owned()),
        _ if in_ci() => panic!("CI is set but {URL_ENV} is not: {what} may not be skipped in CI"),
        _ => {
            // Straight to the process's stderr: libtest captures the
            // output of passing tests, and a skip must be seen.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {what}: needs a PostgreSQL server; set {URL_ENV}=postgres://USER@HOST:PORT/DB"
            );
            None
        }
    }
}
