//! The case loop every property shares: generate a case, run it against
//! the driver, and on the first failure shrink it to a minimal one.
//!
//! proptest's own `TestRunner::run` takes a synchronous closure, and the
//! cases here are async driver calls on the caller's Tokio runtime. Rather
//! than block a runtime thread (or nest runtimes), this loop drives
//! proptest's value trees directly: `new_tree` for each case, then
//! `simplify`/`complicate` to shrink, exactly the algorithm of
//! `TestRunner::run`, with the case awaited in between.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::time::{Duration, Instant};

use futures::stream::{FuturesUnordered, StreamExt};
use futures::FutureExt;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use tinymemory_api::MemoryError;

use crate::{Counterexample, DriverError, Failure, Outcome, RunConfig};

/// What one case gives: `Err` with what went wrong.
pub(crate) type CaseResult = Result<(), CaseFailure>;

/// Why one case failed: the message, and the driver error it failed on
/// when a driver call returned one (the reported case's becomes the
/// check's [`Failure::driver_error`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CaseFailure {
    pub(crate) message: String,
    pub(crate) driver_error: Option<DriverError>,
}

impl CaseFailure {
    /// A failure with `message`, caused by the driver error `e`.
    pub(crate) fn caused_by(message: impl Into<String>, e: &MemoryError) -> Self {
        Self {
            message: message.into(),
            driver_error: Some(DriverError::from(e)),
        }
    }
}

/// The message alone.
impl std::fmt::Display for CaseFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A failure with no driver error.
impl From<String> for CaseFailure {
    fn from(message: String) -> Self {
        Self {
            message,
            driver_error: None,
        }
    }
}

/// A check's failure (a fresh driver that did not open), as a case's.
impl From<Failure> for CaseFailure {
    fn from(f: Failure) -> Self {
        Self {
            message: f.message,
            driver_error: f.driver_error,
        }
    }
}

/// The future of one case.
pub(crate) type CaseFuture = Pin<Box<dyn Future<Output = CaseResult> + Send>>;

/// Most shrink steps (re-runs of a simplified case) after a failure. Each
/// step opens a fresh driver, so this bounds the time a failing property
/// takes; the vector strategies here shrink in far fewer steps.
pub(crate) const MAX_SHRINK_STEPS: u32 = 1024;

/// Shrinking stops after this long even below [`MAX_SHRINK_STEPS`], so a
/// slow driver's failure is still reported well inside the check timeout.
/// The counterexample is then less minimal, never wrong: it failed.
pub(crate) const MAX_SHRINK_TIME: Duration = Duration::from_secs(20);

/// One property: how its cases are generated, run and shown.
pub(crate) struct Property<S, F, R> {
    /// The check id, mixed into the seed so that properties draw
    /// independent cases from one run seed.
    pub(crate) id: &'static str,
    /// Generates the cases.
    pub(crate) strategy: S,
    /// Runs one case on a fresh driver.
    pub(crate) test: F,
    /// Renders the shrunk counterexample, given the failure message of
    /// that case.
    pub(crate) render: R,
}

