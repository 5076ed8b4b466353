//! The trace for in-process drivers: a decorator writing each call and its
//! result to the same trace, in the shape of the exec protocol.

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::{json, Value};
use tinymemory_api::portability::ImportOutcome;
use tinymemory_api::DriverFactory;
use tinymemory_api::{Answer, Call, CallHook, Hooked, MemoryError, MemoryProvider, RecallProfile};

use super::Trace;
use crate::protocol::Request;

/// Wraps a driver and records every call to a [`Trace`] as the exec
/// protocol would carry it: a
/// `request` line (`{"op":"store",...}`, as [`Request`] serialises) and an
/// `answer` line (`{"result": ..}`, or `{"error": {"kind", "rule",
/// "message"}}`), with `pid: null`, both written when the call returns.
/// Forwards every call unchanged, the three optional ops included
/// (`store_many`, `export_page`, `import`, traced as those requests). It is
/// [`Hooked`] with the [`Trace`] as its hook ([`Hooked::hook`] gives it
/// back).
pub type Traced<P> = Hooked<P, Trace>;

fn error_json(e: &MemoryError) -> Value {
    json!({ "kind": e.kind(), "rule": e.rule(), "message": e.to_string() })
}

fn shown<T: Serialize>(r: &Result<T, MemoryError>) -> Value {
    match r {
        Ok(v) => json!({ "result": v }),
        Err(e) => json!({ "error": error_json(e) }),
    }
}

/// An import outcome as the exec protocol's `import` answer carries it.
fn outcome_json(outcome: &ImportOutcome) -> Value {
    let failures: Vec<Value> = outcome
        .failures
        .iter()
        .map(|f| {
            json!({
                "index": f.index,
                "namespace": f.namespace,
                "key": f.key,
                "error": error_json(&f.error),
            })
        })
        .collect();
    json!({ "imported": outcome.imported, "failures": failures })
}

/// Writes the call's request and its answer when the call returns.
impl CallHook for Trace {
    type Pending = ();

    async fn before(&self, _call: &Call<'_>) -> Result<(), MemoryError> {
        Ok(())
    }

    fn after(&self, call: &Call<'_>, answer: Answer<'_>, (): ()) {
        let answer = match answer {
            Answer::Store(r) | Answer::StoreMany(r) => shown(r),
            Answer::Get(r) => shown(r),
            Answer::Forget(r) => shown(r),
            Answer::List(r) | Answer::Recall(r) => shown(r),
            Answer::Namespaces(r) => shown(r),
            Answer::ExportPage(r) => shown(r),
            Answer::Import(Ok(outcome)) => json!({ "result": outcome_json(outcome) }),
            Answer::Import(Err(e)) => json!({ "error": error_json(e) }),
            // The observation is JSON text: traced as the object it is.
            Answer::Interface(Ok(text)) => json!({
                "result": serde_json::from_str::<Value>(text).unwrap_or(Value::String(text.clone()))
            }),
            Answer::Interface(Err(e)) => json!({ "error": error_json(e) }),
        };
        let request = Request::from(*call);
        self.request(None, &serde_json::to_string(&request).unwrap_or_default());
        self.answer(None, answer.to_string().as_bytes());
    }
}

/// A [`DriverFactory`] whose drivers are [`Traced`]: `--trace` for
/// in-process drivers.
pub struct TracedFactory {
    inner: Arc<dyn DriverFactory>,
    trace: Trace,
}

impl TracedFactory {
    /// Traces the drivers `inner` opens to `trace`.
    #[must_use]
    pub fn new(inner: Arc<dyn DriverFactory>, trace: Trace) -> Self {
        Self { inner, trace }
    }
}

#[deny(clippy::missing_trait_methods)]
#[async_trait]
impl DriverFactory for TracedFactory {
    fn driver_id(&self) -> String {
        self.inner.driver_id()
    }

    fn recall_profile(&self) -> RecallProfile {
        self.inner.recall_profile()
    }

    fn independent_stores(&self) -> bool {
        self.inner.independent_stores()
    }

    fn start_ahead(&self, stores: usize) {
        self.inner.start_ahead(stores);
    }

    async fn open(&self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        Ok(Box::new(Traced::new(
            self.inner.open().await?,
            self.trace.clone(),
        )))
    }
}
