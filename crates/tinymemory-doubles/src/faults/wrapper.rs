//! The fault-injecting decorator: [`FaultHandle`] as a [`CallHook`].

use tinymemory_api::{Call, CallHook, Hooked, MemoryError};

use super::{FaultHandle, FaultKind};

/// Injects faults: fails the n-th call, every call addressed to one
/// namespace, every call to one method, or every call after a call to one
/// method, with a chosen [`FaultKind`]; calls no rule matches are
/// forwarded unchanged. It is [`Hooked`] with a [`FaultHandle`] as its
/// hook: rules are set on the handle, before wrapping (its `with_*`
/// builders) or at any time through a clone ([`Hooked::hook`]; see
/// [`FaultHandle`] for how calls are counted and matched). A struck call
/// never reaches the wrapped provider.
///
/// ```
/// use tinymemory_api::MemoryProvider;
/// use tinymemory_doubles::{FaultHandle, FaultKind, Faults};
/// use tinymemory_reference::ReferenceDriver;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let rules = FaultHandle::new().with_nth(2, FaultKind::unavailable("down"));
/// let driver = Faults::new(ReferenceDriver::new(), rules);
/// assert!(driver.namespaces().await.is_ok());
/// assert!(driver.namespaces().await.unwrap_err().is_unavailable());
/// assert!(driver.namespaces().await.is_ok());
/// assert_eq!(driver.hook().struck(), 1);
/// # });
/// ```
///
/// # Panics
///
/// A call struck by a [`FaultKind::Panic`] rule panics with its message.
pub type Faults<P> = Hooked<P, FaultHandle>;

/// Counts each call and strikes it when a rule matches.
impl CallHook for FaultHandle {
    type Pending = ();

    async fn before(&self, call: &Call<'_>) -> Result<(), MemoryError> {
        match self.on_call(call) {
            Some(kind) => Err(FaultKind::strike(&kind)),
            None => Ok(()),
        }
    }
}
