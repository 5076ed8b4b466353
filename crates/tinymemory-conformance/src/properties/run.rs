//! The common frame of a property check: the retention probe when the
//! property needs stored data, then the case loop with a fresh context per
//! case, each case scoped to say when its data went in by `store_many`
//! ([`batch::scope`]).

use std::fmt::Debug;
use std::future::Future;

use proptest::strategy::Strategy;

use super::batch;
use super::engine::{self, CaseFuture, CaseResult, Property};
use super::retention;
use crate::{CheckContext, Outcome};

/// Whether a property reads back stored data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Needs {
    /// It does: on a driver that retains nothing it is skipped with that
    /// reason rather than passing vacuously.
    StoredData,
    /// It does not (it checks refusals or pure functions).
    Nothing,
}

/// Runs `case` for every generated value of `strategy`, rendering the shrunk
/// counterexample with `{:#?}`.
pub(crate) async fn property<S, F, Fut>(
    ctx: CheckContext,
    id: &'static str,
    needs: Needs,
    strategy: S,
    case: F,
) -> Outcome
where
    S: Strategy,
    S::Tree: Send,
    S::Value: Debug + Send + 'static,
    F: Fn(CheckContext, S::Value) -> Fut,
    Fut: Future<Output = CaseResult> + Send + 'static,
{
    if needs == Needs::StoredData {
        if let Err(instead) = retention::probe(&ctx).await {
            return instead;
        }
    }
    let config = ctx.config;
    let test =
        move |value: S::Value| -> CaseFuture { Box::pin(batch::scope(case(ctx.clone(), value))) };
    engine::run(
        config,
        Property {
            id,
            strategy,
            test,
            render: |value: &S::Value, _: &str| format!("{value:#?}"),
        },
    )
    .await
}

/// `Err(message)` unless `cond`.
macro_rules! require {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+).into());
        }
    };
}

/// `Err` showing both values unless they are equal.
macro_rules! require_eq {
    ($got:expr, $want:expr, $($msg:tt)+) => {
        // `match` keeps temporaries of both expressions alive for the comparison.
        match (&$got, &$want) {
            (got, want) => {
                if got != want {
                    return Err(format!("{}: expected {:?}, got {:?}", format!($($msg)+), want, got).into());
                }
            }
        }
    };
}

pub(crate) use {require, require_eq};
