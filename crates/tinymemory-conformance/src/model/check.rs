//! The registry check `model.differential`.

use std::path::PathBuf;
use std::sync::Arc;

use super::{bundled, explore, replay, Regression};
use crate::properties::retention;
use crate::{Check, CheckContext, Counterexample, Failure, Family, Outcome};

pub(crate) const CHECK: Check = Check {
    id: "model.differential",
    family: Family::Property,
    description: "random sequences of store, get, forget, list, namespaces, recall, scopes and across_section \
                  calls answer as the reference model does, the committed regression sequences first",
    run: |ctx| Box::pin(run(ctx)),
};

/// When set, a failing run also writes its shrunk sequence as a regression
/// file into this directory, named `<driver>-<seed>.json`.
pub(crate) const REGRESSION_DIR_ENV: &str = "TINYMEMORY_REGRESSION_DIR";

async fn run(ctx: CheckContext) -> Outcome {
    if let Err(instead) = retention::probe(&ctx).await {
        return instead;
    }
    if let Err(failed) = replay_bundled(&ctx).await {
        return failed;
    }
    match explore(Arc::clone(&ctx.factory), ctx.config).await {
        Outcome::Fail(failure) => {
            Outcome::Fail(keep(&ctx.factory.driver_id(), ctx.config.seed, failure))
        }
        other => other,
    }
}

/// Replays every committed regression sequence on a fresh driver.
async fn replay_bundled(ctx: &CheckContext) -> Result<(), Outcome> {
    for (name, text) in bundled() {
        let regression = Regression::from_json(text)
            .map_err(|e| Outcome::fail(format!("fixtures/regressions/model/{name}: {e}")))?;
        let d = ctx.factory.open().await.map_err(|e| {
            Outcome::fail(format!(
                "failed to open a fresh {} driver: {e}",
                ctx.factory.driver_id()
            ))
        })?;
        if let Err(divergence) = replay(d.as_ref(), &regression.ops).await {
            return Err(Outcome::Fail(Failure {
                message: format!(
                    "the committed regression fixtures/regressions/model/{name} diverged at {divergence}"
                ),
                counterexample: Some(Counterexample {
                    seed: regression.seed,
                    input: (*text).to_owned(),
                }),
            }));
        }
    }
    Ok(())
}

/// Writes the counterexample into [`REGRESSION_DIR_ENV`] when it is set,
/// and says where (or why not) in the message.
fn keep(driver: &str, seed: u64, mut failure: Failure) -> Failure {
    let Some(dir) = std::env::var_os(REGRESSION_DIR_ENV).map(PathBuf::from) else {
        return failure;
    };
    let Some(counterexample) = &failure.counterexample else {
        return failure;
    };
    let safe: String = driver
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{safe}-{seed}.json"));
    let written =
        std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &counterexample.input));
    match written {
        Ok(()) => failure
            .message
            .push_str(&format!(" [regression written to {}]", path.display())),
        Err(e) => failure.message.push_str(&format!(
            " [failed to write the regression to {}: {e}]",
            path.display()
        )),
    }
    failure
}
