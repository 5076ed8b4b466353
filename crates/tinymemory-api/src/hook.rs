//! [`CallHook`] and [`Hooked`]: a decorator written once, as tower writes
//! every middleware around one `call`, so that a wrapper which only looks
//! at calls (records them, counts them, delays them, fails some) is a hook
//! of a few lines instead of nine hand-forwarded methods.

use std::future::Future;

use crate::batch::NewEntry;
use crate::interface::Scenario;
use crate::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use crate::{
    Answer, Call, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint,
    NamespaceSummary, RecallOptions,
};

/// What a [`Hooked`] provider does around each storage call (every method
/// but `driver_id`).
///
/// For each call, [`Hooked`] builds its [`Call`], awaits
/// [`CallHook::before`], and then:
///
/// - on `Err(e)`, returns `e` at once: the call never reaches the wrapped
///   provider and [`CallHook::after`] is not called (how a fault injector
///   strikes a call);
/// - on `Ok(pending)`, forwards the call unchanged, then calls
///   [`CallHook::after`] with the same call, the result, and `pending`,
///   and returns the result unchanged.
///
/// If the caller drops the call's future before it finishes, `pending` is
/// dropped without `after` being called, so a `Pending` with a `Drop`
/// impl sees cancellation.
///
/// `before` is async, so a hook may wait (a delay, a permit); `after` is
/// not, since nothing that looks at an answer needs to wait, and a
/// synchronous `after` keeps the hook free of a second future per call.
/// The trait is generic rather than object safe (a returned
/// `impl Future`, an associated type): [`Hooked`] is then as fast as the
/// provider it wraps, with no boxed future of its own beyond the one
/// `async-trait` makes for every `MemoryProvider` method
/// (`docs/benchmarks.md`, `hooked`).
///
/// `()` is the hook that does nothing. Two hooks nest as two decorators:
/// `Hooked::new(Hooked::new(p, inner), outer)`.
pub trait CallHook: Send + Sync {
    /// What `before` hands to `after` for the same call: a start time, a
    /// guard, or `()`.
    type Pending: Send;

    /// Runs before the call is forwarded.
    ///
    /// # Errors
    ///
    /// The error to answer the call with instead of forwarding it.
    fn before(
        &self,
        call: &Call<'_>,
    ) -> impl Future<Output = Result<Self::Pending, MemoryError>> + Send;

    /// Runs after the wrapped provider answered, with its answer; does
    /// nothing by default.
    fn after(&self, call: &Call<'_>, answer: Answer<'_>, pending: Self::Pending) {
        let _ = (call, answer, pending);
    }
}

/// The hook that does nothing: `Hooked<P, ()>` behaves exactly as `P`.
impl CallHook for () {
    type Pending = ();

    async fn before(&self, _call: &Call<'_>) -> Result<(), MemoryError> {
        Ok(())
    }
}

/// A provider `P` whose every storage call goes through the hook `H`
/// (see [`CallHook`] for the order); `driver_id` is forwarded unchanged.
///
/// Like tower's middleware it has `new`, `get_ref`, `get_mut` and
/// `into_inner`, plus [`Hooked::hook`] for the hook. `P` may be unsized,
/// so a `Box<Hooked<ReferenceDriver, H>>` coerces to `Box<Hooked<dyn
/// MemoryProvider, H>>`.
///
/// ```
/// use tinymemory_api::{Call, CallHook, Hooked, MemoryError, MemoryProvider, Method};
/// # use tinymemory_api::{MemoryEntry, NamespaceSummary};
/// # struct Empty;
/// # #[async_trait::async_trait]
/// # impl MemoryProvider for Empty {
/// #     fn driver_id(&self) -> &str { "empty" }
/// #     async fn store(&self, _: &str, _: &str, _: &str, _: tinymemory_api::MemoryCategory,
/// #         _: Option<&str>, _: tinymemory_api::MemoryTaint) -> Result<(), MemoryError> { Ok(()) }
/// #     async fn get(&self, _: &str, _: &str) -> Result<Option<MemoryEntry>, MemoryError> { Ok(None) }
/// #     async fn forget(&self, _: &str, _: &str) -> Result<bool, MemoryError> { Ok(false) }
/// #     async fn list(&self, _: Option<&str>, _: Option<&tinymemory_api::MemoryCategory>,
/// #         _: Option<&str>) -> Result<Vec<MemoryEntry>, MemoryError> { Ok(vec![]) }
/// #     async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> { Ok(vec![]) }
/// #     async fn recall(&self, _: &str, _: usize, _: &tinymemory_api::RecallOptions)
/// #         -> Result<Vec<MemoryEntry>, MemoryError> { Ok(vec![]) }
/// # }
///
/// /// Refuses every `forget`: a read-only view of a store.
/// struct ReadOnly;
///
/// impl CallHook for ReadOnly {
///     type Pending = ();
///
///     async fn before(&self, call: &Call<'_>) -> Result<(), MemoryError> {
///         match call.method() {
///             Method::Forget => Err(MemoryError::fault("read-only")),
///             _ => Ok(()),
///         }
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let driver = Hooked::new(Empty, ReadOnly);
/// assert_eq!(driver.forget("global", "k").await, Err(MemoryError::fault("read-only")));
/// assert_eq!(driver.get("global", "k").await, Ok(None));
/// # });
/// ```
#[derive(Debug, Clone, Default)]
pub struct Hooked<P: ?Sized, H> {
    hook: H,
    inner: P,
}

