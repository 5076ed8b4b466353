//! The property checks on the null driver, which retains nothing: every
//! property that reads stored data back is skipped saying so, never passed;
//! the namespace property, which needs no data, runs and passes.

use std::sync::Arc;

use tinymemory_conformance::{Family, FnFactory, Outcome, Registry, RunConfig, Runner};
use tinymemory_doubles::NullDriver;

#[tokio::test]
async fn properties_needing_data_are_skipped_as_retaining_nothing() {
    let factory = Arc::new(FnFactory::new("null", || {
        Ok(Box::new(NullDriver::new()) as _)
    }));
    let summary = Runner::new(Registry::standard().family(Family::Property))
        .with_config(RunConfig::from_env().unwrap())
        .run(factory, None, |_| {})
        .await;
    let retains_nothing = Outcome::Skip(
        "driver retains nothing: an entry stored in a fresh null driver was not returned by get, \
         so this property would pass without checking anything"
            .to_owned(),
    );
    let got: Vec<(&str, Outcome)> = summary
        .reports
        .iter()
        .map(|r| (r.id, r.outcome.clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("properties.across_ordering", retains_nothing.clone()),
            ("properties.cap_determinism", retains_nothing.clone()),
            ("properties.custom_spelling", retains_nothing.clone()),
            ("properties.namespace_round_trip", Outcome::Pass),
            ("properties.pinning_cost", retains_nothing.clone()),
            ("properties.truncation", retains_nothing.clone()),
            (
                "properties.concurrent_equals_sequential",
                retains_nothing.clone()
            ),
            ("properties.export_partition", retains_nothing.clone()),
            ("properties.export_round_trip", retains_nothing.clone()),
            ("model.differential", retains_nothing),
        ]
    );
    assert_eq!(summary.closing_line(), "1 passed, 0 failed, 9 skipped");
}
