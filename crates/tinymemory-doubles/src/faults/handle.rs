//! The handle a test uses to drive [`Faults`](crate::Faults).

use std::sync::{Arc, Mutex};

use super::FaultKind;
use crate::lock::lock;

/// When a rule fires.
#[derive(Debug, Clone)]
enum Trigger {
    /// The n-th call (1-based).
    Nth(u64),
    /// Every call addressed to this namespace.
    Namespace(String),
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
/// included; the first is call 1. A call is *addressed to* namespace `ns`
/// when it is `store`, `get` or `forget` on `ns`, `list` with
/// `Some(ns)`, or `recall` whose effective namespace is `ns` (so an unpinned
/// recall is addressed to `global`). `namespaces()` and `list(None, ..)` are
/// addressed to no namespace. Rules are tried in the order they were added;
/// the first that matches strikes, and the call never reaches the wrapped
/// provider.
#[derive(Debug, Clone, Default)]
pub struct FaultHandle {
    state: Arc<Mutex<State>>,
}

impl FaultHandle {
    pub(crate) fn new() -> Self {
        Self::default()
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

    /// Counts one call addressed to `namespace` and returns the fault to
    /// inject, if a rule matches.
    pub(crate) fn on_call(&self, namespace: Option<&str>) -> Option<FaultKind> {
        let mut state = lock(&self.state);
        state.calls += 1;
        let n = state.calls;
        let kind = state
            .rules
            .iter()
            .find(|(trigger, _)| match trigger {
                Trigger::Nth(k) => *k == n,
                Trigger::Namespace(ns) => namespace == Some(ns.as_str()),
            })
            .map(|(_, kind)| kind.clone());
        if kind.is_some() {
            state.struck += 1;
        }
        kind
    }
}
