//! A broken environment is one message: before any check, the probe's
//! store is asked the basic operations once (`store`, then `recall`), and
//! when one fails with an error that says the driver's environment is
//! missing something (a module it imports, a server it connects to, a
//! database extension), the run stops there with that error and what to
//! install or start, rather than failing every check one by one
//! on the same error (exit 5, `exit::BROKEN_ENVIRONMENT`). `run
//! --keep-going` runs the checks anyway.
//!
//! Only errors recognised here stop a run ([`remedy`]): a driver that
//! fails a rule, even with an error on these calls, is judged by the
//! checks as before.
//!
//! The probe runs on the first store of the run's own driver, as the
//! open probe before it did, and forgets what it stored, so a store the
//! driver's processes share is as the run found it. A driver of its own
//! for the probe would leave nothing in the checks' first process, but
//! it is one more process at once, which a store over a database one
//! process may hold (LMDB, DuckDB) cannot open: "cannot be opened" for a
//! correct driver. What the probe can still hide (a fault of a process's
//! first calls, a reset that empties a shared store only after a write)
//! shows under `--keep-going`, which makes no such calls (docs/cli.md).

use tinymemory_api::{MemoryCategory, MemoryError, MemoryTaint, RecallOptions};

use crate::driver::Opened;
use crate::error::CliError;

/// The environment variable that does what `--keep-going` does, for a
/// pytest session or a node:test run, whose binary it reaches
/// (`TINYMEMORY_KEEP_GOING=1`).
const KEEP_GOING_ENV: &str = "TINYMEMORY_KEEP_GOING";

/// `true` with `--keep-going`, or with [`KEEP_GOING_ENV`] set to anything
/// but empty or `0`: the run's checks then run whatever the first calls
/// answer.
pub(crate) fn keep_going(flag: bool) -> bool {
    flag || std::env::var(KEEP_GOING_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// What the probe writes: a key no check uses, in `global`.
const PROBE_KEY: &str = "tinymemory-environment-probe";

/// Opens one store of `opened` and calls `store`, `recall` and `forget` on
/// it once.
///
/// # Errors
///
/// [`ProbeFailure::NotOpened`] with the driver's error when the store
/// does not open (as before these calls were made);
/// [`ProbeFailure::Broken`], a [`CliError::BrokenEnvironment`], when a
/// call fails with an error [`remedy`] recognises: the call, the error
/// and the remedy. Any other error of a call is left to the checks.
pub(crate) async fn probe(opened: &Opened) -> Result<(), ProbeFailure> {
    let store = opened
        .factory
        .open()
        .await
        .map_err(ProbeFailure::NotOpened)?;
    let stored = store
        .store(
            "global",
            PROBE_KEY,
            "probe",
            MemoryCategory::Core,
            None,
            MemoryTaint::Internal,
        )
        .await;
    let recalled = store.recall("probe", 1, &RecallOptions::default()).await;
    if stored.is_ok() {
        // Whatever it answers: the checks judge forget, not the probe.
        let _ = store.forget("global", PROBE_KEY).await;
    }
    for (call, result) in [("store", stored.err()), ("recall", recalled.err())] {
        if let Some(e) = result {
            let text = e.with_sources();
            if let Some(remedy) = remedy(&text) {
                // The error first, then what to do, then the driver's
                // stderr that follows the error's first line.
                let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
                let detail = tinymemory_api::shown::visible(rest)
                    .lines()
                    .map(|l| format!("\n{l}"))
                    .collect::<String>();
                return Err(ProbeFailure::Broken(CliError::BrokenEnvironment {
                    call,
                    error: tinymemory_api::shown::visible(first).into_owned(),
                    detail,
                    remedy,
                }));
            }
        }
    }
    Ok(())
}

/// Why [`probe`] stopped the run.
#[derive(Debug)]
pub(crate) enum ProbeFailure {
    /// The store did not open: the driver's error.
    NotOpened(MemoryError),
    /// A call failed on a broken environment.
    Broken(CliError),
}

/// The quoted name after `marker` in `text` (`No module named 'numpy'`
/// gives `numpy`): up to the closing quote of the same kind.
fn quoted_after<'t>(text: &'t str, marker: &str) -> Option<&'t str> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let rest = &rest[1..];
    Some(&rest[..rest.find(quote)?]).filter(|name| !name.is_empty())
}

