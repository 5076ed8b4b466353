//! Finding the server, or saying clearly why a test did not run.

use std::io::Write;

use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint};
use tinymemory_postgres::{PostgresConfig, PostgresDriver, PostgresFactory, URL_ENV};

/// `true` when the `CI` environment variable says this is CI (set and not
/// `false` or `0`).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The server's configuration from [`URL_ENV`], or why there is none
/// (the reason a test is skipped).
///
/// # Panics
///
/// When `CI` is set and [`URL_ENV`] is not, or does not parse: in CI these
/// tests must run.
fn server(test: &str) -> Result<PostgresConfig, String> {
    match std::env::var(URL_ENV) {
        Ok(url) if !url.trim().is_empty() => Ok(PostgresConfig::from_url(url.trim())
            .unwrap_or_else(|e| panic!("{URL_ENV} is not a usable connection string: {e}"))),
        _ if in_ci() => panic!(
            "{test}: CI is set but {URL_ENV} is not: .ci/run must start the PostgreSQL server \
             (.ci/postgres.sh) and export it; these tests may not be skipped in CI"
        ),
        _ => Err(format!(
            "needs a PostgreSQL server; set {URL_ENV}=postgres://USER@HOST:PORT/DB \
             (README: \"Pointing the suite at your own PostgreSQL\")"
        )),
    }
}

/// The server's configuration from [`URL_ENV`], or `None` after printing
/// why `test` is skipped.
///
/// # Panics
///
/// As [`server`].
pub fn config(test: &str) -> Option<PostgresConfig> {
    server(test)
        .map_err(|why| {
            // Straight to the process's stderr: libtest captures `eprintln!`
            // of passing tests, and a skip must be seen.
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
        })
        .ok()
}

/// The factory `conformance_tests!` runs the standard checks on, or why
/// they are skipped (the macro prints it).
///
/// # Panics
///
/// As [`server`], or when the pool cannot be built.
pub fn suite_factory() -> Result<PostgresFactory, String> {
    server("conformance").map(|c| PostgresFactory::new(&c).expect("the pool builds"))
}

/// A scratch-schema factory on the server, or `None` (skipped).
pub fn factory(test: &str) -> Option<PostgresFactory> {
    config(test).map(|c| PostgresFactory::new(&c).expect("the pool builds"))
}

/// A fresh, empty driver of `factory`, its tables created.
pub async fn fresh(factory: &PostgresFactory) -> PostgresDriver {
    let d = factory.scratch();
    d.ensure_schema()
        .await
        .expect("the scratch schema is created");
    d
}

/// A plain connection for the tests' own SQL (terminating backends,
/// tampering with the version table).
pub async fn admin() -> tokio_postgres::Client {
    let url = std::env::var(URL_ENV).expect("config() checked it");
    let (client, connection) = tokio_postgres::connect(url.trim(), tokio_postgres::NoTls)
        .await
        .expect("the admin connection opens");
    tokio::spawn(connection);
    client
}

/// Stores `content` at `(ns, key)` as a core, internal, sessionless entry.
pub async fn put(d: &dyn MemoryProvider, ns: &str, key: &str, content: &str) {
    d.store(
        ns,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .unwrap_or_else(|e| panic!("store {ns:?}/{key:?}: {e}"));
}

/// The keys of `entries`, in order.
pub fn keys(entries: &[MemoryEntry]) -> Vec<&str> {
    entries.iter().map(|e| e.key.as_str()).collect()
}

/// Gets a factory or returns from the test (after printing the skip).
macro_rules! factory_or_skip {
    ($test:expr) => {
        match $crate::common::factory($test) {
            Some(f) => f,
            None => return,
        }
    };
}

pub(crate) use factory_or_skip;
