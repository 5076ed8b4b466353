//! Counting the work a check asks of its driver, and the calls still
//! waiting for an answer: how the runner tells a slow driver (it keeps
//! answering) from a hung one (a call gets no answer), and how it sizes a
//! check's budget (`docs/reports.md`, "Per-check timeout"); and which
//! errors the driver itself returned, so that a failure is attributed to
//! the driver's own error rather than to the section API's wrapping of it
//! ([`Meter::attribute`]).

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use async_trait::async_trait;
use tinymemory_api::{Answer, CallHook, Hooked, MemoryError, MemoryProvider, RecallProfile};

use crate::{DriverError, DriverFactory, Outcome};

/// One driver call, as a message names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Call {
    /// The method, as the exec protocol names it: `store`, `recall`, ...
    pub(crate) op: &'static str,
    /// The namespace it addresses, when it addresses one.
    pub(crate) namespace: Option<String>,
    /// The key it addresses, when it addresses one.
    pub(crate) key: Option<String>,
    /// Units of work it asks for: 1, or the entries or records of a
    /// `store_many` or `import` (at least 1).
    pub(crate) units: u64,
}

impl Call {
    fn new(op: &'static str) -> Self {
        Self {
            op,
            namespace: None,
            key: None,
            units: 1,
        }
    }
}

/// The call as a message names it: its method, the namespace and key as
/// passed, and a batch's size as its units.
impl From<&tinymemory_api::Call<'_>> for Call {
    fn from(call: &tinymemory_api::Call<'_>) -> Self {
        let len = call.batch_len().unwrap_or(1);
        Self {
            op: call.method().as_str(),
            namespace: call.namespace().map(str::to_owned),
            key: call.key().map(str::to_owned),
            units: u64::try_from(len).unwrap_or(u64::MAX).max(1),
        }
    }
}

/// `` `recall` (namespace "a:b") ``, `` `get` (namespace "g", key "k") ``,
/// `` `store_many` (120 entries) ``; the driver's own strings are escaped.
impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.op)?;
        let mut parts = Vec::new();
        if let Some(ns) = &self.namespace {
            parts.push(format!("namespace {:?}", ns));
        }
        if let Some(key) = &self.key {
            parts.push(format!("key {:?}", key));
        }
        if self.units > 1 {
            parts.push(format!("{} entries", self.units));
        }
        if !parts.is_empty() {
            write!(f, " ({})", parts.join(", "))?;
        }
        Ok(())
    }
}

#[derive(Debug, Default)]
struct Inner {
    /// Calls that returned, with an answer or an error.
    answered: AtomicU64,
    /// Units of the calls started, answered or not.
    units: AtomicU64,
    next: AtomicU64,
    waiting: Mutex<Vec<(u64, Call, Instant)>>,
    /// The errors of the driver's pinned recalls, keyed by the error the
    /// section API makes of each (`recall in namespace "NS" failed: ..`).
    wrapped: Mutex<HashMap<DriverError, DriverError>>,
}

/// Most errors [`Inner::wrapped`] keeps: distinct errors of pinned recalls
/// are a handful in a failing check; a property that recalls invalid
/// namespaces on purpose makes one per case, and past this many the later
/// ones are not kept (their failures keep the section API's error).
const MAX_WRAPPED: usize = 4096;

/// The calls of one check: how many were answered, how much work was asked
/// for, and which are still waiting. Cheap to clone; clones share the
/// counts.
#[derive(Debug, Clone, Default)]
pub(crate) struct Meter {
    inner: Arc<Inner>,
}

impl Meter {
    fn waiting(&self) -> MutexGuard<'_, Vec<(u64, Call, Instant)>> {
        // A push or a removal cannot leave the list half-changed.
        self.inner
            .waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records that `call` starts now; the guard records its answer.
    fn start(&self, call: Call) -> Waiting {
        let id = self.inner.next.fetch_add(1, Ordering::Relaxed);
        self.inner.units.fetch_add(call.units, Ordering::Relaxed);
        self.waiting().push((id, call, Instant::now()));
        Waiting {
            meter: self.clone(),
            id,
            answered: false,
        }
    }

    /// Calls that returned so far.
    pub(crate) fn answered(&self) -> u64 {
        self.inner.answered.load(Ordering::Relaxed)
    }

    /// Units of work of the calls started so far.
    pub(crate) fn units(&self) -> u64 {
        self.inner.units.load(Ordering::Relaxed)
    }

