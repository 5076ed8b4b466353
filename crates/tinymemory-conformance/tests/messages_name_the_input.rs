//! Failure messages name the input that failed and the rule broken first,
//! on purpose-built broken doubles of the lexical reference driver.

use std::sync::Arc;

use async_trait::async_trait;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions,
};
use tinymemory_conformance::{DriverFactory, FnFactory, Outcome, Registry, Runner};
use tinymemory_reference::ReferenceDriver;

#[derive(Clone, Copy)]
enum Fault {
    /// Words outside ASCII are never indexed: a recall by one finds
    /// nothing, as an ASCII-only tokenizer does.
    AsciiOnlyWords,
    /// Scores are a distance, lower is nearer (0.25 for the best hit, 0.5
    /// for the next, ...), nearest first, and every other entry of the
    /// namespace follows at distance 8: a vector store's top-k with its
    /// distances.
    DistanceTopK,
}

struct Broken {
    fault: Fault,
    inner: ReferenceDriver,
}

#[async_trait]
impl MemoryProvider for Broken {
    fn driver_id(&self) -> &str {
        "broken"
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
        self.inner
            .store(namespace, key, content, category, session_id, taint)
            .await
    }
    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        self.inner.get(namespace, key).await
    }
    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.inner.forget(namespace, key).await
    }
    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.inner.list(namespace, category, session_id).await
    }
    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        self.inner.namespaces().await
    }
    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        match self.fault {
            Fault::AsciiOnlyWords if !query.is_ascii() => Ok(Vec::new()),
            Fault::AsciiOnlyWords => self.inner.recall(query, limit, opts).await,
            Fault::DistanceTopK => {
                let mut hits = self.inner.recall(query, limit, opts).await?;
                let mut distance = 0.25;
                for h in &mut hits {
                    h.score = Some(distance);
                    distance *= 2.0;
                }
                let ns = opts.effective_namespace().to_owned();
                for mut e in self.inner.list(Some(&ns), None, None).await? {
                    if hits.len() < limit && hits.iter().all(|h| h.key != e.key) {
                        e.score = Some(8.0);
                        e.namespace = Some(ns.clone());
                        hits.push(e);
                    }
                }
                Ok(hits)
            }
        }
    }
}

async fn message_of(check: &'static str, fault: Fault) -> String {
    let factory: Arc<dyn DriverFactory> = Arc::new(FnFactory::new("broken", move || {
        Ok(Box::new(Broken {
            fault,
            inner: ReferenceDriver::new(),
        }) as Box<dyn MemoryProvider>)
    }));
    let registry = Registry::standard().filter(|c| c.id == check);
    let summary = Runner::new(registry).run(factory, None, |_| {}).await;
    match &summary.reports[0].outcome {
        Outcome::Fail(f) => f.message.clone(),
        other => panic!("{check} did not fail: {other:?}"),
    }
}

#[tokio::test]
async fn big_content_names_the_word_it_recalls_by() {
    assert_eq!(
        message_of("store.big_content_round_trip", Fault::AsciiOnlyWords).await,
        "recall(\"机\", limit 5) in hostile:big, a word of the 1 MiB content: \
         expected [\"big\"], got []"
    );
}

#[tokio::test]
async fn a_distance_for_score_is_reported_before_the_extra_hits() {
    assert_eq!(
        message_of("recall.scores_finite_higher_better", Fault::DistanceTopK).await,
        "the entry holding both query words scored 0.25, not above the entry holding \
         one (0.5): scores must be higher-is-better"
    );
}
