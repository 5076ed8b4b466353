//! The differential model check: random sequences of driver calls applied
//! to a driver and to a model of the contract, every answer compared. The
//! model is written inside this crate from the contract alone, so the
//! suite's oracle is none of the drivers it judges (the reference drivers
//! are checked against it like any other).
//!
//! A sequence is a list of [`Op`]s: `store`, `get`, `forget`, `list`,
//! `namespaces`, `recall`, and the section calls `scopes` and
//! `across_section`. [`replay`] applies one to a fresh driver and a fresh
//! model step by step and stops at the first [`Divergence`]. What "the same answer" means for
//! each call, and why recall scores are compared by order and never by
//! value, is in `docs/properties.md` and on [`replay`].
//!
//! The registry check `model.differential` generates sequences from the run
//! seed, shrinks a failing one (dropping steps first) and reports it as a
//! [`Regression`] file: JSON that [`Regression::from_json`] reads back and
//! [`replay`] runs again. Committed files live in
//! `fixtures/regressions/model/`; every one of them is replayed by the
//! check on every driver before the random sequences ([`bundled`]), and by
//! the crate's tests on every run.
//!
//! ```
//! use tinymemory_conformance::model::{replay, Op};
//! use tinymemory_reference::ReferenceDriver;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let ops = vec![
//!     Op::store("learning:a", "k1", "comet tail"),
//!     Op::store("learning:a", "k1", "comet dust"),
//!     Op::List { namespace: None, category: None, session_id: None },
//!     Op::Recall { query: "comet".into(), limit: 5, namespace: Some("learning:a".into()), category: None, session_id: None },
//! ];
//! assert_eq!(replay(&ReferenceDriver::new(), &ops).await, Ok(()));
//! # });
//! ```

mod check;
mod compare;
mod divergence;
mod explore;
mod generate;
mod op;
mod regression;
mod replay;
mod spec;

pub(crate) use check::CHECK as DIFFERENTIAL;
pub use check::REGRESSION_DIR_ENV;
pub use divergence::Divergence;
pub use explore::{explore, explore_as};
pub use op::{NotAnOp, Op};
pub use regression::{bundled, Regression, RegressionError, REGRESSION_FORMAT};
pub use replay::{replay, replay_as};
