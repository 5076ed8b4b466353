//! `recall.namespace_isolation` fails a driver whose scores use
//! collection-wide statistics, and one whose tie order changes with writes
//! elsewhere (saying that only a tie group differs), and passes the
//! reference drivers.

use std::sync::Arc;

use async_trait::async_trait;
use tinymemory_api::{
    MemoryCategory, MemoryEntry, MemoryError, MemoryProvider, MemoryTaint, NamespaceSummary,
    RecallOptions, RecallProfile,
};
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
         the same scores (bit for bit, or within the summation noise of docs/profiles.md, \
         \"Score noise\") whatever other namespaces hold (contract sentence 11; statistics \
         such as bm25's document frequency and average length must be per namespace) \
         (the check's set-up data was written by store_many; if \
         properties.store_many_matches_store fails too, look at the batch path first)"
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

/// The reference driver, but each group of equal scores comes in reverse
/// key order once the whole store holds more than 20 entries, as an engine
/// breaking ties by internal ids that a compaction renumbers does. Its
/// scores never change.
struct TiesByStoreSize(ReferenceDriver);

#[async_trait]
impl MemoryProvider for TiesByStoreSize {
    fn driver_id(&self) -> &str {
        "ties-by-store-size"
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
        self.0
            .store(namespace, key, content, category, session_id, taint)
            .await
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        self.0.get(namespace, key).await
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        self.0.forget(namespace, key).await
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        self.0.list(namespace, category, session_id).await
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        self.0.namespaces().await
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        let mut hits = self.0.recall(query, usize::MAX, opts).await?;
        let size: u64 = self.0.namespaces().await?.iter().map(|s| s.count).sum();
        if size > 20 {
            let bits = |h: &MemoryEntry| h.score.map(f64::to_bits);
            let mut out: Vec<MemoryEntry> = Vec::with_capacity(hits.len());
            for group in hits.chunk_by_mut(|a, b| bits(a) == bits(b)) {
                group.reverse();
                out.extend(group.iter().cloned());
            }
            hits = out;
        }
        hits.truncate(limit);
        Ok(hits)
    }
}

#[tokio::test]
async fn a_tie_order_moved_by_writes_elsewhere_is_named_as_such() {
    let outcome = isolation(FnFactory::new("ties", || {
        Ok(Box::new(TiesByStoreSize(ReferenceDriver::new())) as Box<dyn MemoryProvider>)
    }))
    .await;
    let Outcome::Fail(failure) = outcome else {
        panic!("expected a failure, got {outcome:?}");
    };
    assert_eq!(
        failure.message,
        "recall(\"comet\", limit 10) pinned to learning:tenant-a answered [a1 (1.0), a2 (1.0), \
         a4 (1.0), a7 (1.0)] at first and [a7 (1.0), a4 (1.0), a2 (1.0), a1 (1.0)] after storing \
         12 entries in other namespaces: the two answers differ only in the order of the \
         entries tied at score 1.0. The scores are the same, so the statistics are not the \
         cause: the engine breaks ties by something writes elsewhere change (an internal id, \
         insertion or segment order). Break ties by the entries' own data (key ascending is the \
         simple rule: docs/profiles.md, \"equal scores in an order independent of insertion \
         order\"), so a pinned recall returns the same hits whatever other namespaces hold \
         (contract sentence 11) \
         (the check's set-up data was written by store_many; if \
         properties.store_many_matches_store fails too, look at the batch path first)"
    );
}
