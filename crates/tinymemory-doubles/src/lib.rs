//! Adversarial test doubles for tinymemory memory drivers, and a catalogue
//! of contract-breaking mutants.
//!
//! Everything here is public and documented so that driver authors and hosts
//! can use it in their own tests, not only the conformance suite.
//!
//! # Drivers
//!
//! | type | what it does |
//! | --- | --- |
//! | [`ScoreSeedingStore`] | recalls each entry with the score a test chose: NaN (either sign), ±inf, -0.0, subnormals, `None` |
//! | [`NullDriver`] | retains nothing; every call is `Ok` and empty, but invalid input is still refused |
//! | [`CollectionWideStatistics`](mutants::CollectionWideStatistics)`<ReferenceDriver>` | the reference driver with scores weighted by collection-wide BM25 statistics: the broken double `recall.namespace_isolation` must fail on |
//!
//! # Decorators
//!
//! Each wraps any [`MemoryProvider`](tinymemory_api::MemoryProvider) `P`
//! and has the tower-style `new` / `get_ref` / `get_mut` / `into_inner`.
//! `P` may be unsized, so a `Box<Recording<ReferenceDriver>>` coerces to
//! `Box<Recording<dyn MemoryProvider>>`. `tinymemory-api` implements the
//! trait for `Box<T>`, `Arc<T>` and `&T`, so a provider you only have as a
//! `Box<dyn MemoryProvider>` is wrapped as it is:
//! `Recording::new(boxed, CallLog::new())`.
//!
//! [`Recording`], [`Faults`] and [`Latency`] only look at calls, so each is
//! [`Hooked`] (from `tinymemory-api`, the one decorator written out over
//! every method) with its own [`CallHook`]: the [`CallLog`], the
//! [`FaultHandle`] and the [`Pause`]. The hook is the handle a test keeps
//! (a clone, or [`Hooked::hook`]); `new(inner, hook)` builds the decorator.
//! The others change what a method answers, and write those methods out.
//!
//! | type | what it does |
//! | --- | --- |
//! | [`Recording`] | records every call in order into a [`CallLog`] (its hook) |
//! | [`ShuffledNamespaces`] | returns `namespaces()` in a seeded random order, different per call |
//! | [`Faults`] | fails the n-th call, or every call on one namespace, with a chosen [`FaultKind`], by the rules of a [`FaultHandle`] (its hook) |
//! | [`Latency`] | sleeps a fixed or seeded-random [`Delay`] before each call (`tokio::time`), its hook a [`Pause`] |
//! | [`TamperHits`] | strips or rewrites the namespace of recall hits |
//! | [`NoneMeansAll`] | reads recall's `namespace: None` as "all namespaces" (a real divergence) |
//! | [`NoneMeansGlobal`] | its contract-following twin: pins `None` to `global` |
//!
//! # Mutants
//!
//! [`mutants::mutants`] lists one wrapper per rule a driver can break (the
//! eleven contract sentences, the namespace rules, the section API rules a
//! driver can break, and the portability family's paging and import
//! rules), each breaking exactly that rule and naming the conformance check
//! that must catch it. Every mutant, and every decorator that changes an
//! answer, implements the trait through
//! [`delegate_provider!`](tinymemory_api::delegate_provider), writing out
//! only the methods it changes; [`mutants`](mod@mutants) shows how to write one.
//!
//! # Determinism
//!
//! Seeded doubles use SplitMix64, implemented here, so a seed gives the same
//! sequence on every platform and in every version of this crate: a failing
//! seed stays a reproducible regression case.
//!
//! # Example: testing your own driver's host code
//!
//! Wrap your driver in [`Recording`] to see every call it receives, and in
//! [`Faults`] to make it fail on cue; keep the [`CallLog`] and the
//! [`FaultHandle`] to inspect and steer it after it is moved into the code
//! under test.
//!
//! ```
//! use tinymemory_api::{MemoryCategory, MemoryError, MemoryProvider, MemoryTaint, RecallOptions};
//! use tinymemory_doubles::{Call, CallLog, FaultHandle, FaultKind, Faults, Method, Recording};
//! # use tinymemory_reference::ReferenceDriver as MyDriver;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! // Faults outside, Recording inside: the log shows what reached the driver.
//! let (log, faults) = (CallLog::new(), FaultHandle::new());
//! faults.fail_namespace("learning:flaky", FaultKind::unavailable("replica lagging"));
//! let driver = Faults::new(Recording::new(MyDriver::new(), log.clone()), faults.clone());
//! let host: Box<dyn MemoryProvider> = Box::new(driver);
//!
//! host.store("learning:rust", "k1", "async rust", MemoryCategory::Core, None, MemoryTaint::Internal)
//!     .await?;
//! let hits = host.recall("rust", 5, &RecallOptions::in_namespace("learning:rust")).await?;
//! assert_eq!(hits[0].key, "k1");
//!
//! // The injected failure, and the call that never reached the driver.
//! let err = host.get("learning:flaky", "k1").await.unwrap_err();
//! assert!(err.is_unavailable());
//! assert_eq!(faults.struck(), 1);
//! assert_eq!(log.methods(), [Method::Store, Method::Recall]);
//! assert_eq!(log.calls()[1].namespace(), Some("learning:rust"));
//!
//! // Mid-test: from the next call on, every get fails.
//! faults.fail_method(Method::Get, FaultKind::backend("disk on fire"));
//! assert_eq!(host.get("learning:rust", "k1").await, Err(MemoryError::fault("disk on fire")));
//! assert!(host.namespaces().await.is_ok());
//! assert_eq!(log.take().last(), Some(&Call::Namespaces));
//! # Ok::<(), MemoryError>(())
//! # }).unwrap();
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[macro_use]
mod macros;

mod faults;
mod import_each;
mod latency;
mod lock;
mod merge;
pub mod mutants;
mod none_means;
mod null;
mod recording;
mod rng;
mod score_seeding;
mod shuffled;
mod tamper;

pub use faults::{FaultHandle, FaultKind, Faults};
pub use latency::{Delay, Latency, Pause};
pub use mutants::{mutant, mutants, Mutant};
pub use none_means::{NoneMeansAll, NoneMeansGlobal};
pub use null::NullDriver;
pub use recording::{Call, CallLog, Method, Recording};
pub use score_seeding::{HitOrder, ScoreSeedingStore};
pub use shuffled::ShuffledNamespaces;
pub use tamper::{Tamper, TamperHits};
pub use tinymemory_api::{CallHook, Hooked};