/// What to install or start for an error whose text says the driver's
/// environment lacks it, or `None` for any other error:
///
/// - Python's `No module named 'X'` (`ImportError`,
///   `ModuleNotFoundError`): install the package providing `X`;
/// - Node's `Cannot find module 'X'` and `Cannot find package 'X'`
///   (`ERR_MODULE_NOT_FOUND`): `npm install X`;
/// - PostgreSQL's `extension "vector" is not available`: install
///   pgvector; another extension: install it;
/// - `connection refused` (`Connection refused`, `ECONNREFUSED`): start
///   the server at the address the error names.
#[must_use]
pub(crate) fn remedy(text: &str) -> Option<String> {
    if let Some(module) = quoted_after(text, "No module named ") {
        let top = module.split('.').next().unwrap_or(module);
        return Some(format!(
            "install the Python package that provides {top:?} in the driver's environment (`pip \
             install {top}`, when the package has the module's name), then run again"
        ));
    }
    for marker in ["Cannot find module ", "Cannot find package "] {
        if let Some(module) = quoted_after(text, marker) {
            if !module.starts_with('.') && !module.starts_with('/') {
                return Some(format!(
                    "install {module:?} where the driver runs (`npm install {module}`), then run \
                     again"
                ));
            }
            return Some(format!(
                "the driver imports {module:?}, which does not exist: build or fix the path, then \
                 run again"
            ));
        }
    }
    if let Some(extension) = quoted_after(text, "extension ") {
        if text.contains("is not available") {
            return Some(if extension == "vector" {
                "install pgvector on the PostgreSQL server (the package postgresql-NN-pgvector, \
                 or `pip install pgserver`, whose PostgreSQL ships it), then run again"
                    .to_owned()
            } else {
                format!(
                    "install the PostgreSQL extension {extension:?} on the server, then run again"
                )
            });
        }
    }
    let lower = text.to_lowercase();
    if lower.contains("connection refused") || text.contains("ECONNREFUSED") {
        return Some(match address(text) {
            Some(at) => format!(
                "start the server at {at} (or point the driver at one that is running), then run \
                 again"
            ),
            None => "start the server the driver connects to (or point the driver at one that \
                     is running), then run again"
                .to_owned(),
        });
    }
    None
}

/// The `HOST:PORT` an error about a refused connection names, if any:
/// the last word of the form `something:digits` (`127.0.0.1:5432`,
/// `localhost:6333`, `[::1]:5432`), or `port N` after a host.
fn address(text: &str) -> Option<String> {
    let words =
        text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '"' | '\''));
    words.rev().find_map(|w| {
        let w = w.trim_end_matches(['.', ';']);
        let (host, port) = w.rsplit_once(':')?;
        let host = host.rsplit("//").next().unwrap_or(host);
        (!host.is_empty() && !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()))
            .then(|| format!("{host}:{port}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_python_module_names_what_to_install() {
        let got = remedy("backend failure: ModuleNotFoundError: No module named 'numpy'");
        assert_eq!(
            got.as_deref(),
            Some(
                "install the Python package that provides \"numpy\" in the driver's environment \
                 (`pip install numpy`, when the package has the module's name), then run again"
            )
        );
        let nested = remedy("ImportError: No module named 'langchain_community.vectorstores'");
        assert!(nested
            .unwrap()
            .contains("`pip install langchain_community`"));
    }

    #[test]
    fn a_missing_node_module_names_what_to_install() {
        let got = remedy("backend failure: Error: Cannot find module 'voy-search'\nRequire stack:");
        assert!(got.unwrap().contains("`npm install voy-search`"));
        let esm = remedy(
            "Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@orama/orama' imported from /x.js",
        );
        assert!(esm.unwrap().contains("`npm install @orama/orama`"));
    }

    #[test]
    fn a_missing_extension_and_a_refused_connection_say_what_to_install_and_start() {
        let pg = remedy("backend failure: db error: ERROR: extension \"vector\" is not available");
        assert!(pg.unwrap().starts_with("install pgvector"));
        let refused = remedy(
            "unavailable: error connecting to server: Connection refused (os error 111) at \
             127.0.0.1:5432",
        );
        assert_eq!(
            refused.as_deref(),
            Some(
                "start the server at 127.0.0.1:5432 (or point the driver at one that is \
                 running), then run again"
            )
        );
        let node = remedy("Error: connect ECONNREFUSED ::1:6333");
        assert!(
            node.unwrap().contains("start the server at ::1:6333"),
            "IPv6 host"
        );
    }

    #[test]
    fn an_error_that_breaks_a_rule_is_no_environment() {
        for text in [
            "backend failure: fts5: syntax error near \"\"\"",
            "backend failure: KeyError: 'k'",
            "invalid input (namespace.charset): bad byte",
            "backend failure: NotImplementedError: get_by_ids",
        ] {
            assert_eq!(remedy(text), None, "{text}");
        }
    }
}
