//! Running one standard check alone against a driver and reading why it
//! failed, for the tests that show a check fails on a broken double.

use std::sync::Arc;

use tinymemory_conformance::{DriverFactory, Outcome, Registry, Runner};

/// The failure message of check `id`, run alone against fresh drivers
/// from `factory` under the factory's profile.
///
/// # Panics
///
/// When the check does not apply to the factory's profile, or does not
/// fail.
pub async fn failure_of(factory: Arc<dyn DriverFactory>, id: &str) -> String {
    let summary = Runner::new(Registry::standard().filter(|c| c.id == id))
        .run(factory, None, |_| {})
        .await;
    assert_eq!(
        summary.reports.len(),
        1,
        "{id} runs under the {} profile",
        summary.profile
    );
    match &summary.reports[0].outcome {
        Outcome::Fail(f) => f.message.clone(),
        other => panic!("{id} did not fail: {other:?}"),
    }
}
