//! The double the interface judges' unit tests share: the reference
//! driver answering every interface scenario with an observation an
//! adapter could give, made from the inputs the suite sent.

use std::sync::{Arc, Mutex};

use serde_json::Value;
use tinymemory_api::interface::Scenario;
use tinymemory_api::{FnFactory, MemoryError, MemoryProvider, RecallProfile};
use tinymemory_reference::ReferenceDriver;

use crate::{CheckContext, Outcome, Registry, RunConfig};

/// What the double answers a scenario with: the inputs sent and whether
/// it is the async path, to the observation.
pub(super) type Answer = Arc<dyn Fn(&Value, bool) -> Value + Send + Sync>;

/// The reference driver, answering every scenario of `interface` with
/// `answer` and keeping the inputs each request carried.
struct Observing {
    inner: ReferenceDriver,
    interface: &'static str,
    answer: Answer,
    sent: Arc<Mutex<Vec<Value>>>,
}

tinymemory_api::delegate_provider! {
    impl MemoryProvider for Observing {
        forward(inner): driver_id, store, get, forget, list, namespaces, recall, store_many,
            export_page, import;

        async fn interface(&self, scenario: &Scenario<'_>) -> Result<String, MemoryError> {
            assert_eq!(scenario.interface, self.interface);
            self.sent.lock().unwrap().push(scenario.inputs.clone());
            Ok((self.answer)(scenario.inputs, scenario.use_async).to_string())
        }
    }
}

/// The outcome of check `id` over the double answering `answer` for
/// `interface`, and the inputs the suite sent (one per path).
pub(super) fn outcome(
    interface: &'static str,
    id: &str,
    answer: impl Fn(&Value, bool) -> Value + Send + Sync + 'static,
) -> (Outcome, Vec<Value>) {
    let answer: Answer = Arc::new(answer);
    let sent = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&sent);
    let open = move || {
        Ok(Box::new(Observing {
            inner: ReferenceDriver::new(),
            interface,
            answer: Arc::clone(&answer),
            sent: Arc::clone(&kept),
        }) as Box<dyn MemoryProvider>)
    };
    let outcome = run_check(id, open);
    let sent = sent.lock().unwrap().clone();
    (outcome, sent)
}

/// The outcome of check `id` over the stores `open` makes, under the
/// default run config.
pub(super) fn run_check(
    id: &str,
    open: impl Fn() -> Result<Box<dyn MemoryProvider>, MemoryError> + Send + Sync + 'static,
) -> Outcome {
    let check = Registry::standard()
        .checks()
        .iter()
        .find(|c| c.id == id)
        .copied()
        .unwrap();
    let ctx = CheckContext {
        factory: Arc::new(FnFactory::new("observing", open)),
        corpus: None,
        config: RunConfig::default(),
        profile: RecallProfile::Semantic,
    };
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on((check.run)(ctx))
}