/// The generator of a property's cases: ChaCha seeded with the run seed
/// and a hash of the check id. The same `(seed, id)` gives the same cases
/// in every run of the same build.
pub(crate) fn rng(seed: u64, id: &str) -> TestRng {
    let mut bytes = [0_u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&fnv1a(id).to_le_bytes());
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// 64-bit FNV-1a: a fixed, documented hash, so a check id maps to the same
/// stream in every version.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Runs `config.cases` cases of `property`; the first failure is shrunk and
/// reported with its seed. Zero cases is a skip, never a pass.
pub(crate) async fn run<S, F, R>(config: RunConfig, property: Property<S, F, R>) -> Outcome
where
    S: Strategy,
    S::Tree: Send,
    S::Value: Debug + Send,
    F: Fn(S::Value) -> CaseFuture,
    R: Fn(&S::Value, &str) -> String,
{
    if config.cases == 0 {
        return Outcome::Skip("the run asked for 0 cases, so no case was generated".to_owned());
    }
    let proptest_config = Config {
        cases: config.cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(proptest_config, rng(config.seed, property.id));
    // Cases are generated in order from the one generator, so case k is the
    // same value whether or not others run beside it. One case runs at a
    // time unless the run has slots left free (`crate::slots`); however
    // many run, the verdict is that of the first case, in case order, to
    // fail, shrunk on its own: the same as one at a time.
    let mut launched: BTreeMap<u32, (S::Tree, Option<CaseResult>)> = BTreeMap::new();
    let mut running = FuturesUnordered::new();
    let mut next = 1_u32;
    let mut passed = 0_u32;
    let mut first_failed: Option<u32> = None;
    loop {
        while next <= config.cases && first_failed.is_none_or(|f| next < f) {
            let slot = if running.is_empty() {
                None
            } else {
                match crate::slots::try_take() {
                    Some(slot) => Some(slot),
                    None => break,
                }
            };
            let tree = match property.strategy.new_tree(&mut runner) {
                Ok(tree) => tree,
                Err(reason) => {
                    return Outcome::fail(format!(
                        "failed to generate case {next} of property {}: {reason}",
                        property.id
                    ))
                }
            };
            let case = run_case(&property.test, tree.current());
            let number = next;
            running.push(async move {
                let result = case.await;
                drop(slot);
                (number, result)
            });
            launched.insert(next, (tree, None));
            next += 1;
        }
        let Some((number, result)) = running.next().await else {
            break;
        };
        if result.is_err() {
            first_failed = Some(first_failed.map_or(number, |f| f.min(number)));
        }
        if let Some(entry) = launched.get_mut(&number) {
            entry.1 = Some(result);
        }
        while let Some((_, Some(Ok(())))) = launched.get(&(passed + 1)) {
            launched.remove(&(passed + 1));
            passed += 1;
            crate::progress::report(passed, config.cases);
        }
        if let Some((_, Some(Err(_)))) = launched.get(&(passed + 1)) {
            // Every case before it passed: the cases after it are dropped
            // (their stores with them) and this one is shrunk alone.
            drop(running);
            let case = passed + 1;
            let Some((tree, Some(Err(failure)))) = launched.remove(&case) else {
                unreachable!("case {case} was just seen failing");
            };
            return shrink(config, &property, tree, case, failure).await;
        }
        // A case on an in-memory driver may never await anything that
        // sleeps; yielding lets the runner's timeout fire between cases.
        tokio::task::yield_now().await;
    }
    Outcome::Pass
}

/// Runs one case, turning a panic (of the driver or of the case) into a
/// failure of the case, so that it shrinks like any other.
async fn run_case<V, F>(test: &F, value: V) -> CaseResult
where
    F: Fn(V) -> CaseFuture,
{
    match AssertUnwindSafe(test(value)).catch_unwind().await {
        Ok(result) => result,
        Err(payload) => Err(format!("panicked: {}", panic_message(payload.as_ref())).into()),
    }
}

/// proptest's shrink loop: simplify while the case still fails, step back
/// (`complicate`) when it passes; the last failing value is the minimum.
async fn shrink<S, F, R>(
    config: RunConfig,
    property: &Property<S, F, R>,
    mut tree: S::Tree,
    case: u32,
    first: CaseFailure,
) -> Outcome
where
    S: Strategy,
    S::Tree: Send,
    S::Value: Debug + Send,
    F: Fn(S::Value) -> CaseFuture,
    R: Fn(&S::Value, &str) -> String,
{
    let started = Instant::now();
    let mut minimal = tree.current();
    let mut failed = first;
    let mut steps = 0_u32;
    let mut stopped_early = false;
    if tree.simplify() {
        loop {
            if steps >= MAX_SHRINK_STEPS || started.elapsed() >= MAX_SHRINK_TIME {
                stopped_early = true;
                break;
            }
            steps += 1;
            let candidate = tree.current();
            match run_case(&property.test, tree.current()).await {
                Err(f) => {
                    minimal = candidate;
                    failed = f;
                    if !tree.simplify() {
                        break;
                    }
                }
                Ok(()) => {
                    if !tree.complicate() {
                        break;
                    }
                }
            }
        }
    }
    let limit_note = if stopped_early {
        " (shrinking stopped at its step or time limit)"
    } else {
        ""
    };
    let CaseFailure {
        message,
        driver_error,
    } = failed;
    let input = (property.render)(&minimal, &message);
    Outcome::Fail(
        Failure::new(format!(
            "{message} [case {case} of {cases} failed with seed {seed}; shrunk in {steps} steps{limit_note}; \
             rerun with --seed {seed} --cases {cases}]",
            cases = config.cases,
            seed = config.seed,
        ))
        .with_counterexample(Counterexample {
            seed: config.seed,
            input,
        })
        .with_driver_error(driver_error),
    )
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::collection::vec;

    /// Runs a property over vectors of `u32` that fails when `fails_when`.
    async fn run_vecs(cases: u32, fails_when: fn(&[u32]) -> bool) -> Outcome {
        let property = Property {
            id: "test.vecs",
            strategy: vec(0_u32..100, 0..20),
            test: move |v: Vec<u32>| -> CaseFuture {
                Box::pin(async move {
                    if fails_when(&v) {
                        Err(format!("bad vector of {}", v.len()).into())
                    } else {
                        Ok(())
                    }
                })
            },
            render: |v: &Vec<u32>, _: &str| format!("{v:?}"),
        };
        run(config(cases), property).await
    }

    fn config(cases: u32) -> RunConfig {
        RunConfig { seed: 42, cases }
    }

    /// The reported failure carries the driver error of the shrunk case,
    /// not of the first case seen failing.
    #[tokio::test]
    async fn the_shrunk_case_s_driver_error_is_the_check_s() {
        let property = Property {
            id: "test.vecs",
            strategy: vec(0_u32..100, 0..20),
            test: move |v: Vec<u32>| -> CaseFuture {
                Box::pin(async move {
                    if v.len() >= 3 {
                        let e = MemoryError::fault(format!("{} entries", v.len()));
                        Err(CaseFailure::caused_by(format!("recall failed: {e}"), &e))
                    } else {
                        Ok(())
                    }
                })
            },
            render: |v: &Vec<u32>, _: &str| format!("{v:?}"),
        };
        let Outcome::Fail(failure) = run(config(64), property).await else {
            panic!("a vector of 3 or more is generated in 64 cases");
        };
        let error = failure
            .driver_error
            .expect("the case's driver error is kept");
        assert_eq!(error.to_string(), "backend failure: 3 entries");
        assert!(
            failure
                .message
                .starts_with("recall failed: backend failure: 3 entries [case "),
            "{}",
            failure.message
        );
    }

    #[tokio::test]
    async fn a_failure_shrinks_to_the_minimal_case_and_names_the_seed() {
        let outcome = run_vecs(64, |v| v.iter().any(|x| *x >= 50)).await;
        let Outcome::Fail(failure) = outcome else {
            panic!("expected a failure, got {outcome:?}");
        };
        assert_eq!(
            failure.counterexample,
            Some(Counterexample {
                seed: 42,
                input: "[50]".to_owned()
            })
        );
        assert!(
            failure.message.starts_with("bad vector of 1 [case "),
            "{}",
            failure.message
        );
        assert!(
            failure
                .message
                .ends_with("rerun with --seed 42 --cases 64]"),
            "{}",
            failure.message
        );
    }

    #[tokio::test]
    async fn the_same_seed_gives_the_same_failure() {
        let a = run_vecs(64, |v| v.len() > 3).await;
        let b = run_vecs(64, |v| v.len() > 3).await;
        assert_eq!(a, b);
        let Outcome::Fail(failure) = a else {
            panic!("expected a failure, got {a:?}");
        };
        assert_eq!(
            failure.counterexample.map(|c| c.input),
            Some("[0, 0, 0, 0]".to_owned())
        );
    }

    #[tokio::test]
    async fn a_panic_is_a_failing_case() {
        let property = Property {
            id: "test.panics",
            strategy: vec(0_u32..100, 0..20),
            test: |v: Vec<u32>| -> CaseFuture {
                Box::pin(async move {
                    assert!(v.len() < 2, "driver exploded");
                    Ok(())
                })
            },
            render: |v: &Vec<u32>, _: &str| format!("{v:?}"),
        };
        let Outcome::Fail(failure) = run(config(64), property).await else {
            panic!("expected a failure");
        };
        assert!(
            failure
                .message
                .starts_with("panicked: driver exploded [case "),
            "{}",
            failure.message
        );
        assert_eq!(
            failure.counterexample.map(|c| c.input),
            Some("[0, 0]".to_owned())
        );
    }

    #[tokio::test]
    async fn passing_and_zero_cases() {
        assert_eq!(run_vecs(16, |_| false).await, Outcome::Pass);
        assert_eq!(
            run_vecs(0, |_| true).await,
            Outcome::Skip("the run asked for 0 cases, so no case was generated".to_owned())
        );
    }

    /// Runs `run_vecs`'s property with `slots` free slots (none: outside
    /// a runner), each case yielding a few times so that cases overlap;
    /// returns the outcome and the most cases seen running at once.
    async fn run_vecs_in_slots(
        slots: Option<usize>,
        cases: u32,
        fails_when: fn(&[u32]) -> bool,
    ) -> (Outcome, usize) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let (n, m) = (Arc::clone(&now), Arc::clone(&most));
        let property = Property {
            id: "test.vecs",
            strategy: vec(0_u32..100, 0..20),
            test: move |v: Vec<u32>| -> CaseFuture {
                let (now, most) = (Arc::clone(&n), Arc::clone(&m));
                Box::pin(async move {
                    let running = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(running, Ordering::SeqCst);
                    for _ in 0..3 {
                        tokio::task::yield_now().await;
                    }
                    now.fetch_sub(1, Ordering::SeqCst);
                    if fails_when(&v) {
                        Err(format!("bad vector of {}", v.len()).into())
                    } else {
                        Ok(())
                    }
                })
            },
            render: |v: &Vec<u32>, _: &str| format!("{v:?}"),
        };
        let outcome = match slots {
            None => run(config(cases), property).await,
            Some(k) => {
                let semaphore = Arc::new(tokio::sync::Semaphore::new(k));
                crate::slots::scope(semaphore, run(config(cases), property)).await
            }
        };
        (outcome, most.load(Ordering::SeqCst))
    }

    #[tokio::test]
    async fn cases_on_free_slots_give_the_verdict_of_one_at_a_time() {
        let rules: [fn(&[u32]) -> bool; 4] = [
            |_| false,
            |v| v.iter().any(|x| *x >= 50),
            |v| v.len() > 3,
            |v| v.iter().sum::<u32>() > 600,
        ];
        for (i, fails_when) in rules.into_iter().enumerate() {
            let (alone, most_alone) = run_vecs_in_slots(None, 64, fails_when).await;
            assert_eq!(
                most_alone, 1,
                "rule {i}: one case at a time outside a runner"
            );
            for k in [1, 3, 8] {
                let (beside, most) = run_vecs_in_slots(Some(k), 64, fails_when).await;
                assert_eq!(beside, alone, "rule {i} with {k} free slots");
                if k > 1 && alone == Outcome::Pass {
                    // The check's own slot plus every free one.
                    assert_eq!(most, k + 1, "rule {i}: cases at once with {k} free slots");
                }
            }
        }
    }

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
