//! The registry check `model.differential`.

use std::path::PathBuf;
use std::sync::Arc;

use super::{bundled, explore_as, replay_as, Regression};
use crate::properties::retention;
use crate::{Check, CheckContext, Counterexample, Failure, Family, Outcome, Profiles};

pub(crate) const CHECK: Check = Check {
    id: "model.differential",
    family: Family::Property,
    profiles: Profiles::BOTH,
    description: "random sequences of store, get, forget, list, namespaces, recall, scopes and across_section \
                  calls answer as a model of the contract does, the committed regression sequences first",
    run: |ctx| Box::pin(run(ctx)),
};

/// The environment variable naming a directory into which a failing
/// `model.differential` also writes its shrunk sequence, as the regression
/// file `<driver>-<seed>.json`.
pub const REGRESSION_DIR_ENV: &str = "TINYMEMORY_REGRESSION_DIR";

async fn run(ctx: CheckContext) -> Outcome {
    if let Err(instead) = retention::probe(&ctx).await {
        return instead;
    }
    if let Err(failed) = replay_bundled(&ctx).await {
        return failed;
    }
    match explore_as(Arc::clone(&ctx.factory), ctx.config, ctx.profile).await {
        Outcome::Fail(failure) => {
            let dir = std::env::var_os(REGRESSION_DIR_ENV).map(PathBuf::from);
            Outcome::Fail(keep(
                dir,
                &ctx.factory.driver_id(),
                ctx.config.seed,
                failure,
            ))
        }
        other => other,
    }
}

/// Replays every committed regression sequence on a fresh driver.
async fn replay_bundled(ctx: &CheckContext) -> Result<(), Outcome> {
    for (name, text) in bundled() {
        let regression = Regression::from_json(text)
            .map_err(|e| Outcome::fail(format!("fixtures/regressions/model/{name}: {e}")))?;
        let d = ctx.fresh().await.map_err(Outcome::fail)?;
        if let Err(divergence) = replay_as(d.as_ref(), &regression.ops, ctx.profile).await {
            return Err(Outcome::Fail(
                Failure::new(format!(
                    "the committed regression fixtures/regressions/model/{name} diverged at {divergence}"
                ))
                .with_counterexample(Counterexample {
                    seed: regression.seed,
                    input: (*text).to_owned(),
                })
                .with_driver_error(divergence.driver_error.clone()),
            ));
        }
    }
    Ok(())
}

/// Writes the counterexample into `dir` (from [`REGRESSION_DIR_ENV`]) when
/// there is one, and says where (or why not) in the message.
fn keep(dir: Option<PathBuf>, driver: &str, seed: u64, mut failure: Failure) -> Failure {
    let Some(dir) = dir else {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn failure() -> Failure {
        Failure::new("step 1 (get): differs").with_counterexample(Counterexample {
            seed: 7,
            input: "{\"format\": 1}\n".to_owned(),
        })
    }

    #[test]
    fn a_failure_is_written_where_asked_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("new");
        let kept = keep(Some(target.clone()), "my driver", 7, failure());
        let path = target.join("my_driver-7.json");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"format\": 1}\n");
        assert_eq!(
            kept.message,
            format!(
                "step 1 (get): differs [regression written to {}]",
                path.display()
            )
        );
        assert_eq!(keep(None, "my driver", 7, failure()), failure());
    }
}
