//! `recall.namespace_isolation` fails a driver whose scores use
//! collection-wide statistics, and passes the reference drivers.

use std::sync::Arc;

use tinymemory_api::{MemoryProvider, RecallProfile};
use tinymemory_conformance::{FnFactory, Outcome, Registry, Runner};
use tinymemory_doubles::mutants::CollectionWideStatistics;
use tinymemory_reference::{ReferenceDriver, SemanticReferenceDriver};

async fn isolation(
    factory: FnFactory<
        impl Fn() -> Result<Box<dyn MemoryProvider>, tinymemory_api::MemoryError>
            + Send
            + Sync
            + 'static,
    >,
) -> Outcome {
    let registry = Registry::standard().filter(|c| c.id == "recall.namespace_isolation");
    let summary = Runner::new(registry)
        .run(Arc::new(factory), None, |_| {})
        .await;
    assert_eq!(summary.reports.len(), 1);
    summary.reports[0].outcome.clone()
}

#[tokio::test]
async fn collection_wide_bm25_statistics_fail_it_naming_the_recall_and_the_write() {
    let outcome = isolation(FnFactory::new("collection-wide", || {
        Ok(
            Box::new(CollectionWideStatistics::new(ReferenceDriver::new()))
                as Box<dyn MemoryProvider>,
        )
    }))
    .await;
    let Outcome::Fail(failure) = outcome else {
        panic!("expected a failure, got {outcome:?}");
    };
    assert_eq!(
        failure.message,
        "recall(\"comet\", limit 10) pinned to learning:tenant-a answered \
         [a1 (0.9044562742271522), a2 (0.9044562742271522), a4 (0.9044562742271522), \
         a7 (0.9044562742271522)] at first and [a1 (0.8223589120399516), \
         a2 (0.8223589120399516), a4 (0.8223589120399516), a7 (0.8223589120399516)] after \
         storing 12 entries in other namespaces: a pinned recall must return the same hits with \
         the same score bits whatever other namespaces hold (contract sentence 11; statistics \
         such as bm25's document frequency and average length must be per namespace)"
    );
}

#[tokio::test]
async fn the_reference_drivers_pass_it() {
    let lexical = isolation(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }))
    .await;
    assert_eq!(lexical, Outcome::Pass);
    let semantic = isolation(
        FnFactory::new("semantic-reference", || {
            Ok(Box::new(SemanticReferenceDriver::new()) as Box<dyn MemoryProvider>)
        })
        .with_profile(RecallProfile::Semantic),
    )
    .await;
    assert_eq!(semantic, Outcome::Pass);
}
