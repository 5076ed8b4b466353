//! The `namespace: None` divergence, side by side with the contract.
//!
//! Contract sentence 2 (check `recall.none_means_global`) says a recall with
//! `opts.namespace == None` searches [`GLOBAL_NAMESPACE`] only. Two real
//! drivers once disagreed: one read `None` as "all namespaces", and no test
//! caught it. These two decorators reproduce both readings over any
//! provider, so a host can be tested against each:
//!
//! | `opts.namespace` | [`NoneMeansGlobal`] (the contract) | [`NoneMeansAll`] (the divergence) |
//! | --- | --- | --- |
//! | `Some(ns)` | forwarded unchanged | forwarded unchanged |
//! | `None` | forwarded as `Some("global")` | one `namespaces()` call, then one recall per namespace, merged |
//!
//! [`GLOBAL_NAMESPACE`]: tinymemory_api::GLOBAL_NAMESPACE

mod all;
mod global;

pub use all::NoneMeansAll;
pub use global::NoneMeansGlobal;
