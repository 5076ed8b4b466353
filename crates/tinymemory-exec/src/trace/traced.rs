//! The trace for in-process drivers: a decorator writing each call and its
//! result to the same trace, in the shape of the exec protocol.

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::{json, Value};
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions, RecallProfile,
};
use tinymemory_conformance::DriverFactory;

use crate::protocol::Request;

/// Wraps a driver and records every call to the installed trace
/// ([`install`](super::install)) as the exec protocol would carry it: a
/// `request` line (`{"op":"store",...}`, as [`Request`] serialises) and an
/// `answer` line (`{"result": ..}`, or `{"error": {"kind", "rule",
/// "message"}}`), with `pid: null`. Forwards every call unchanged; without
/// an installed trace it only forwards.
#[derive(Debug)]
pub struct Traced<P: ?Sized> {
    inner: P,
}

impl<P> Traced<P> {
    /// Wraps `inner`.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self { inner }
    }
}

fn answer<T: Serialize>(r: &Result<T, MemoryError>) -> Value {
    match r {
        Ok(v) => json!({ "result": v }),
        Err(e) => {
            json!({ "error": { "kind": e.kind(), "rule": e.rule(), "message": e.to_string() } })
        }
    }
}

fn record<T: Serialize>(request: &Request, r: &Result<T, MemoryError>) {
    if super::on() {
        super::request(None, &serde_json::to_string(request).unwrap_or_default());
        super::answer(None, answer(r).to_string().as_bytes());
    }
}

#[async_trait]
impl<P: MemoryProvider + ?Sized> MemoryProvider for Traced<P> {
    fn driver_id(&self) -> &str {
        self.inner.driver_id()
    }

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
        record(&request, &r);
        r
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        let r = self.inner.get(namespace, key).await;
        let request = Request::Get {
            namespace: namespace.to_owned(),
            key: key.to_owned(),
        };
        record(&request, &r);
        r
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        let r = self.inner.forget(namespace, key).await;
        let request = Request::Forget {
            namespace: namespace.to_owned(),
            key: key.to_owned(),
        };
        record(&request, &r);
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
        record(&request, &r);
        r
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        let r = self.inner.namespaces().await;
        record(&Request::Namespaces, &r);
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
        record(&request, &r);
        r
    }
}

/// A [`DriverFactory`] whose drivers are [`Traced`]: `--trace` for
/// in-process drivers.
pub struct TracedFactory {
    inner: Arc<dyn DriverFactory>,
}

impl TracedFactory {
    /// Traces the drivers `inner` opens.
    #[must_use]
    pub fn new(inner: Arc<dyn DriverFactory>) -> Self {
        Self { inner }
    }
}

#[async_trait]
impl DriverFactory for TracedFactory {
    fn driver_id(&self) -> String {
        self.inner.driver_id()
    }

    fn recall_profile(&self) -> RecallProfile {
        self.inner.recall_profile()
    }

    async fn open(&self) -> Result<Box<dyn MemoryProvider>, MemoryError> {
        Ok(Box::new(Traced::new(self.inner.open().await?)))
    }
}
