//! The handle a test uses to drive [`Faults`](crate::Faults).

use std::sync::{Arc, Mutex};

use tinymemory_api::Call;

use super::FaultKind;
use crate::lock::lock;
use crate::Method;

/// When a rule fires.
#[derive(Debug, Clone)]
enum Trigger {
    /// The n-th call (1-based).
    Nth(u64),
    /// Every call addressed to this namespace.
    Namespace(String),
    /// Every call to this method.
    Method(Method),
    /// Every call that starts after a call to `method` started.
    After {
        /// The method whose call arms the rule.
        method: Method,
        /// Whether such a call has started.
        armed: bool,
    },
}

impl Trigger {
    /// Whether `call`, numbered `n`, fires this trigger.
    fn fires(&self, n: u64, call: &Call<'_>) -> bool {
        match self {
            Self::Nth(k) => *k == n,
            Self::Namespace(ns) => call.addresses(ns),
            Self::Method(m) => *m == call.method(),
            Self::After { armed, .. } => *armed,
        }
    }
}

#[derive(Debug, Default)]
struct State {
    calls: u64,
    struck: u64,
    rules: Vec<(Trigger, FaultKind)>,
}

/// Controls and observes one [`Faults`](crate::Faults) decorator. Clones
/// share it, so a test keeps a handle after the decorator is boxed.
///
/// # Counting and matching
///
/// Every storage call (every method but `driver_id`) counts, failed ones
/// included; the first is call 1. A call is *addressed to* a namespace as
/// [`Call::addresses`] says: `store`, `get` or `forget` on it, `list` with
/// `Some(ns)`, or `recall` whose effective namespace it is (so an unpinned
/// recall is addressed to `global`). A `store_many` or `import` is one call,
/// addressed to every namespace its entries or records name, so a
/// namespace rule strikes the whole batch (nothing of it reaches the
/// wrapped provider). `namespaces()`, `list(None, ..)` and `export_page`
/// are addressed to no namespace. Rules are tried in the order they were added;
/// the first that matches strikes, and the call never reaches the wrapped
/// provider.
///
/// # Changing behaviour mid-test
///
/// Like a `tower-test` handle, a clone held by the test drives the double
/// while the code under test owns it: add a rule between two calls, or
/// arm one that fires on its own partway through a host's call. For
/// example [`FaultHandle::fail_after`] with [`Method::Namespaces`] lets a
/// section recall enumerate its namespaces, then fails every recall it
/// fans out:
///
/// ```
/// use tinymemory_api::{MemoryCategory, MemorySection, MemoryTaint, RecallOptions};
/// use tinymemory_doubles::{FaultHandle, FaultKind, Faults, Method};
/// use tinymemory_reference::ReferenceDriver;
/// use tinymemory_sections::Sections;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let handle = FaultHandle::new();
/// let driver = Faults::new(ReferenceDriver::new(), handle.clone());
/// let sections = Sections::new(&driver);
/// sections
///     .learnings()
///     .put("rust", "k1", "async rust", MemoryCategory::Core, None, MemoryTaint::Internal)
///     .await?;
///
/// handle.fail_after(Method::Namespaces, FaultKind::unavailable("connection lost"));
/// let err = sections
///     .recall()
///     .across_section(&MemorySection::Learning, "rust", 5, &RecallOptions::default())
///     .await
///     .unwrap_err();
/// assert!(err.is_unavailable());
/// // The namespaces() call went through; the one recall after it did not.
/// assert_eq!((handle.calls(), handle.struck()), (3, 1));
/// # Ok::<(), tinymemory_api::MemoryError>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, Default)]
pub struct FaultHandle {
    state: Arc<Mutex<State>>,
}

