//! A store that outlives the run and already holds entries (`sqlite:PATH`,
//! [`crate::driver::DriverKind::kept_store`]) is not loaded into without
//! `--overwrite`.

use tinymemory_api::MemoryProvider;

use crate::driver::DriverSpec;
use crate::error::CliError;

/// Refuses to load the corpus into an existing kept store that holds
/// entries, when `refuse_entries` says the run would load it without
/// `--overwrite`: the load upserts, so it would replace the user's entries
/// that share a namespace and key.
///
/// # Errors
///
/// A usage error naming the store, what it holds and the way out; or the
/// failure to read it.
pub(crate) async fn refuse(
    driver: &DriverSpec,
    store: &dyn MemoryProvider,
    refuse_entries: bool,
) -> Result<(), CliError> {
    let Some(path) = driver.kept_store() else {
        return Ok(());
    };
    if !refuse_entries {
        return Ok(());
    }
    let namespaces = store.namespaces().await.map_err(|e| {
        CliError::Usage(format!("failed to read the store {}: {e}", path.display()))
    })?;
    if namespaces.is_empty() {
        return Ok(());
    }
    let entries: u64 = namespaces.iter().map(|n| n.count).sum();
    Err(CliError::Usage(format!(
        "the store {} already holds {entries} entries in {} namespaces, and loading the corpus \
         would replace those with the same namespace and key; name a new file, or pass \
         --overwrite to load the corpus into it anyway",
        path.display(),
        namespaces.len()
    )))
}
