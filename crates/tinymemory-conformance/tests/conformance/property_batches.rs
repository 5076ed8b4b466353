//! A property case's data goes in by one `store_many`, not a `store` per
//! entry (issue 46: through an adapter each call is a request of its own).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tinymemory_api::{MemoryCategory, MemoryError, MemoryTaint, NewEntry};
use tinymemory_conformance::{FnFactory, Outcome, Registry, RunConfig, Runner};
use tinymemory_reference::ReferenceDriver;

/// What every store of one factory was asked: `store` calls, `store_many`
/// calls and the entries those held.
#[derive(Default)]
struct Counts {
    stores: AtomicUsize,
    batches: AtomicUsize,
    batched: AtomicUsize,
}

/// The reference driver, counting into the factory's [`Counts`].
struct Counting {
    inner: ReferenceDriver,
    counts: Arc<Counts>,
}

tinymemory_api::delegate_provider! {
    impl MemoryProvider for Counting {
        forward(inner): driver_id, get, forget, list, namespaces, recall, export_page, import;

        async fn store(
            &self,
            namespace: &str,
            key: &str,
            content: &str,
            category: MemoryCategory,
            session_id: Option<&str>,
            taint: MemoryTaint,
        ) -> Result<(), MemoryError> {
            self.counts.stores.fetch_add(1, Ordering::Relaxed);
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            self.counts.batches.fetch_add(1, Ordering::Relaxed);
            self.counts.batched.fetch_add(entries.len(), Ordering::Relaxed);
            self.inner.store_many(entries).await
        }
    }
}

#[tokio::test]
async fn a_property_case_stores_its_data_in_one_batch() {
    let counts = Arc::new(Counts::default());
    let shared = Arc::clone(&counts);
    let factory = Arc::new(FnFactory::new("counting", move || {
        Ok(Box::new(Counting {
            inner: ReferenceDriver::new(),
            counts: Arc::clone(&shared),
        }) as _)
    }));
    let registry = Registry::standard().filter(|c| c.id == "properties.across_ordering");
    let summary = Runner::new(registry)
        .with_config(RunConfig {
            cases: 16,
            ..RunConfig::default()
        })
        .run(factory, None, |_| {})
        .await;
    assert_eq!(summary.reports.len(), 1);
    assert_eq!(summary.reports[0].outcome, Outcome::Pass);
    // One `store`: the retention probe's, before the cases.
    assert_eq!(counts.stores.load(Ordering::Relaxed), 1);
    // A batch per case that has data (a case may have none), each with
    // that case's entries.
    let batches = counts.batches.load(Ordering::Relaxed);
    assert!(
        (1..=16).contains(&batches),
        "{batches} batches for 16 cases"
    );
    assert!(counts.batched.load(Ordering::Relaxed) >= batches);
}
