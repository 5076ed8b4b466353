//! Whether the driver keeps what it is given, asked before any property
//! that needs stored data: on a driver that retains nothing (the null
//! driver) such a property would pass without checking anything, so it is
//! skipped with that reason instead.

use tinymemory_api::{MemoryCategory, MemoryTaint};

use crate::{CheckContext, Failure, Outcome};

/// The entry the probe stores.
const PROBE: (&str, &str, &str) = ("learning:retention-probe", "probe", "retention probe");

/// `Ok(())` when a fresh driver returns an entry stored in it through `get`;
/// otherwise the outcome the property reports instead of running: a skip
/// naming the reason when the entry is not returned, a failure when the
/// driver errs.
pub(crate) async fn probe(ctx: &CheckContext) -> Result<(), Outcome> {
    let driver_id = ctx.factory.driver_id();
    let d = ctx.fresh().await.map_err(Outcome::fail)?;
    let (ns, key, content) = PROBE;
    d.store(
        ns,
        key,
        content,
        MemoryCategory::Core,
        None,
        MemoryTaint::Internal,
    )
    .await
    .map_err(|e| {
        Outcome::fail(
            Failure::new(format!(
                "retention probe: store({ns:?}, {key:?}) failed: {e}"
            ))
            .caused_by(&e),
        )
    })?;
    match d.get(ns, key).await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(Outcome::Skip(format!(
            "driver retains nothing: an entry stored in a fresh {driver_id} driver was not \
             returned by get, so this property would pass without checking anything"
        ))),
        Err(e) => Err(Outcome::fail(
            Failure::new(format!("retention probe: get({ns:?}, {key:?}) failed: {e}"))
                .caused_by(&e),
        )),
    }
}
