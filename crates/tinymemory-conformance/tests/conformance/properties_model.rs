//! What the differential model check compares: another scoring formula is
//! no divergence, a recall that keeps worse hits over better ones is, and
//! refusals compare by kind and rule.

use std::sync::Arc;

use tinymemory_api::{MemoryEntry, MemoryError, MemoryProvider, RecallOptions};
use tinymemory_conformance::model::{explore, replay, Op};
use tinymemory_conformance::{DriverFactory, FnFactory, Outcome, RunConfig};
use tinymemory_reference::ReferenceDriver;

/// How [`Rescored`] changes the reference driver's recall.
#[derive(Clone, Copy)]
enum Mode {
    /// Scores become `10 * s + 3`: another formula, the same order.
    Affine,
    /// With a limit below the matches, keeps the worst hits (still listed
    /// best first).
    KeepsTheWorst,
}

struct Rescored(ReferenceDriver, Mode);

tinymemory_api::delegate_provider! {
    impl MemoryProvider for Rescored {
        forward(0): store, get, forget, list, namespaces, store_many, export_page, import, interface;

        fn driver_id(&self) -> &str {
            "rescored"
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            match self.1 {
                Mode::Affine => {
                    let mut hits = self.0.recall(query, limit, opts).await?;
                    for h in &mut hits {
                        h.score = h.score.map(|s| 10.0 * s + 3.0);
                    }
                    Ok(hits)
                }
                Mode::KeepsTheWorst => {
                    let all = self.0.recall(query, usize::MAX, opts).await?;
                    let skip = all.len().saturating_sub(limit);
                    Ok(all.into_iter().skip(skip).collect())
                }
            }
        }
    }
}

/// Fresh reference drivers rescored by `mode`.
fn factory(mode: Mode) -> Arc<dyn DriverFactory> {
    Arc::new(FnFactory::new(
        "rescored",
        move || -> Result<Box<dyn MemoryProvider>, MemoryError> {
            Ok(Box::new(Rescored(ReferenceDriver::new(), mode)))
        },
    ))
}

#[tokio::test]
async fn another_scoring_formula_is_no_divergence() {
    let config = RunConfig {
        cases: 256,
        ..RunConfig::default()
    };
    assert_eq!(explore(factory(Mode::Affine), config).await, Outcome::Pass);
}

#[tokio::test]
async fn keeping_worse_hits_over_better_ones_is_a_divergence() {
    let ops = vec![
        Op::store("global", "best", "comet river"),
        Op::store("global", "worst", "comet"),
        Op::Recall {
            query: "comet river".into(),
            limit: 1,
            namespace: None,
            category: None,
            session_id: None,
        },
    ];
    let driver = Rescored(ReferenceDriver::new(), Mode::KeepsTheWorst);
    let divergence = replay(&driver, &ops).await.unwrap_err();
    assert_eq!(divergence.step, 3);
    assert_eq!(
        divergence.message,
        "with limit 1, the driver left out global/best (score 1.0) although it scores above the lowest hit kept (0.5)"
    );
    let found = explore(factory(Mode::KeepsTheWorst), RunConfig::default()).await;
    assert!(found.is_fail(), "{found:?}");
}

/// The model asks a recall again with limit 1 whatever limit the step
/// gave; a fault found there says so, rather than naming a limit the
/// step (here 0) never asked for.
#[tokio::test]
async fn a_fault_of_the_recall_asked_again_with_limit_1_says_it_was_asked_again() {
    let ops = vec![
        Op::store("global", "best", "comet river"),
        Op::store("global", "worst", "comet"),
        Op::Recall {
            query: "comet river".into(),
            limit: 0,
            namespace: None,
            category: None,
            session_id: None,
        },
    ];
    let driver = Rescored(ReferenceDriver::new(), Mode::KeepsTheWorst);
    let divergence = replay(&driver, &ops).await.unwrap_err();
    assert_eq!(divergence.step, 3);
    assert_eq!(
        divergence.message,
        "the same recall asked again with limit 1 (the model asks every recall of two or more matches so): \
         with limit 1, the driver left out global/best (score 1.0) although it scores above the lowest hit kept (0.5)"
    );
}

#[tokio::test]
async fn refusals_compare_by_kind_and_rule() {
    let ops = vec![
        Op::store("bad name", "k0", "comet"),
        Op::Get {
            namespace: "learning:".into(),
            key: "k0".into(),
        },
        Op::Namespaces,
    ];
    assert_eq!(replay(&ReferenceDriver::new(), &ops).await, Ok(()));
    let accepts_anything =
        tinymemory_doubles::mutants::mutant("sanitizes-invalid-namespaces").unwrap();
    let divergence = replay(
        (accepts_anything.wrap)(Box::new(ReferenceDriver::new())).as_ref(),
        &ops,
    )
    .await
    .unwrap_err();
    assert_eq!(
        divergence.to_string(),
        "step 1 (store): the driver answered Ok(()), the model Err(invalid (namespace.charset))"
    );
}

/// A driver's failure is quoted whole in the divergence, not only its kind.
#[tokio::test]
async fn a_driver_failure_is_quoted_with_its_message() {
    let faults = tinymemory_doubles::Faults::new(
        ReferenceDriver::new(),
        tinymemory_doubles::FaultHandle::new(),
    );
    faults.hook().fail_nth(
        1,
        tinymemory_doubles::FaultKind::Backend {
            message: "disk I/O error; stderr: EIO on /data/memory.db".into(),
        },
    );
    let ops = vec![Op::store("learning:a", "k0", "comet")];
    let divergence = replay(&faults, &ops).await.unwrap_err();
    assert_eq!(
        divergence.to_string(),
        "step 1 (store): the driver answered Err(backend (\"backend failure: disk I/O error; \
         stderr: EIO on /data/memory.db\")), the model Ok(())"
    );
}
