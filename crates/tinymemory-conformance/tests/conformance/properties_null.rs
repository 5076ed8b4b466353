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
    // Every check of the family, in registry order: only the namespace
    // property passes.
    let want: Vec<(&str, Outcome)> = Registry::standard()
        .family(Family::Property)
        .checks()
        .iter()
        .map(|c| {
            let outcome = if c.id == "properties.namespace_round_trip" {
                Outcome::Pass
            } else {
                retains_nothing.clone()
            };
            (c.id, outcome)
        })
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        summary.closing_line(),
        format!("1 passed, 0 failed, {} skipped", want.len() - 1)
    );
}