    /// Keeps `e`, the error the driver returned for a recall pinned to
    /// `namespace`, under the error the section API's fan-out makes of it.
    fn record_recall_error(&self, namespace: &str, e: &MemoryError) {
        let bare = match e {
            MemoryError::Invalid { rule, message } => MemoryError::invalid(rule, message.clone()),
            MemoryError::Unavailable { message, .. } => MemoryError::unavailable(message.clone()),
            MemoryError::Backend { message, .. } => MemoryError::fault(message.clone()),
            MemoryError::Unsupported { family, message } => {
                MemoryError::unsupported(family, message.clone())
            }
            _ => return,
        };
        let wrapped = DriverError::from(&tinymemory_sections::recall_failed_in(namespace, bare));
        let mut kept = self
            .inner
            .wrapped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() < MAX_WRAPPED {
            kept.entry(wrapped).or_insert_with(|| DriverError::from(e));
        }
    }

    /// `outcome` with its failure's driver error replaced by the driver's
    /// own when it is the section API's wrapping of one this meter saw.
    ///
    /// Why here and not in the section API's error: `across_section`
    /// rebuilds the driver's error with its namespace in the message
    /// (`MemoryError::Invalid` has no `source` to keep the original in),
    /// and every check sees its driver only through this meter, so the
    /// driver's own error is known here, exactly, whichever check, helper
    /// or property case made the call. Failures then group by what the
    /// driver said, not by which namespace or path it was seen through.
    pub(crate) fn attribute(&self, outcome: Outcome) -> Outcome {
        let own = |failure: crate::Failure| {
            let Some(seen) = failure.driver_error.clone() else {
                return failure;
            };
            let kept = self
                .inner
                .wrapped
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match kept.get(&seen) {
                Some(own) => failure.with_driver_error(Some(own.clone())),
                None => failure,
            }
        };
        match outcome {
            Outcome::Fail(failure) => Outcome::Fail(own(failure)),
            Outcome::ExpectedFailure { reason, failure } => Outcome::ExpectedFailure {
                reason,
                failure: own(failure),
            },
            other => other,
        }
    }

    /// The waiting call that reaches its per-call limit first, when each
    /// unit of a call's work gets `limit` (a batch of N entries may take N
    /// calls' time: a driver without `store_many` is sent N `store`s):
    /// the call, since when it waits, and when it is past its limit.
    pub(crate) fn first_to_hang(
        &self,
        limit: std::time::Duration,
    ) -> Option<(Call, Instant, Instant)> {
        self.waiting()
            .iter()
            .map(|(_, call, since)| {
                let units = u32::try_from(call.units).unwrap_or(u32::MAX);
                let deadline = crate::runner::later(*since, limit.saturating_mul(units));
                (call.clone(), *since, deadline)
            })
            .min_by_key(|(_, _, deadline)| *deadline)
    }

    /// The call that has waited longest for its answer, and since when.
    pub(crate) fn oldest_waiting(&self) -> Option<(Call, Instant)> {
        self.waiting()
            .iter()
            .min_by_key(|(_, _, since)| *since)
            .map(|(_, call, since)| (call.clone(), *since))
    }
}

/// A call in progress; dropping it (answered or cancelled) takes it off
/// the waiting list.
pub(crate) struct Waiting {
    meter: Meter,
    id: u64,
    answered: bool,
}

impl Waiting {
    fn answered<T>(mut self, result: T) -> T {
        self.answered = true;
        result
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if self.answered {
            self.meter.inner.answered.fetch_add(1, Ordering::Relaxed);
        }
        self.meter.waiting().retain(|(id, _, _)| *id != self.id);
    }
}

/// A provider whose calls are counted by a [`Meter`] (its hook); forwards
/// every call unchanged.
pub(crate) type Metered<P> = Hooked<P, Meter>;

/// Starts each call on the waiting list and marks it answered when it
/// returns; a call dropped unanswered leaves the list uncounted. Keeps a
/// pinned recall's error for [`Meter::attribute`].
impl CallHook for Meter {
    type Pending = Waiting;

    async fn before(&self, call: &tinymemory_api::Call<'_>) -> Result<Waiting, MemoryError> {
        Ok(self.start(Call::from(call)))
    }

    fn after(&self, call: &tinymemory_api::Call<'_>, answer: Answer<'_>, waiting: Waiting) {
        if let (Answer::Recall(Err(e)), Some(namespace)) = (answer, call.namespace()) {
            self.record_recall_error(namespace, e);
        }
        waiting.answered(());
    }
}

