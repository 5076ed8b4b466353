//! The recording decorator: [`CallLog`] as a [`CallHook`].

use tinymemory_api::{CallHook, Hooked, MemoryError};

use super::{Call, CallLog};

/// Records every storage call (all methods but `driver_id`) into a
/// [`CallLog`], then forwards it unchanged. Results are not recorded. It
/// is [`Hooked`] with the log as its hook: keep a clone of the log, or
/// read it back with [`Hooked::hook`].
///
/// A `store_many` or `import` is recorded as one call holding the whole
/// batch ([`Call::StoreMany`], [`Call::Import`]), not as one call per
/// entry: what reaches the wrapped provider is one call.
///
/// Use it to prove what a host asked of its driver: the `1 + N` cost of a
/// section-wide recall, or that every recall was pinned with
/// `Some(namespace)`.
///
/// ```
/// use tinymemory_api::{MemoryProvider, RecallOptions};
/// use tinymemory_doubles::{Call, CallLog, Recording};
/// use tinymemory_reference::ReferenceDriver;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let log = CallLog::new();
/// let driver = Recording::new(ReferenceDriver::new(), log.clone());
/// driver.namespaces().await?;
/// driver.recall("rust", 5, &RecallOptions::in_namespace("learning:a")).await?;
/// let calls = log.take();
/// assert_eq!(calls[0], Call::Namespaces);
/// assert_eq!((calls[1].namespace(), calls[1].limit()), (Some("learning:a"), Some(5)));
/// assert!(driver.hook().is_empty());
/// # Ok::<(), tinymemory_api::MemoryError>(())
/// # }).unwrap();
/// ```
///
/// A log may be shared by several recordings, so that it holds the calls
/// to several providers in order.
pub type Recording<P> = Hooked<P, CallLog>;

/// Appends the call, owned, when it starts.
impl CallHook for CallLog {
    type Pending = ();

    async fn before(&self, call: &tinymemory_api::Call<'_>) -> Result<(), MemoryError> {
        self.push(Call::from(call));
        Ok(())
    }
}
