//! The trace for in-process drivers: a decorator writing each call and its
//! result to the same trace, in the shape of the exec protocol.

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::{json, Value};
use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::DriverFactory;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions, RecallProfile,
};

use super::Trace;
use crate::protocol::Request;

/// Wraps a driver and records every call to a [`Trace`] as the exec
/// protocol would carry it: a
/// `request` line (`{"op":"store",...}`, as [`Request`] serialises) and an
/// `answer` line (`{"result": ..}`, or `{"error": {"kind", "rule",
/// "message"}}`), with `pid: null`. Forwards every call unchanged, the
/// three optional ops included (`store_many`, `export_page`, `import`,
/// traced as those requests).
#[derive(Debug)]
pub struct Traced<P: ?Sized> {
    trace: Trace,
    inner: P,
}

impl<P> Traced<P> {
    /// Wraps `inner`, recording its calls to `trace`.
    #[must_use]
    pub fn new(inner: P, trace: Trace) -> Self {
        Self { trace, inner }
    }

    /// The wrapped driver.
    pub fn get_ref(&self) -> &P {
        &self.inner
    }

    /// The wrapped driver, mutably.
    pub fn get_mut(&mut self) -> &mut P {
        &mut self.inner
    }

    /// The wrapped driver, unwrapped.
    pub fn into_inner(self) -> P {
        self.inner
    }

    /// The trace the calls are recorded to.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }
}

fn error_json(e: &MemoryError) -> Value {
    json!({ "kind": e.kind(), "rule": e.rule(), "message": e.to_string() })
}

fn answer<T: Serialize>(r: &Result<T, MemoryError>) -> Value {
    match r {
        Ok(v) => json!({ "result": v }),
        Err(e) => json!({ "error": error_json(e) }),
    }
}

fn record<T: Serialize>(trace: &Trace, request: &Request, r: &Result<T, MemoryError>) {
    record_answer(trace, request, &answer(r));
}

fn record_answer(trace: &Trace, request: &Request, answer: &Value) {
    trace.request(None, &serde_json::to_string(request).unwrap_or_default());
    trace.answer(None, answer.to_string().as_bytes());
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

tinymemory_api::delegate_provider! {
    impl[P: MemoryProvider + ?Sized] MemoryProvider for Traced<P> {
        forward(inner): driver_id;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            let request = Request::Store {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
                content: content.to_owned(),
                category: category.clone(),
                session_id: session_id.map(str::to_owned),
                taint,
            };
            let r = self
                .inner
                .store(namespace, key, content, category, session_id, taint)
                .await;
            record(&self.trace, &request, &r);
            r
        }

        async fn get(
            &self,
            namespace: &str,
            key: &str,
        ) -> Result<Option<MemoryEntry>, MemoryError> {
            let r = self.inner.get(namespace, key).await;
            let request = Request::Get {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            };
            record(&self.trace, &request, &r);
            r
        }

        async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
            let r = self.inner.forget(namespace, key).await;
            let request = Request::Forget {
                namespace: namespace.to_owned(),
                key: key.to_owned(),
            };
            record(&self.trace, &request, &r);
            r
        }

        async fn list(
            &self,
            namespace: Option<&str>,
            category: Option<&MemoryCategory>,
            session_id: Option<&str>,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let r = self.inner.list(namespace, category, session_id).await;
            let request = Request::List {
                namespace: namespace.map(str::to_owned),
                category: category.cloned(),
                session_id: session_id.map(str::to_owned),
            };
            record(&self.trace, &request, &r);
            r
        }

        async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
            let r = self.inner.namespaces().await;
            record(&self.trace, &Request::Namespaces, &r);
            r
        }

        async fn recall(
            &self,
            query: &str,
            limit: usize,
            opts: &RecallOptions,
        ) -> Result<Vec<MemoryEntry>, MemoryError> {
            let r = self.inner.recall(query, limit, opts).await;
            let request = Request::Recall {
                query: query.to_owned(),
                limit: u64::try_from(limit).unwrap_or(u64::MAX),
                namespace: opts.namespace.clone(),
                category: opts.category.clone(),
                session_id: opts.session_id.clone(),
                min_score: opts.min_score,
            };
            record(&self.trace, &request, &r);
            r
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            let r = self.inner.store_many(entries).await;
            let request = Request::StoreMany {
                entries: entries.to_vec(),
            };
            record_answer(&self.trace, &request, &answer(&r));
            r
        }

        async fn export_page(
            &self,
            cursor: Option<&ExportCursor>,
            limit: usize,
        ) -> Result<ExportPage, MemoryError> {
            let r = self.inner.export_page(cursor, limit).await;
            let request = Request::ExportPage {
                cursor: cursor.map(|c| c.as_str().to_owned()),
                limit: u64::try_from(limit).unwrap_or(u64::MAX),
            };
            record(&self.trace, &request, &r);
            r
        }

        async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
            let r = self.inner.import(records).await;
            let request = Request::Import {
                records: records.to_vec(),
            };
            let shown = match &r {
                Ok(outcome) => json!({ "result": outcome_json(outcome) }),
                Err(e) => json!({ "error": error_json(e) }),
            };
            record_answer(&self.trace, &request, &shown);
            r
        }
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
