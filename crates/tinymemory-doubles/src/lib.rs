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
//!
//! # Decorators
//!
//! Each wraps any [`MemoryProvider`](tinymemory_api::MemoryProvider) `P`
//! and has the tower-style `new` / `get_ref` / `get_mut` / `into_inner`.
//! `P` may be unsized, so a `Box<Recording<ReferenceDriver>>` coerces to
//! `Box<Recording<dyn MemoryProvider>>`. To wrap a provider you only have as
//! a `Box<dyn MemoryProvider>`, put it in a [`BoxedProvider`] first:
//! `Recording::new(BoxedProvider::new(boxed))` (`tinymemory-api` implements
//! the trait for no smart pointer, and the orphan rule keeps this crate from
//! doing it).
//!
//! | type | what it does |
//! | --- | --- |
//! | [`Recording`] | records every call in order into a [`CallLog`] |
//! | [`ShuffledNamespaces`] | returns `namespaces()` in a seeded random order, different per call |
//! | [`Faults`] | fails the n-th call, or every call on one namespace, with a chosen [`FaultKind`] |
//! | [`Latency`] | sleeps a fixed or seeded-random [`Delay`] before each call (`tokio::time`) |
//! | [`TamperHits`] | strips or rewrites the namespace of recall hits |
//! | [`NoneMeansAll`] | reads recall's `namespace: None` as "all namespaces" (a real divergence) |
//! | [`NoneMeansGlobal`] | its contract-following twin: pins `None` to `global` |
//!
//! # Mutants
//!
//! [`mutants::mutants`] lists one wrapper per contract sentence, each
//! breaking exactly that sentence and named after the conformance check that
//! must catch it.
//!
//! # Determinism
//!
//! Seeded doubles use SplitMix64, implemented here, so a seed gives the same
//! sequence on every platform and in every version of this crate: a failing
//! seed stays a reproducible regression case.
//!
//! # Example
//!
//! ```
//! use tinymemory_api::{MemoryCategory, MemoryProvider, MemoryTaint, RecallOptions};
//! use tinymemory_doubles::{Method, Recording};
//! use tinymemory_reference::ReferenceDriver;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let driver = Recording::new(ReferenceDriver::new());
//! let log = driver.log();
//! driver
//!     .store("learning:rust", "k1", "async rust", MemoryCategory::Core, None, MemoryTaint::Internal)
//!     .await?;
//! driver.recall("rust", 5, &RecallOptions::in_namespace("learning:rust")).await?;
//! assert_eq!(log.methods(), [Method::Store, Method::Recall]);
//! # Ok::<(), tinymemory_api::MemoryError>(())
//! # }).unwrap();
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[macro_use]
mod macros;

mod boxed;
mod faults;
mod latency;
mod lock;
pub mod mutants;
mod none_means;
mod null;
mod recording;
mod rng;
mod score_seeding;
mod shuffled;
mod tamper;

pub use boxed::BoxedProvider;
pub use faults::{FaultHandle, FaultKind, Faults};
pub use latency::{Delay, Latency};
pub use none_means::{NoneMeansAll, NoneMeansGlobal};
pub use null::NullDriver;
pub use recording::{Call, CallLog, Method, Recording};
pub use score_seeding::{HitOrder, ScoreSeedingStore};
pub use shuffled::ShuffledNamespaces;
pub use tamper::{Tamper, TamperHits};
