//! The tinymemory contract.
//!
//! A *memory driver* stores [`MemoryEntry`] values in namespaces and recalls
//! them by a plain-text query with scores. This crate holds everything a
//! driver and a host agree on:
//!
//! - [`Namespace`] and [`MemorySection`]: the only partitioning primitive and
//!   its validation rules (see [`rules`] for the rule ids carried by errors);
//! - the entry types [`MemoryEntry`], [`MemoryCategory`], [`MemoryTaint`],
//!   [`NamespaceSummary`] and [`RecallOptions`];
//! - [`MemoryError`], the one error type every driver returns;
//! - [`MemoryProvider`], the object-safe async trait, whose rustdoc states the
//!   twelve contract sentences the conformance suite enforces and its three
//!   families (core, recall, portability);
//! - [`batch`]: [`NewEntry`] and the bulk store's validation;
//! - [`portability`]: export pages, cursors, records and import outcomes;
//! - [`interface`]: a scenario of a framework interface's own contract,
//!   which an adapter runs and answers with what it observed;
//! - [`Call`], one storage call as a value (its [`Method`], its arguments
//!   borrowed) and [`Answer`], its result borrowed: every other type that
//!   describes a call is made from one;
//! - [`Hooked`], the one decorator that looks at calls: a [`CallHook`]'s
//!   `before` and `after` around every method, so a wrapper that records,
//!   counts, delays or fails calls is a hook, not nine methods;
//! - [`delegate_provider!`], which writes a wrapper's forwarding methods
//!   (for wrappers that change what a method does, such as the mutants);
//! - [`RecallProfile`], the kind of ranking a driver declares (`lexical` or
//!   `semantic`), which decides the recall rules it is held to.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
mod call;
mod category;
mod delegate;
mod entry;
mod error;
mod factory;
mod forward;
mod hook;
pub mod interface;
mod key;
mod namespace;
mod options;
pub mod portability;
mod profile;
mod provider;
pub mod rules;
mod section;
pub mod shown;
mod taint;
pub mod text;
mod timestamp;

pub use batch::NewEntry;
pub use call::{Answer, Call, Method};
pub use category::MemoryCategory;
pub use entry::{MemoryEntry, NamespaceSummary};
pub use error::MemoryError;
pub use factory::{DriverFactory, FnFactory, DEFAULT_CALL_TIMEOUT};
pub use hook::{CallHook, Hooked};
pub use key::{validate_key, MAX_KEY_LEN};
pub use namespace::{Namespace, GLOBAL_NAMESPACE, MAX_NAMESPACE_LEN};
pub use options::RecallOptions;
pub use profile::{RecallProfile, UnknownRecallProfile};
pub use provider::MemoryProvider;
pub use section::MemorySection;
pub use taint::MemoryTaint;
pub use timestamp::{
    is_canonical_timestamp, is_newer_timestamp, newest_timestamp, now_rfc3339, parse_rfc3339,
    timestamp_order,
};

/// What [`delegate_provider!`] expands to needs; not public API.
#[doc(hidden)]
pub mod __private {
    pub use async_trait::async_trait;

    /// The methods of [`MemoryProvider`](crate::MemoryProvider), one
    /// variant each, named as the methods are.
    #[expect(
        non_camel_case_types,
        missing_docs,
        reason = "each variant is spelt as its method"
    )]
    pub enum Method {
        driver_id,
        store,
        get,
        forget,
        list,
        namespaces,
        recall,
        store_many,
        export_page,
        import,
        interface,
    }
}
