//! The corpus loader stores in batches through `store_many`.

use std::sync::Mutex;

use tinymemory_api::{MemoryCategory, MemoryError, MemoryTaint, NewEntry};
use tinymemory_conformance::LoadedCorpus;
use tinymemory_corpus::Corpus;
use tinymemory_reference::ReferenceDriver;

/// The reference driver, recording the length of every `store_many` and
/// counting `store` calls; `fail_batch` makes that `store_many` call (0-based)
/// fail.
#[derive(Default)]
struct Batches {
    inner: ReferenceDriver,
    sizes: Mutex<Vec<usize>>,
    stores: Mutex<usize>,
    fail_batch: Option<usize>,
}

tinymemory_api::delegate_provider! {
    impl MemoryProvider for Batches {
        forward(inner): get, forget, list, namespaces, recall, export_page, import, interface;

        fn driver_id(&self) -> &str {
            "batches"
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
            *self.stores.lock().unwrap() += 1;
            self.inner
                .store(namespace, key, content, category, session_id, taint)
                .await
        }

        async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
            let call = {
                let mut sizes = self.sizes.lock().unwrap();
                sizes.push(entries.len());
                sizes.len() - 1
            };
            if self.fail_batch == Some(call) {
                return Err(MemoryError::fault("disk full"));
            }
            self.inner.store_many(entries).await
        }
    }
}

#[tokio::test]
async fn the_corpus_goes_in_batches_of_1000_and_never_one_by_one() {
    let corpus = Corpus::load(&Corpus::default_root()).unwrap();
    let driver = std::sync::Arc::new(Batches::default());
    let loaded = LoadedCorpus::load(Box::new(driver.clone()), &corpus)
        .await
        .unwrap();
    assert_eq!(loaded.report().entries(), 22_688);
    let mut expected = vec![1_000; 22];
    expected.push(688);
    assert_eq!(*driver.sizes.lock().unwrap(), expected);
    assert_eq!(*driver.stores.lock().unwrap(), 0);
    let held: u64 = loaded
        .provider()
        .namespaces()
        .await
        .unwrap()
        .iter()
        .map(|n| n.count)
        .sum();
    assert_eq!(held, 22_688);
}

#[tokio::test]
async fn a_failed_batch_names_where_it_lies_in_the_corpus() {
    let corpus = Corpus::load(&Corpus::default_root()).unwrap();
    let driver = Batches {
        fail_batch: Some(1),
        ..Batches::default()
    };
    let mut calls = 0;
    let err = match LoadedCorpus::load_with_progress(Box::new(driver), &corpus, |_, _| calls += 1)
        .await
    {
        Ok(_) => panic!("the second batch fails"),
        Err(e) => e,
    };
    let origin = |i: usize| {
        let e = &corpus.entries[i];
        format!("{}:{}", e.origin.file.display(), e.origin.line)
    };
    assert_eq!(
        err,
        MemoryError::fault(format!(
            "failed to load the batch of 1000 entries from {} to {}: {}",
            origin(1_000),
            origin(1_999),
            MemoryError::fault("disk full")
        ))
    );
    // The first batch was stored and reported; nothing of the second.
    assert_eq!(calls, 1_000);
}