/// A factory whose stores are [`Metered`] by one meter: the runner wraps
/// the run's factory in one per check.
pub(crate) struct MeteredFactory {
    inner: Arc<dyn DriverFactory>,
    meter: Meter,
}

impl MeteredFactory {
    pub(crate) fn new(inner: Arc<dyn DriverFactory>, meter: Meter) -> Self {
        Self { inner, meter }
    }
}

#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl DriverFactory for MeteredFactory {
    fn driver_id(&self) -> String {
        self.inner.driver_id()
    }

    fn recall_profile(&self) -> RecallProfile {
        self.inner.recall_profile()
    }

    fn independent_stores(&self) -> bool {
        self.inner.independent_stores()
    }

    fn start_ahead(&self, stores: usize) {
        self.inner.start_ahead(stores);
    }

    /// Opening counts as a call too: an exec factory's `open` is a
    /// `reset` request, or a new process's `hello`.
    async fn open(&self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        let waiting = self.meter.start(Call::new("open"));
        let opened = waiting.answered(self.inner.open().await)?;
        Ok(Box::new(Metered::new(opened, self.meter.clone())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tinymemory_api::{MemoryCategory, MemoryTaint, NewEntry, RecallOptions};
    use tinymemory_reference::ReferenceDriver;

    /// A failure on the section API's error is attributed to the error the
    /// driver returned for that namespace; any other error is left alone.
    #[tokio::test]
    async fn a_wrapped_recall_error_is_attributed_to_the_driver_s_own() {
        use tinymemory_doubles::{FaultHandle, FaultKind, Faults, Method};
        use tinymemory_sections::Sections;

        let meter = Meter::default();
        let faulty = Faults::new(
            ReferenceDriver::new(),
            FaultHandle::new()
                .with_method(Method::Recall, FaultKind::invalid("x.rule", "no [case 1]")),
        );
        let store = Metered::new(faulty, meter.clone());
        let section = tinymemory_api::MemorySection::Learning;
        store
            .store(
                "learning:a",
                "k",
                "comet",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap();
        let seen = Sections::new(&store)
            .recall()
            .across_section(&section, "comet", 3, &RecallOptions::default())
            .await
            .unwrap_err();
        let own = MemoryError::invalid("x.rule", "no [case 1]");
        assert_ne!(seen, own, "the section API wraps it");
        let failed = |e: &MemoryError| Outcome::Fail(crate::Failure::new("m").caused_by(e));
        let Outcome::Fail(f) = meter.attribute(failed(&seen)) else {
            unreachable!()
        };
        assert_eq!(f.driver_error, Some(DriverError::from(&own)));
        let other = MemoryError::fault("not a recall's");
        assert_eq!(meter.attribute(failed(&other)), failed(&other));
        assert_eq!(meter.attribute(Outcome::Pass), Outcome::Pass);
    }

    #[tokio::test]
    async fn calls_are_counted_with_their_work_and_named() {
        let meter = Meter::default();
        let store = Metered::new(ReferenceDriver::new(), meter.clone());
        store
            .store(
                "global",
                "k",
                "x",
                MemoryCategory::Core,
                None,
                MemoryTaint::Internal,
            )
            .await
            .unwrap();
        let batch = vec![
            NewEntry::new("global", "a", "x"),
            NewEntry::new("global", "b", "y"),
        ];
        store.store_many(&batch).await.unwrap();
        let _ = store.get("bad name", "k").await;
        assert_eq!((meter.answered(), meter.units()), (3, 4));
        assert_eq!(meter.oldest_waiting(), None);

        let waiting = meter.start(Call::from(&tinymemory_api::Call::Get {
            namespace: "a:b",
            key: "k\u{1b}",
        }));
        let (call, _) = meter.oldest_waiting().unwrap();
        assert_eq!(
            call.to_string(),
            "`get` (namespace \"a:b\", key \"k\\u{1b}\")"
        );
        drop(waiting);
        assert_eq!(meter.answered(), 3, "a cancelled call was not answered");
        assert_eq!(meter.oldest_waiting(), None);
        assert_eq!(
            Call::from(&tinymemory_api::Call::StoreMany {
                entries: &vec![NewEntry::new("global", "a", "x"); 120]
            })
            .to_string(),
            "`store_many` (120 entries)"
        );
        assert_eq!(Call::new("namespaces").to_string(), "`namespaces`");
    }
}