impl<P, H> Hooked<P, H> {
    /// Wraps `inner`, sending every storage call through `hook`.
    #[must_use]
    pub fn new(inner: P, hook: H) -> Self {
        Self { hook, inner }
    }

    /// Unwraps the provider, dropping the hook.
    #[must_use]
    pub fn into_inner(self) -> P {
        self.inner
    }

    /// The provider and the hook.
    #[must_use]
    pub fn into_parts(self) -> (P, H) {
        (self.inner, self.hook)
    }
}

impl<P: ?Sized, H> Hooked<P, H> {
    /// The hook.
    #[must_use]
    pub fn hook(&self) -> &H {
        &self.hook
    }

    /// The hook, mutably.
    #[must_use]
    pub fn hook_mut(&mut self) -> &mut H {
        &mut self.hook
    }

    /// The wrapped provider.
    #[must_use]
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    /// The wrapped provider, mutably.
    #[must_use]
    pub fn get_mut(&mut self) -> &mut P {
        &mut self.inner
    }
}

/// The one place a call goes through the hook: `before`, then the
/// forwarding expression (only then evaluated, so a refused call never
/// reaches the wrapped provider, not even to make its future), then
/// `after` with the result as the `Answer` variant shows it. A macro
/// rather than a generic `async fn`, so that each method's future is one
/// state machine rather than one nested in another.
macro_rules! through_hook {
    ($self:ident, $call:expr, $forward:expr, $answer:path) => {{
        let call = $call;
        let pending = $self.hook.before(&call).await?;
        let result = $forward.await;
        $self.hook.after(&call, $answer(&result), pending);
        result
    }};
}

// The one impl: each method builds its call and says how to forward its
// own arguments; `through_hook!` does the rest.
#[deny(clippy::missing_trait_methods)]
#[async_trait::async_trait]
impl<P: MemoryProvider + ?Sized, H: CallHook> MemoryProvider for Hooked<P, H> {
    fn driver_id(&self) -> &str {
        self.inner.driver_id()
    }

    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        category: MemoryCategory,
        session_id: Option<&str>,
        taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        let call = Call::Store {
            namespace,
            key,
            content,
            category: &category,
            session_id,
            taint,
        };
        through_hook!(
            self,
            call,
            self.inner
                .store(namespace, key, content, category.clone(), session_id, taint),
            Answer::Store
        )
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        let call = Call::Get { namespace, key };
        through_hook!(self, call, self.inner.get(namespace, key), Answer::Get)
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        let call = Call::Forget { namespace, key };
        through_hook!(
            self,
            call,
            self.inner.forget(namespace, key),
            Answer::Forget
        )
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let call = Call::List {
            namespace,
            category,
            session_id,
        };
        through_hook!(
            self,
            call,
            self.inner.list(namespace, category, session_id),
            Answer::List
        )
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        through_hook!(
            self,
            Call::Namespaces,
            self.inner.namespaces(),
            Answer::Namespaces
        )
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let call = Call::Recall { query, limit, opts };
        through_hook!(
            self,
            call,
            self.inner.recall(query, limit, opts),
            Answer::Recall
        )
    }

    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        let call = Call::StoreMany { entries };
        through_hook!(
            self,
            call,
            self.inner.store_many(entries),
            Answer::StoreMany
        )
    }

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        let call = Call::ExportPage { cursor, limit };
        through_hook!(
            self,
            call,
            self.inner.export_page(cursor, limit),
            Answer::ExportPage
        )
    }

    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        let call = Call::Import { records };
        through_hook!(self, call, self.inner.import(records), Answer::Import)
    }

    async fn interface(&self, scenario: &Scenario<'_>) -> Result<String, MemoryError> {
        let call = Call::Interface {
            interface: scenario.interface,
            check: scenario.check,
            use_async: scenario.use_async,
            inputs: scenario.inputs,
        };
        through_hook!(
            self,
            call,
            self.inner.interface(scenario),
            Answer::Interface
        )
    }
}