impl FaultHandle {
    /// A handle with no rule and no call counted: a [`Faults`](crate::Faults)
    /// built on it forwards every call.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a rule failing the `n`-th call (1-based) with `kind`, as
    /// [`FaultHandle::fail_nth`] does, and returns the handle.
    ///
    /// # Panics
    ///
    /// When `n` is 0.
    #[must_use]
    pub fn with_nth(self, n: u64, kind: FaultKind) -> Self {
        self.fail_nth(n, kind);
        self
    }

    /// Adds a rule failing every call addressed to `namespace` with `kind`,
    /// as [`FaultHandle::fail_namespace`] does, and returns the handle.
    #[must_use]
    pub fn with_namespace(self, namespace: impl Into<String>, kind: FaultKind) -> Self {
        self.fail_namespace(namespace, kind);
        self
    }

    /// Adds a rule failing every call to `method` with `kind`, as
    /// [`FaultHandle::fail_method`] does, and returns the handle.
    #[must_use]
    pub fn with_method(self, method: Method, kind: FaultKind) -> Self {
        self.fail_method(method, kind);
        self
    }

    /// Adds a rule failing every call that starts after a call to
    /// `method`, with `kind`, as [`FaultHandle::fail_after`] does, and
    /// returns the handle.
    #[must_use]
    pub fn with_after(self, method: Method, kind: FaultKind) -> Self {
        self.fail_after(method, kind);
        self
    }

    /// Fails the `n`-th call (1-based, counting every method, earlier and
    /// failed calls included) with `kind`. A call number already passed
    /// never fires.
    ///
    /// # Panics
    ///
    /// When `n` is 0: calls are counted from 1.
    pub fn fail_nth(&self, n: u64, kind: FaultKind) {
        assert!(
            n > 0,
            "calls are counted from 1; fail_nth(0) would never fire"
        );
        lock(&self.state).rules.push((Trigger::Nth(n), kind));
    }

    /// Fails every call addressed to `namespace` (compared byte for byte)
    /// with `kind`, until [`FaultHandle::clear`].
    pub fn fail_namespace(&self, namespace: impl Into<String>, kind: FaultKind) {
        lock(&self.state)
            .rules
            .push((Trigger::Namespace(namespace.into()), kind));
    }

    /// Fails every call to `method` with `kind`, until
    /// [`FaultHandle::clear`].
    pub fn fail_method(&self, method: Method, kind: FaultKind) {
        lock(&self.state)
            .rules
            .push((Trigger::Method(method), kind));
    }

    /// Fails every call that starts after a call to `method` started, with
    /// `kind`, until [`FaultHandle::clear`]. The arming call itself is not
    /// struck by this rule; calls to `method` before the rule was added do
    /// not arm it.
    pub fn fail_after(&self, method: Method, kind: FaultKind) {
        lock(&self.state).rules.push((
            Trigger::After {
                method,
                armed: false,
            },
            kind,
        ));
    }

    /// Removes every rule; the call counter is kept.
    pub fn clear(&self) {
        lock(&self.state).rules.clear();
    }

    /// How many calls were seen so far, failed ones included.
    #[must_use]
    pub fn calls(&self) -> u64 {
        lock(&self.state).calls
    }

    /// How many calls a rule struck so far.
    #[must_use]
    pub fn struck(&self) -> u64 {
        lock(&self.state).struck
    }

    /// Counts `call` and returns the fault to inject, if a rule matches;
    /// then arms the [`FaultHandle::fail_after`] rules waiting for its
    /// method.
    pub(crate) fn on_call(&self, call: &Call<'_>) -> Option<FaultKind> {
        let method = call.method();
        let mut state = lock(&self.state);
        state.calls += 1;
        let n = state.calls;
        let kind = state
            .rules
            .iter()
            .find(|(trigger, _)| trigger.fires(n, call))
            .map(|(_, kind)| kind.clone());
        for (trigger, _) in &mut state.rules {
            if let Trigger::After { method: m, armed } = trigger {
                *armed |= *m == method;
            }
        }
        if kind.is_some() {
            state.struck += 1;
        }
        kind
    }
}
