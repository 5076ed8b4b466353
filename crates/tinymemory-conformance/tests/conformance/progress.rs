//! Property checks report each passed case to the runner's progress counter.

use std::sync::Arc;

use tinymemory_api::MemoryProvider;
use tinymemory_conformance::{CaseProgress, FnFactory, Outcome, Registry, RunConfig, Runner};
use tinymemory_reference::ReferenceDriver;

#[tokio::test]
async fn a_property_check_counts_its_cases() {
    let factory = Arc::new(FnFactory::new("reference", || {
        Ok(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>)
    }));
    let progress = CaseProgress::new();
    let registry = Registry::standard().filter(|c| c.id == "properties.truncation");
    let summary = Runner::new(registry)
        .with_config(RunConfig { seed: 7, cases: 5 })
        .with_progress(progress.clone())
        .run(factory, None, |_| {})
        .await;
    assert_eq!(summary.reports[0].outcome, Outcome::Pass);
    assert_eq!(progress.get(), Some((5, 5)));
}
