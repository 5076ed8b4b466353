//! Small helpers the check bodies share.

use tinymemory_api::{MemoryCategory, MemoryEntry, MemoryProvider, MemoryTaint};

use crate::failure::Stop;
use crate::CheckContext;

/// A fresh, empty driver from the context's factory.
pub(crate) async fn fresh(ctx: &CheckContext) -> Result<Box<dyn MemoryProvider>, Stop> {
    ctx.fresh().await.map_err(Stop::fail)
}

/// Stores a `Core`, internal, session-less entry; a failure fails the check
/// naming the call.
pub(crate) async fn put(
    d: &dyn MemoryProvider,
    namespace: &str,
    key: &str,
    content: &str,
) -> Result<(), Stop> {
    d.store(
        namespace,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .map_err(|e| Stop::caused_by(format!("store({namespace:?}, {key:?}) failed: {e}"), &e))
}

/// The keys of `hits`, in order.
pub(crate) fn keys(hits: &[MemoryEntry]) -> Vec<&str> {
    hits.iter().map(|h| h.key.as_str()).collect()
}
