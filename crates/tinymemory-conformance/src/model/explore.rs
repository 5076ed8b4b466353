//! The random part of the model check: generated sequences, shrunk on
//! failure.

use std::sync::Arc;

use super::generate::sequence;
use tinymemory_api::RecallProfile;

use super::{replay_as, Op, Regression, REGRESSION_FORMAT};
use crate::properties::engine::{self, CaseFailure, CaseFuture, Property};
use crate::{DriverFactory, Failure, Outcome, RunConfig};

/// Replays `config.cases` random sequences (drawn from `config.seed`), each
/// on a fresh driver from `factory`, against the model. The first sequence
/// that diverges is shrunk (proptest's shrinking, then single calls dropped
/// while it still diverges) and reported as an
/// [`Outcome::Fail`] whose counterexample input is a [`Regression`] file,
/// ready to be committed under `fixtures/regressions/model/`.
///
/// This is the random half of the `model.differential` check, without its
/// retention probe and without the committed sequences it replays first;
/// the same `(seed, cases)` gives the same sequences and the same shrunk
/// counterexample.
///
/// Recall answers are compared by the profile the factory declares
/// ([`explore_as`] names another).
///
/// # Panics
///
/// Outside a Tokio runtime, when `factory` needs one.
pub async fn explore(factory: Arc<dyn DriverFactory>, config: RunConfig) -> Outcome {
    let profile = factory.recall_profile();
    explore_as(factory, config, profile).await
}

/// [`explore`], comparing recall answers by what `profile` guarantees
/// ([`replay_as`](super::replay_as)).
///
/// # Panics
///
/// Outside a Tokio runtime, when `factory` needs one.
pub async fn explore_as(
    factory: Arc<dyn DriverFactory>,
    config: RunConfig,
    profile: RecallProfile,
) -> Outcome {
    let driver = factory.driver_id();
    let opener = Arc::clone(&factory);
    let test = move |ops: Vec<Op>| -> CaseFuture {
        let factory = Arc::clone(&opener);
        Box::pin(async move {
            let d = factory.open().await.map_err(|e| {
                CaseFailure::caused_by(
                    format!("failed to open a fresh {} driver: {e}", factory.driver_id()),
                    &e,
                )
            })?;
            replay_as(d.as_ref(), &ops, profile)
                .await
                .map_err(|div| CaseFailure {
                    message: div.to_string(),
                    driver_error: div.driver_error,
                })
        })
    };
    let render = move |ops: &Vec<Op>, divergence: &str| {
        Regression {
            format: REGRESSION_FORMAT,
            description: format!(
                "shrunk by model.differential on {driver}: with TINYMEMORY_REGRESSION_DIR=DIR set, a \
                 run writes this file there, to replay in your own tests (in tinymemory itself: \
                 fixtures/regressions/model/<name>.json, saying here why it is kept)"
            ),
            driver: driver.clone(),
            mutant: None,
            seed: config.seed,
            cases: config.cases,
            divergence: divergence.to_owned(),
            ops: ops.clone(),
        }
        .to_json()
    };
    let outcome = engine::run(
        config,
        Property {
            id: super::check::CHECK.id,
            strategy: sequence(),
            test,
            render,
        },
    )
    .await;
    match outcome {
        Outcome::Fail(failure) => {
            Outcome::Fail(drop_calls(factory.as_ref(), failure, profile).await)
        }
        other => other,
    }
}

/// Value-tree shrinking deletes each call once, in order, and cannot drop
/// a call whose removal only helps together with another change; this pass
/// drops single calls from the shrunk sequence until none can go, keeping
/// each removal after which the sequence still diverges. It is a pure
/// function of the sequence, so the seed still reproduces the result.
async fn drop_calls(
    factory: &dyn DriverFactory,
    mut failure: Failure,
    profile: RecallProfile,
) -> Failure {
    let Some(Ok(mut regression)) = failure
        .counterexample
        .as_ref()
        .map(|c| Regression::from_json(&c.input))
    else {
        return failure;
    };
    let shrunk_divergence = regression.divergence.clone();
    let shrunk_len = regression.ops.len();
    let mut i = 0;
    while i < regression.ops.len() && regression.ops.len() > 1 {
        let mut fewer = regression.ops.clone();
        fewer.remove(i);
        let Ok(d) = factory.open().await else {
            return failure;
        };
        match replay_as(d.as_ref(), &fewer, profile).await {
            Err(divergence) => {
                regression.ops = fewer;
                regression.divergence = divergence.to_string();
                failure.driver_error = divergence.driver_error;
                i = 0;
            }
            Ok(()) => i += 1,
        }
    }
    if let Some(c) = failure.counterexample.as_mut() {
        c.input = regression.to_json();
    }
    if regression.ops.len() < shrunk_len {
        failure.message = failure
            .message
            .replacen(&shrunk_divergence, &regression.divergence, 1)
            + &format!(
                " [{shrunk_len} calls shrunk to {} by dropping calls]",
                regression.ops.len()
            );
    }
    failure
}
